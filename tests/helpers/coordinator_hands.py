"""Hands of a tournament coordinator dealt to the end in a few lines, for tests of what
happens around them (busts, places, offers)."""

from __future__ import annotations

from typing import Any

from pokerroom.engine import Action, ActionKind
from pokerroom.tournament import Tournament


def all_in_hand(t: Tournament, number: int, now: float = 0.0) -> list[Any]:
    """Deal a hand at table ``number`` where everyone goes all in (or calls it)."""
    events = t.start_hand(number, now)
    table = t.tables[number]
    while table.hand is not None:
        seat = table.actor_seat()
        legal = table.hand.legal_actions()
        assert seat is not None and legal is not None
        if legal.max_raise_to is None:
            action = Action(ActionKind.CHECK_OR_CALL)
        else:
            action = Action(ActionKind.BET_OR_RAISE, legal.max_raise_to)
        events += t.act(table.seats[seat].player, action, now)
    return events
