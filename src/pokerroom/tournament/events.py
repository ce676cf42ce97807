"""Frozen tournament events (what the coordinator did between and around the tables' hands)
and the coordinator's error."""

from __future__ import annotations

from dataclasses import dataclass

from pokerroom.errors import CodedError


class TournamentError(CodedError, ValueError):
    """A tournament request the structure or the tournament's state does not allow; nothing
    changed. Those a player is sent carry their ``code`` (pokerroom/errors.py)."""


@dataclass(frozen=True, slots=True)
class Registered:
    entry: str
    player: str
    chips: int
    late: bool  # during late registration (a new entry or a re-entry)


@dataclass(frozen=True, slots=True)
class Unregistered:
    entry: str
    player: str


@dataclass(frozen=True, slots=True)
class Seated:
    """An entry took a seat: at the start (TDA 7), as a late entry, a move or a redraw."""

    entry: str
    table: int
    seat: int
    reason: str  # draw, late, balance, break


@dataclass(frozen=True, slots=True)
class Moved:
    """Balancing (TDA 11A) or a broken table's redraw (TDA 10B), between hands at both."""

    entry: str
    from_table: int
    to_table: int
    seat: int
    reason: str  # balance, break
    # The last player of a broken table, who posted the big blind in their last hand, to a
    # table where every open seat is next for the big blind: it cannot be helped (TDA 10A).
    big_blind_again: bool = False


@dataclass(frozen=True, slots=True)
class TableBroken:
    table: int
    final_table: int | None  # set when the remaining players now fit one table


@dataclass(frozen=True, slots=True)
class Balanced:
    """Every table's player count after a balancing step (tables within one player)."""

    sizes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LevelStarted:
    level: int  # 1-based
    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: int


@dataclass(frozen=True, slots=True)
class HandDealt:
    """A table dealt a hand: who was dealt in and who posted the big blind."""

    table: int
    number: int  # the tournament's count of hands
    entries: tuple[str, ...]
    big_blind: str | None
    round: int | None  # the hand-for-hand round, when hand-for-hand is on


@dataclass(frozen=True, slots=True)
class HandDone:
    table: int
    number: int
    busted: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HandForHand:
    on: bool


@dataclass(frozen=True, slots=True)
class RebuyOffered:
    """A bust in the rebuy period: the seat waits, dealt out, until the player rebuys,
    declines or lets ``until`` pass (their decision time); only the last two eliminate."""

    entry: str
    until: float


@dataclass(frozen=True, slots=True)
class Rebought:
    entry: str
    chips: int
    price: int
    addon: bool  # the add-on rather than a rebuy


@dataclass(frozen=True, slots=True)
class Eliminated:
    entry: str
    group: int  # entries eliminated in the same group busted in the same (synchronized) hand
    chips_at_start: int


@dataclass(frozen=True, slots=True)
class RegistrationClosed:
    entries: int
    prize_pool: int | None  # None while rebuys or the add-on are still open


@dataclass(frozen=True, slots=True)
class Finished:
    winner: str


@dataclass(frozen=True, slots=True)
class DealMade:
    kind: str  # icm or chip
    amounts: tuple[tuple[str, int], ...]  # entry, amount
    keep: int  # played on for with the title


@dataclass(frozen=True, slots=True)
class BountyWon:
    """A knockout event's bounty paid: ``busted``'s, shared by their knockers (or the
    winner's own, at the end). Each share: (knocker, cash to their balance, added to their
    own bounty, their bounty after it)."""

    busted: str
    table: int | None  # the table and its hand number where it was won (None: the end)
    hand: int | None
    shares: tuple[tuple[str, int, int, int], ...]
