"""A seat's state between and during hands."""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any


class SeatStatus(StrEnum):
    PLAYING = "playing"  # dealt in when a hand starts (or posting to come back)
    WAITING = "waiting"  # new: waiting for the big blind, or to post one (R-SEAT-2)
    SITTING_OUT = "sitting_out"  # not dealt in; collects missed-blind markers (R-SEAT-5)
    BUSTED = "busted"  # no chips: rebuy the minimum before the next hand or lose the seat


class PreAction(StrEnum):
    CHECK_FOLD = "check_fold"
    CALL_ANY = "call_any"


@dataclass
class Seat:
    """Mutable bookkeeping for one occupied seat; only the Table changes it."""

    number: int
    player: str
    name: str
    stack: int
    status: SeatStatus
    joined: int  # order of sitting down (R-BTN-2 first_seat)
    time_bank: float
    paid_blinds: bool = False  # posted a big blind since sitting down (R-BLIND-6)
    missed_big: bool = False  # ML marker (R-SEAT-3)
    missed_small: bool = False  # MS marker (R-SEAT-4)
    post_now: bool = False  # post a big blind to be dealt in at once (R-SEAT-2, R-SEAT-3)
    auto_post: bool = True
    # Show down only a hand that must be shown or can still win (R-SHOW-4), muck the rest;
    # off, a losing hand is shown too. The account's preference sets it.
    auto_muck: bool = True
    sit_out_next: bool = False
    leave_after: bool = False
    pre_action: PreAction | None = None
    timeouts: int = 0
    connected: bool = True
    big_blinds_posted: int = 0
    busted_at: float | None = None  # when the stack ran out: the rebuy window starts
    sat_out_at: float | None = None  # when the table first saw the seat sitting out
    # A tournament entrant not yet dealt a hand at this table (a late entry, a move, a
    # redraw): never dealt in between the button and the small blind (TDA 8A, 10A).
    arrived: bool = False
    # R-STRADDLE-1: straddle whenever directly left of the big blind (the table decides
    # whether the seat may); R-RIT-1: agree to run it twice without being asked.
    straddle: bool = False
    run_it_twice: bool = False

    def to_json(self) -> dict[str, Any]:
        # Every field is a number, a string, a flag or an enum: a flat copy is ``asdict``'s
        # result without its deep copy of each value (snapshots as hands start and end).
        return {name: getattr(self, name) for name in SEAT_FIELDS}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Seat:
        values = dict(data)
        values["status"] = SeatStatus(values["status"])
        if values.get("pre_action") is not None:
            values["pre_action"] = PreAction(values["pre_action"])
        return Seat(**values)


SEAT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Seat))
