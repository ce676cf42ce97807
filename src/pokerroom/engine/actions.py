"""Actions a player can take, and the legal choices with exact amounts."""

from __future__ import annotations

from enum import StrEnum

from pokerroom.records import record


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    CHECK_OR_CALL = "check_or_call"  # PHH's "cc"
    BET_OR_RAISE = "bet_or_raise"  # "raise to" amount: the player's total for the round
    TIMEOUT = "timeout"  # resolved by the house timeout policy (R-TIME-2)
    SHOW = "show"
    MUCK = "muck"


@record
class Action:
    kind: ActionKind
    amount: int = 0  # BET_OR_RAISE: raise to

    def __str__(self) -> str:
        return (
            f"{self.kind.value} {self.amount}"
            if self.kind is ActionKind.BET_OR_RAISE
            else self.kind.value
        )


@record
class LegalActions:
    """What the player to act may do. Amounts are totals for the round ("raise to")."""

    position: int
    seat: int
    can_fold: bool
    can_check: bool
    call_amount: int  # chips to add to call (0 when checking)
    call_all_in: bool
    min_raise_to: int | None  # None: no bet or raise possible
    max_raise_to: int | None
    is_bet: bool  # no bet yet this round: "bet" rather than "raise"
    current_bet: int
    pot: int

    @property
    def can_raise(self) -> bool:
        return self.min_raise_to is not None


@record
class ShowdownChoice:
    """At showdown: the player whose turn it is may show, and may muck unless they must show."""

    position: int
    seat: int
    can_muck: bool
