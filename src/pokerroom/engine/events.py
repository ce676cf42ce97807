"""Frozen events: everything that happens in a hand, in order (DESIGN principle 3).

Positions count from the first player left of the button (0) to the button
(last), as in PHH; ``seat`` is the table seat number, for people and messages.
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar, Final

from pokerroom.cards import Card
from pokerroom.records import Record


# The kinds below are str-valued enums: JSON, PHH and every label keyed on them see the
# same strings as before, and a typo is a NameError rather than a silent miss.
class Move(StrEnum):
    """What an ``ActionTaken`` did (an ``ActionKind`` resolved against the bet)."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"


class ForcedBetKind(StrEnum):
    ANTE = "ante"
    BIG_BLIND_ANTE = "big_blind_ante"
    SMALL_BLIND = "small_blind"
    BIG_BLIND = "big_blind"
    STRADDLE = "straddle"
    LIVE_POST = "live_post"  # a new or returning player's post (R-SEAT-2..4)
    DEAD_POST = "dead_post"

    @property
    def is_ante(self) -> bool:
        """An ante goes into the pot, not towards the player's bet."""
        return self is ForcedBetKind.ANTE or self is ForcedBetKind.BIG_BLIND_ANTE

    @property
    def is_blind(self) -> bool:
        return (
            self is ForcedBetKind.SMALL_BLIND
            or self is ForcedBetKind.BIG_BLIND
            or self is ForcedBetKind.STRADDLE
        )


class PotShare(StrEnum):
    WHOLE = "whole"
    HIGH = "high"  # hi-lo: the high half (with the odd chip, R-HILO-6)
    LOW = "low"


class Event(Record):
    kind: ClassVar[str] = "event"


class HandStarted(Event):
    kind: ClassVar[str] = "hand_started"
    __match_args__: ClassVar[tuple[str, ...]] = ("game", "seats", "stacks", "button_seat")

    def __init__(
        self, game: str, seats: tuple[int, ...], stacks: tuple[int, ...], button_seat: int
    ) -> None:
        self.game: Final = game  # PHH code, e.g. "NT"
        self.seats: Final = seats  # by position
        self.stacks: Final = stacks  # by position, before any post
        self.button_seat: Final = button_seat


class ForcedBet(Event):
    """An ante, blind, straddle or a new/returning player's post (R-SEAT-2..4)."""

    kind: ClassVar[str] = "forced_bet"
    __match_args__: ClassVar[tuple[str, ...]] = (
        "position",
        "seat",
        "what",
        "amount",
        "dead",
        "all_in",
    )

    def __init__(
        self,
        *,
        position: int,
        seat: int,
        what: ForcedBetKind,
        amount: int,
        dead: bool,
        all_in: bool,
    ) -> None:
        self.position: Final = position
        self.seat: Final = seat
        self.what: Final = what
        self.amount: Final = amount
        self.dead: Final = dead  # dead money goes to the pot, not towards the player's bet
        self.all_in: Final = all_in


class HoleCardsDealt(Event):
    kind: ClassVar[str] = "hole_cards_dealt"
    __match_args__: ClassVar[tuple[str, ...]] = ("position", "seat", "cards")

    def __init__(self, position: int, seat: int, cards: tuple[Card, ...]) -> None:
        self.position: Final = position
        self.seat: Final = seat
        self.cards: Final = cards


class ActionTaken(Event):
    kind: ClassVar[str] = "action"
    __match_args__: ClassVar[tuple[str, ...]] = (
        "position",
        "seat",
        "action",
        "added",
        "to",
        "all_in",
        "timed_out",
    )

    def __init__(
        self,
        *,
        position: int,
        seat: int,
        action: Move,
        added: int,
        to: int,
        all_in: bool,
        timed_out: bool = False,
    ) -> None:
        self.position: Final = position
        self.seat: Final = seat
        self.action: Final = action
        self.added: Final = added  # chips moved from the stack by this action
        self.to: Final = to  # the player's total bet in this round afterwards
        self.all_in: Final = all_in
        self.timed_out: Final = timed_out


class PlayerProtected(Event):
    """R-TIME-2 all-in protection: the player stays in for what they put in, and acts no more."""

    kind: ClassVar[str] = "protected"
    __match_args__: ClassVar[tuple[str, ...]] = ("position", "seat")

    def __init__(self, position: int, seat: int) -> None:
        self.position: Final = position
        self.seat: Final = seat


class BoardDealt(Event):
    kind: ClassVar[str] = "board_dealt"
    __match_args__: ClassVar[tuple[str, ...]] = ("street", "cards")

    def __init__(self, street: str, cards: tuple[Card, ...]) -> None:
        self.street: Final = street  # flop, turn, river
        self.cards: Final = cards


class BombPot(Event):
    """R-BOMB-1: every player dealt in puts ``amount`` (``big_blinds`` big blinds) in the pot
    as a live ante; there is no pre-flop betting."""

    kind: ClassVar[str] = "bomb_pot"
    __match_args__: ClassVar[tuple[str, ...]] = ("big_blinds", "amount")

    def __init__(self, big_blinds: int, amount: int) -> None:
        self.big_blinds: Final = big_blinds
        self.amount: Final = amount


class RunoutAnswered(Event):
    """R-RIT-1: a player's answer to running the rest of the board twice."""

    kind: ClassVar[str] = "runout_answered"
    __match_args__: ClassVar[tuple[str, ...]] = ("position", "seat", "agreed", "timed_out")

    def __init__(self, position: int, seat: int, agreed: bool, timed_out: bool = False) -> None:
        self.position: Final = position
        self.seat: Final = seat
        self.agreed: Final = agreed
        self.timed_out: Final = timed_out  # no answer in time: no


class SecondBoardDealt(Event):
    """R-RIT-1: a street of the second run-out; the first run-out is ``BoardDealt``."""

    kind: ClassVar[str] = "second_board_dealt"
    __match_args__: ClassVar[tuple[str, ...]] = ("street", "cards")

    def __init__(self, street: str, cards: tuple[Card, ...]) -> None:
        self.street: Final = street  # flop, turn, river
        self.cards: Final = cards


class UncalledBetReturned(Event):
    kind: ClassVar[str] = "uncalled_bet_returned"
    __match_args__: ClassVar[tuple[str, ...]] = ("position", "seat", "amount")

    def __init__(self, position: int, seat: int, amount: int) -> None:
        self.position: Final = position
        self.seat: Final = seat
        self.amount: Final = amount


class CardsShown(Event):
    kind: ClassVar[str] = "cards_shown"
    __match_args__: ClassVar[tuple[str, ...]] = ("position", "seat", "cards", "high", "low")

    def __init__(
        self, position: int, seat: int, cards: tuple[Card, ...], high: str, low: str
    ) -> None:
        self.position: Final = position
        self.seat: Final = seat
        self.cards: Final = cards
        self.high: Final = high  # "Full House, Kings over Sevens"
        self.low: Final = low  # "8-6-4-2-A" or "" (hi-lo games)


class HandMucked(Event):
    kind: ClassVar[str] = "mucked"
    __match_args__: ClassVar[tuple[str, ...]] = ("position", "seat")

    def __init__(self, position: int, seat: int) -> None:
        self.position: Final = position
        self.seat: Final = seat


class RakeTaken(Event):
    kind: ClassVar[str] = "rake"
    __match_args__: ClassVar[tuple[str, ...]] = ("amount", "pot")

    def __init__(self, amount: int, pot: int) -> None:
        self.amount: Final = amount
        self.pot: Final = pot  # the pot it was computed on


class PotAwarded(Event):
    kind: ClassVar[str] = "pot_awarded"
    __match_args__: ClassVar[tuple[str, ...]] = (
        "pot",
        "amount",
        "share",
        "winners",
        "hand",
        "run",
    )

    def __init__(
        self,
        *,
        pot: int,
        amount: int,
        share: PotShare,
        winners: tuple[tuple[int, int], ...],
        hand: str,
        run: int = 0,
    ) -> None:
        self.pot: Final = pot  # 0 = main pot, 1.. = side pots
        self.amount: Final = amount
        self.share: Final = share
        self.winners: Final = winners  # (position, chips)
        self.hand: Final = hand  # the winning hand's name, "" when uncontested
        # R-RIT-1: the board this half was won on (1 or 2); 0 when the board ran once
        self.run: Final = run


class HandEnded(Event):
    kind: ClassVar[str] = "hand_ended"
    __match_args__: ClassVar[tuple[str, ...]] = ("stacks",)

    def __init__(self, stacks: tuple[int, ...]) -> None:
        self.stacks: Final = stacks  # by position


class HandCancelled(Event):
    """R-DECK-5: the hand could not be completed; every committed chip went back."""

    kind: ClassVar[str] = "hand_cancelled"
    __match_args__: ClassVar[tuple[str, ...]] = ("refunds", "stacks", "reason")

    def __init__(self, refunds: tuple[int, ...], stacks: tuple[int, ...], reason: str) -> None:
        self.refunds: Final = refunds  # by position
        self.stacks: Final = stacks
        self.reason: Final = reason
