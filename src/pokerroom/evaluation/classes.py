"""The 7,462 classes of five-card high hands, their order and their names (R-SHOW-7).

A hand's *strength* is its class number on the standard scale: 1 is the worst
hand (7-5-4-3-2 offsuit), 7462 the best (a royal flush). Higher wins; equal
strengths tie (R-SHOW-5: suits never break ties).
"""

from __future__ import annotations

from enum import IntEnum
from functools import cache
from itertools import combinations
from typing import Final

from pokerroom.cards import RANK_NAMES

CLASS_COUNT: Final = 7462
ACE: Final = 12
WHEEL_HIGH: Final = 3  # the five in A-2-3-4-5 (R-SHOW-7: the ace plays low)

Signature = tuple[int, ...]


class Category(IntEnum):
    """Hand categories, worst to best (R-SHOW-7)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").title().replace(" Of ", " of ")


_STRAIGHT_MASKS: Final = {
    high: (0b1111 | 1 << ACE) if high == WHEEL_HIGH else 0b11111 << (high - 4)
    for high in range(WHEEL_HIGH, ACE + 1)
}


def straight_high(rank_mask: int) -> int:
    """The high rank of the best straight in a 13-bit rank mask, or -1."""
    for high in range(ACE, WHEEL_HIGH - 1, -1):
        run = _STRAIGHT_MASKS[high]
        if rank_mask & run == run:
            return high
    return -1


def straight_ranks(high: int) -> tuple[int, ...]:
    """The five ranks of the straight with high card ``high``, highest first."""
    if high == WHEEL_HIGH:
        return (WHEEL_HIGH, 2, 1, 0, ACE)
    return tuple(range(high, high - 5, -1))


def _all_signatures() -> list[Signature]:
    ranks = range(13)
    sigs: list[Signature] = []
    straights = {tuple(sorted(straight_ranks(h), reverse=True)) for h in range(WHEEL_HIGH, ACE + 1)}
    for five in combinations(ranks, 5):
        desc = tuple(sorted(five, reverse=True))
        if desc in straights:
            continue
        sigs.append((Category.HIGH_CARD, *desc))
        sigs.append((Category.FLUSH, *desc))
    for pair in ranks:
        others = [r for r in ranks if r != pair]
        for kick in combinations(others, 3):
            sigs.append((Category.PAIR, pair, *sorted(kick, reverse=True)))
        for trip_kick in combinations(others, 2):
            sigs.append((Category.THREE_OF_A_KIND, pair, *sorted(trip_kick, reverse=True)))
        for other in others:
            sigs.append((Category.FULL_HOUSE, pair, other))
            sigs.append((Category.FOUR_OF_A_KIND, pair, other))
    for low_pair, high_pair in combinations(ranks, 2):
        for kicker in ranks:
            if kicker not in (low_pair, high_pair):
                sigs.append((Category.TWO_PAIR, high_pair, low_pair, kicker))
    for high in range(WHEEL_HIGH, ACE + 1):
        sigs.append((Category.STRAIGHT, high))
        sigs.append((Category.STRAIGHT_FLUSH, high))
    sigs.sort()
    if len(sigs) != CLASS_COUNT:  # pragma: no cover - a build-time self-check
        raise AssertionError(f"enumerated {len(sigs)} hand classes, expected {CLASS_COUNT}")
    return sigs


@cache
def signatures() -> tuple[Signature, ...]:
    """Every class's signature ``(category, ranks...)``, index + 1 = strength."""
    return tuple(_all_signatures())


@cache
def strength_of_signature() -> dict[Signature, int]:
    return {sig: i + 1 for i, sig in enumerate(signatures())}


@cache
def _category_floors() -> tuple[int, ...]:
    """The lowest strength of each category, in Category order."""
    floors: dict[int, int] = {}
    for strength, sig in enumerate(signatures(), start=1):
        floors.setdefault(sig[0], strength)
    return tuple(floors[c] for c in Category)


def category_of(strength: int) -> Category:
    """The category of a strength on the 1..7462 scale."""
    if not 1 <= strength <= CLASS_COUNT:
        raise ValueError(f"strength {strength} is not in 1..{CLASS_COUNT}")
    floors = _category_floors()
    for category in reversed(Category):
        if strength >= floors[category]:
            return category
    raise AssertionError("unreachable")  # pragma: no cover


def plural_rank(rank: int) -> str:
    """ "Kings", "Sixes": a rank's name in the plural."""
    name = RANK_NAMES[rank]
    return name + ("es" if name == "Six" else "s")


def named_ranks(strength: int) -> tuple[Category, tuple[int, ...]]:
    """What a hand's name says: its category and the ranks it names (one; two for two pair
    and a full house), e.g. ``(Category.FULL_HOUSE, (11, 5))`` for Kings over Sevens. The
    server sends this and each client names it in its own language; ``describe`` in English."""
    sig = signatures()[strength - 1]
    category = Category(sig[0])
    named = 2 if category in (Category.FULL_HOUSE, Category.TWO_PAIR) else 1
    return category, sig[1 : 1 + named]


def describe(strength: int) -> str:
    """A player-facing name: ``"Full House, Kings over Sevens"``."""
    return name_in_english(*named_ranks(strength))


def name_in_english(category: Category, ranks: tuple[int, ...]) -> str:
    """The English name of a category and its named ranks (``named_ranks``)."""
    name = RANK_NAMES
    match category:
        case Category.STRAIGHT_FLUSH if ranks[0] == ACE:
            return "Royal Flush"
        case Category.STRAIGHT_FLUSH | Category.STRAIGHT:
            return f"{category.label}, {name[ranks[0]]} high"
        case Category.FOUR_OF_A_KIND:
            return f"Four of a Kind, {plural_rank(ranks[0])}"
        case Category.FULL_HOUSE:
            return f"Full House, {plural_rank(ranks[0])} over {plural_rank(ranks[1])}"
        case Category.FLUSH | Category.HIGH_CARD:
            return f"{category.label}, {name[ranks[0]]} high"
        case Category.THREE_OF_A_KIND:
            return f"Three of a Kind, {plural_rank(ranks[0])}"
        case Category.TWO_PAIR:
            return f"Two Pair, {plural_rank(ranks[0])} and {plural_rank(ranks[1])}"
        case _:
            return f"Pair of {plural_rank(ranks[0])}"


def nonflush_signature(counts: list[int]) -> Signature:
    """The best five-card signature (no flush) of 5 to 7 cards given as rank counts."""
    by_count: list[list[int]] = [[], [], [], [], []]
    mask = 0
    for rank in range(ACE, -1, -1):
        n = counts[rank]
        if n:
            by_count[n].append(rank)
            mask |= 1 << rank
    quads, trips, pairs = by_count[4], by_count[3], by_count[2]
    if quads:
        kicker = max(r for r in range(13) if counts[r] and r != quads[0])
        return (Category.FOUR_OF_A_KIND, quads[0], kicker)
    if trips and (len(trips) > 1 or pairs):
        below = sorted(trips[1:] + pairs, reverse=True)
        return (Category.FULL_HOUSE, trips[0], below[0])
    high = straight_high(mask)
    if high >= 0:
        return (Category.STRAIGHT, high)
    singles = [r for r in range(ACE, -1, -1) if counts[r]]
    if trips:
        kick = [r for r in singles if r != trips[0]][:2]
        return (Category.THREE_OF_A_KIND, trips[0], *kick)
    if len(pairs) >= 2:
        top, second = pairs[0], pairs[1]
        kicker = next(r for r in singles if r not in (top, second))
        return (Category.TWO_PAIR, top, second, kicker)
    if pairs:
        kick = [r for r in singles if r != pairs[0]][:3]
        return (Category.PAIR, pairs[0], *kick)
    return (Category.HIGH_CARD, *singles[:5])


def flush_signature(rank_mask: int) -> Signature:
    """The best five-card signature of one suit's cards (a 13-bit rank mask, >= 5 bits)."""
    high = straight_high(rank_mask)
    if high >= 0:
        return (Category.STRAIGHT_FLUSH, high)
    ranks = [r for r in range(ACE, -1, -1) if rank_mask >> r & 1][:5]
    return (Category.FLUSH, *ranks)
