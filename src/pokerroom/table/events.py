"""Frozen table events: everything that happens between and around hands (DESIGN 3)."""

from __future__ import annotations

from typing import ClassVar

from pokerroom.cards import Card
from pokerroom.engine.events import Event
from pokerroom.records import record


@record
class SeatTaken(Event):
    kind: ClassVar[str] = "seat_taken"
    seat: int
    player: str
    name: str
    stack: int


@record
class SeatLeft(Event):
    kind: ClassVar[str] = "seat_left"
    seat: int
    player: str
    stack: int  # chips taken off the table
    reason: str  # left, busted, moved


@record
class ChipsAdded(Event):
    """A top-up or rebuy between hands (R-STAKE-1)."""

    kind: ClassVar[str] = "chips_added"
    seat: int
    amount: int
    stack: int


@record
class SeatStatusChanged(Event):
    kind: ClassVar[str] = "seat_status"
    seat: int
    status: str  # playing, sitting_out, waiting, busted
    reason: str


@record
class BlindMissed(Event):
    """R-SEAT-3 (big: ML marker) or R-SEAT-4 (small: MS marker)."""

    kind: ClassVar[str] = "blind_missed"
    seat: int
    blind: str  # big, small


@record
class ButtonDrawn(Event):
    """R-BTN-2 draw: one card each; the highest (ties by suit, R-DECK-4) is first to act."""

    kind: ClassVar[str] = "button_drawn"
    cards: tuple[tuple[int, Card], ...]  # (seat, card)
    first_seat: int


@record
class HandStarting(Event):
    kind: ClassVar[str] = "hand_starting"
    number: int
    button_seat: int  # may be an empty seat: a dead button
    small_blind_seat: int | None  # None: no small blind this hand (dead small blind)
    big_blind_seat: int
    seats: tuple[int, ...]  # dealt in, in position order (first left of the button first)
    fresh: bool  # the first hand of a new (or restarted) rotation: nobody owes a blind


@record
class HandFinished(Event):
    kind: ClassVar[str] = "hand_finished"
    number: int
    stacks: tuple[tuple[int, int], ...]  # (seat, stack)
    rake: int
    cancelled: bool


@record
class TimerStarted(Event):
    kind: ClassVar[str] = "timer_started"
    seat: int
    deadline: float
    warning_at: float
    time_bank: float


@record
class TimerWarning(Event):
    kind: ClassVar[str] = "timer_warning"
    seat: int
    seconds_left: float


@record
class TimeBankUsed(Event):
    kind: ClassVar[str] = "time_bank_used"
    seat: int
    seconds: float
    deadline: float


@record
class TimerExpired(Event):
    kind: ClassVar[str] = "timer_expired"
    seat: int


@record
class ConnectionChanged(Event):
    kind: ClassVar[str] = "connection"
    seat: int
    connected: bool
    extra_seconds: float  # R-TIME-3: granted on a reconnect within the player's time


@record
class WaitingListChanged(Event):
    kind: ClassVar[str] = "waiting_list"
    players: tuple[str, ...]


@record
class SeatOffered(Event):
    kind: ClassVar[str] = "seat_offered"
    seat: int
    player: str
