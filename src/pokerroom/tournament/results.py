"""A tournament's places and prizes: every place once the event is over, and
while it runs the places already final, which the room pays as each is decided.

A place is final when the field and the prize pool are (registration closed, no rebuy or
add-on still to come) and no hand still in play or still to be dealt can join its
elimination group: a hand-for-hand round is one group until every table has played it.
Places count down from the groups before, so a group is final only when every earlier one
is. A deal's amounts replace the prizes of the players who made it.
"""

from __future__ import annotations

from collections.abc import Sized
from dataclasses import replace
from typing import Protocol

from pokerroom.rules.tournament import TournamentStructure
from pokerroom.tournament.clock import LevelClock
from pokerroom.tournament.events import TournamentError
from pokerroom.tournament.places import Bust, Place, eliminated_amounts, final_places


class Placing(Protocol):
    """What the places read of the event (``Tournament``, coordinator.py)."""

    @property
    def name(self) -> str: ...

    @property
    def structure(self) -> TournamentStructure: ...

    @property
    def clock(self) -> LevelClock: ...

    @property
    def entries(self) -> Sized: ...

    @property
    def closed(self) -> bool: ...  # registration

    @property
    def finished(self) -> bool: ...

    @property
    def winner(self) -> str | None: ...

    @property
    def seat_winners(self) -> list[str]: ...  # a satellite's seats, best first

    @property
    def groups(self) -> list[list[Bust]]: ...  # eliminated, by hand, first out first

    @property
    def offers(self) -> Sized: ...  # rebuys on offer

    @property
    def hand_for_hand(self) -> bool: ...

    @property
    def round(self) -> int: ...  # hand-for-hand's

    @property
    def deal(self) -> dict[str, int] | None: ...

    @property
    def deal_keep(self) -> int: ...

    # The hands in play (each with its elimination group's key) and each key's group.
    @property
    def _hand(self) -> dict[int, tuple[str, dict[str, int], dict[str, tuple[int, ...]]]]: ...

    @property
    def _group_of(self) -> dict[str, int]: ...

    def prizes(self) -> list[int]: ...


def places(t: Placing) -> list[Place]:
    """Every place from 1 to the number of entries, with its prize (when finished)."""
    if not t.finished or t.winner is None:
        raise TournamentError(f"{t.name} has not finished")
    left = t.seat_winners or [t.winner]  # a satellite that ended with its seats decided
    return _with_deal(t, final_places(t.groups, left, len(t.entries), t.prizes()))


def places_so_far(t: Placing) -> list[Place]:
    """The places of the entries eliminated so far, with their prizes (the field is final
    once registration is closed; the pool too when there are no rebuys or add-on)."""
    if not t.closed:
        raise TournamentError(f"{t.name}: places are not final while entries may come")
    return _with_deal(t, eliminated_amounts(t.groups, len(t.entries), t.prizes()))


def pool_final(t: Placing, now: float) -> bool:
    """Is the prize pool final: registration closed, no rebuy or add-on still to come?"""
    if t.finished:
        return True
    s, level = t.structure, t.clock.level_number(now)
    if not t.closed or t.offers:  # a rebuy still on offer
        return False
    if s.rebuy is not None and level <= s.rebuy.until_level:
        return False
    return s.addon is None or level > s.addon.after_level


def groups_settled(t: Placing, now: float) -> int:
    """How many elimination groups, first out first, have final places and prizes."""
    if t.finished:
        return len(t.groups)
    if not pool_final(t, now):
        return 0
    open_keys = [key for key, _, _ in t._hand.values()]
    if t.hand_for_hand:
        open_keys.append(f"r{t.round}")
    return min((t._group_of[key] for key in open_keys if key in t._group_of), default=len(t.groups))


def settled_places(t: Placing, now: float) -> list[Place]:
    """The places and prizes of the eliminated that are final now, a deal's included."""
    if t.finished:
        return places(t)
    settled = groups_settled(t, now)
    if not settled:
        return []
    return _with_deal(t, eliminated_amounts(t.groups[:settled], len(t.entries), t.prizes()))


def _with_deal(t: Placing, found: list[Place]) -> list[Place]:
    deal = t.deal
    if deal is None:
        return found
    return [
        replace(p, prize=deal[p.entry] + (t.deal_keep if p.place == 1 else 0))
        if p.entry in deal
        else p
        for p in found
    ]
