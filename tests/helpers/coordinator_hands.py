"""Hands of a tournament coordinator dealt to the end in a few lines, for tests of what
happens around them (busts, places, offers)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pokerroom.engine import Action, ActionKind
from pokerroom.tournament import Tournament


def to_the_end(
    t: Tournament, number: int, choose: Callable[[Any], Action], now: float = 0.0
) -> list[Any]:
    """Deal a hand at table ``number`` and play it out, ``choose`` picking each action from
    the legal ones."""
    events = t.start_hand(number, now)
    table = t.tables[number]
    while table.hand is not None:
        seat = table.actor_seat()
        legal = table.hand.legal_actions()
        assert seat is not None and legal is not None
        events += t.act(table.seats[seat].player, choose(legal), now)
    return events


def shove(legal: Any) -> Action:
    """All in (or a call of it)."""
    if legal.max_raise_to is None:
        return Action(ActionKind.CHECK_OR_CALL)
    return Action(ActionKind.BET_OR_RAISE, legal.max_raise_to)


def fold_or_check(legal: Any) -> Action:
    return Action(ActionKind.CHECK if legal.can_check else ActionKind.FOLD)


def all_in_hand(t: Tournament, number: int, now: float = 0.0) -> list[Any]:
    """Deal a hand at table ``number`` where everyone goes all in (or calls it)."""
    return to_the_end(t, number, shove, now)
