"""Actions a player can take, and the legal choices with exact amounts."""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar, Final

from pokerroom.engine.errors import InvalidAmountError
from pokerroom.records import Record


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    CHECK_OR_CALL = "check_or_call"  # PHH's "cc"
    BET_OR_RAISE = "bet_or_raise"  # "raise to" amount: the player's total for the round
    TIMEOUT = "timeout"  # resolved by the house timeout policy (R-TIME-2)
    SHOW = "show"
    MUCK = "muck"
    # R-RIT-1: a player's answer when the board may be run twice (no answer is no)
    RUN_TWICE = "run_twice"
    RUN_ONCE = "run_once"


class Action(Record):
    __match_args__: ClassVar[tuple[str, ...]] = ("kind", "amount")

    def __init__(self, kind: ActionKind, amount: int | float = 0) -> None:
        # Typed to admit a float so that one gets the specific error below (compiled
        # code would refuse it with a bare TypeError first).
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise InvalidAmountError(f"cannot {kind.value} {amount!r}: amounts are whole chips")
        self.kind: Final = kind
        self.amount: Final = amount  # BET_OR_RAISE: raise to

    def __str__(self) -> str:
        return (
            f"{self.kind.value} {self.amount}"
            if self.kind is ActionKind.BET_OR_RAISE
            else self.kind.value
        )


class LegalActions(Record):
    """What the player to act may do. Amounts are totals for the round ("raise to")."""

    __match_args__: ClassVar[tuple[str, ...]] = (
        "position",
        "seat",
        "can_fold",
        "can_check",
        "call_amount",
        "call_all_in",
        "min_raise_to",
        "max_raise_to",
        "is_bet",
        "current_bet",
        "pot",
    )

    def __init__(
        self,
        position: int,
        seat: int,
        can_fold: bool,
        can_check: bool,
        call_amount: int,
        call_all_in: bool,
        min_raise_to: int | None,
        max_raise_to: int | None,
        is_bet: bool,
        current_bet: int,
        pot: int,
    ) -> None:
        self.position: Final = position
        self.seat: Final = seat
        self.can_fold: Final = can_fold
        self.can_check: Final = can_check
        self.call_amount: Final = call_amount  # chips to add to call (0 when checking)
        self.call_all_in: Final = call_all_in
        self.min_raise_to: Final = min_raise_to  # None: no bet or raise possible
        self.max_raise_to: Final = max_raise_to
        self.is_bet: Final = is_bet  # no bet yet this round: "bet" rather than "raise"
        self.current_bet: Final = current_bet
        self.pot: Final = pot

    @property
    def can_raise(self) -> bool:
        return self.min_raise_to is not None


class ShowdownChoice(Record):
    """At showdown: the player whose turn it is may show, and may muck unless they must show."""

    __match_args__: ClassVar[tuple[str, ...]] = ("position", "seat", "can_muck")

    def __init__(self, position: int, seat: int, can_muck: bool) -> None:
        self.position: Final = position
        self.seat: Final = seat
        self.can_muck: Final = can_muck


class RunoutChoice(Record):
    """R-RIT-1: the player asked whether to run the rest of the board twice (all must agree)."""

    __match_args__: ClassVar[tuple[str, ...]] = ("position", "seat")

    def __init__(self, position: int, seat: int) -> None:
        self.position: Final = position
        self.seat: Final = seat
