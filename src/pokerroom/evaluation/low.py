"""Eight-or-better low hands for Omaha Hi-Lo (R-HILO-2, R-HILO-3, R-HILO-4, R-HILO-8).

A low is five cards of different ranks, all eight or lower, the ace low;
straights and flushes do not count against it. Lows compare from the highest
card down. A low's *score* is ``256 - mask`` where bit 0 is the ace and bit 7
the eight: higher scores are better lows (A-2-3-4-5 scores 225) and 0 means
no qualifying low.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from pokerroom.cards import Card, ensure_distinct
from pokerroom.evaluation.high import EvaluationError

ACE_RANK = 12
NO_LOW = 0
LOW_CHARS = "A2345678"


def low_bit(card: Card) -> int:
    """The card's bit in a low mask (ace = 1, deuce = 2 ... eight = 128), or 0 above eight."""
    if card.rank == ACE_RANK:
        return 1
    return 1 << (card.rank + 1) if card.rank <= 6 else 0


@dataclass(frozen=True, slots=True)
class LowValue:
    """A qualifying low: its score (higher is better) and its five cards, highest first."""

    score: int
    cards: tuple[Card, ...]

    @property
    def description(self) -> str:
        """``"8-6-4-2-A"``: the low read from the top, as players call it."""
        mask = 256 - self.score
        return "-".join(LOW_CHARS[r] for r in range(7, -1, -1) if mask >> r & 1)

    def __str__(self) -> str:
        return f"{self.description} low"


def omaha_low(hole: Sequence[Card], board: Sequence[Card]) -> LowValue | None:
    """The best eight-or-better low of exactly two hole and three board cards, or None.

    >>> from pokerroom.cards import parse_cards
    >>> str(omaha_low(parse_cards("As2dKhKc"), parse_cards("3c5d8hQsJs")))
    '8-5-3-2-A low'
    >>> omaha_low(parse_cards("As2dKhKc"), parse_cards("3c9dThQsJs")) is None
    True
    """
    if len(hole) != 4:
        raise EvaluationError(f"an Omaha hand needs 4 cards, got {len(hole)}")
    if len(board) not in (3, 4, 5):
        raise EvaluationError(f"an Omaha board needs 3 to 5 cards, got {len(board)}")
    ensure_distinct([*hole, *board])
    best: LowValue | None = None
    for two in combinations(hole, 2):
        for three in combinations(board, 3):
            bits = [low_bit(card) for card in (*two, *three)]
            mask = 0
            for bit in bits:
                mask |= bit
            if 0 in bits or mask.bit_count() != 5:
                continue
            score = 256 - mask
            if best is None or score > best.score:
                ordered = sorted((*two, *three), key=lambda card: -low_bit(card))
                best = LowValue(score=score, cards=tuple(ordered))
    return best
