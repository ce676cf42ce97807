"""Places and prizes. Players busted in the same hand (at one table, or across
tables in a hand-for-hand round) are ranked by their chips at the start of that hand; equal
stacks tie and split the prizes of the places they share, the odd chips one each to the tied
players first left of the button (the house's odd-chip rule, R-SHOW-6).

>>> prizes(1000, [5000, 3000, 2000])
[500, 300, 200]
>>> [(p.place, p.entry, p.prize, p.tie) for p in award_places(
...     [[Bust("c", 100, (0,)), Bust("b", 100, (1,))]], "a", 3, 1001, [5000, 3000, 2000])]
[(1, 'a', 501, None), (2, 'c', 250, (2, 3)), (3, 'b', 250, (2, 3))]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

from pokerroom.rules.tournament import WHOLE


@dataclass(frozen=True, slots=True)
class Bust:
    entry: str
    chips_at_start: int  # at the start of the hand they busted in
    order: tuple[int, ...]  # the odd-chip order: (table, seats left of the button)


@dataclass(frozen=True, slots=True)
class Place:
    place: int
    entry: str
    prize: int
    tie: tuple[int, int] | None = None  # (first, last) of the places a tie shared


def prizes(pool: int, points: Sequence[int]) -> list[int]:
    """Each paid place's prize: its share of the pool, rounded down; what rounding leaves
    (less than one unit a place) goes to the winner, so the prizes sum to the pool."""
    amounts = [pool * p // WHOLE for p in points]
    if amounts:
        amounts[0] += pool - sum(amounts)
    return amounts


def satellite_prizes(pool: int, seat: int) -> list[int]:
    """A satellite's prizes: N = pool // seat equal seats (each worth ``seat``) to places 1
    to N, and what is left over, in cash, to place N + 1 (so they sum to the pool).

    >>> satellite_prizes(7200, 2200)
    [2200, 2200, 2200, 600]
    >>> satellite_prizes(6600, 2200), satellite_prizes(1000, 2200)
    ([2200, 2200, 2200], [1000])
    """
    seats, rest = divmod(pool, seat)
    return [seat] * seats + ([rest] if rest else [])


def award_places(
    groups: Sequence[Sequence[Bust]],
    winner: str,
    entries: int,
    pool: int,
    points: Sequence[int],
) -> list[Place]:
    """Every place from 1 to ``entries`` once, from the groups eliminated in order (first
    out first) and the winner."""
    return final_places(groups, [winner], entries, prizes(pool, points))


def final_places(
    groups: Sequence[Sequence[Bust]], left: Sequence[str], entries: int, amounts: Sequence[int]
) -> list[Place]:
    """Every place once: the players ``left`` (the winner, or a satellite's seat winners,
    best first) take places 1 up with the first prizes, the groups eliminated the rest."""
    busted = sum(len(g) for g in groups)
    if busted != entries - len(left):
        who = "a winner" if len(left) == 1 else f"{len(left)} left"
        raise ValueError(f"{busted} eliminated and {who} for {entries} entries")
    paid = list(amounts) + [0] * (entries - len(amounts))
    places = [Place(k, entry, paid[k - 1]) for k, entry in enumerate(left, 1)]
    places += eliminated_amounts(groups, entries, amounts)
    places.sort(key=lambda p: p.place)
    return places


def eliminated_places(
    groups: Sequence[Sequence[Bust]], entries: int, pool: int, points: Sequence[int]
) -> list[Place]:
    """The places of those eliminated so far (final once the field and the pool are): the
    room pays each as soon as it is known."""
    return eliminated_amounts(groups, entries, prizes(pool, points))


def eliminated_amounts(
    groups: Sequence[Sequence[Bust]], entries: int, prize_amounts: Sequence[int]
) -> list[Place]:
    """``eliminated_places`` with each place's prize given (place 1 first)."""
    amounts = list(prize_amounts) + [0] * (entries - len(prize_amounts))
    places: list[Place] = []
    worst = entries  # the lowest place not yet given
    for group in groups:
        if not group:  # a hand nobody was eliminated in
            continue
        ordered = sorted(group, key=lambda b: (-b.chips_at_start, b.order))
        place = worst - len(group) + 1
        for _, same_stack in groupby(ordered, key=lambda b: b.chips_at_start):
            tied = list(same_stack)
            first, last = place, place + len(tied) - 1
            share, odd = divmod(sum(amounts[first - 1 : last]), len(tied))
            tie = (first, last) if len(tied) > 1 else None
            for k, bust in enumerate(tied):
                places.append(Place(first + k, bust.entry, share + (k < odd), tie))
            place = last + 1
        worst -= len(group)
    return places
