"""One hand at a time, from Python (this module is compiled with mypyc; see pyproject.toml).

``evaluate7`` is the hot path (integer card codes in, strength out); the
``Card``-level functions add the category and the best five cards for the
room to show (R-SHOW-1, R-SHOW-2, R-SHOW-3, R-SHOW-7).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from pokerroom.cards import Card, ensure_distinct
from pokerroom.evaluation.classes import Category, category_of, describe
from pokerroom.evaluation.tables import (
    COUNT_SHIFT,
    FLUSH_BITS,
    RANK_MASK,
    SUIT_BASE,
    SUIT_SHIFT,
    WEIGHTS,
    tables,
)


class EvaluationError(ValueError):
    """A hand that cannot be evaluated: wrong number of cards or a repeated card."""


_T = tables()
_NONFLUSH: Final[dict[int, int]] = _T.nonflush
# Module-level Final lists: mypyc reads them as C statics and indexes them without boxing
# the index, where a dict lookup boxed the key (a new int object per call) and hashed it.
_W: Final[list[int]] = list(WEIGHTS)
_FLUSH: Final[list[int]] = list(_T.flush)
# Seven cards' rank keys through the perfect hash of the batch path:
# strength = _NONFLUSH7[rank + _ROW_ADJUST[rank >> _SHIFT7]], two list reads.
_SHIFT7: Final[int] = _T.hash7.shift
_ROW_ADJUST: Final[list[int]] = [
    int(offset) - (row << _T.hash7.shift) for row, offset in enumerate(_T.hash7.offsets)
]
_NONFLUSH7: Final[list[int]] = _T.nonflush7.tolist()
_RANK_KEY7: Final = (1 << COUNT_SHIFT) - 1  # a 7-card key without its card count


def _flush_suit(key: int) -> int:
    # The flag bit of suit s is bit SUIT_SHIFT + 4s + 3.
    return ((key & FLUSH_BITS).bit_length() - SUIT_SHIFT - 4) >> 2


def _suited(code: int, suit: int) -> int:
    """The card's rank bit when it is of ``suit``, else 0."""
    return 1 << (code >> 2) if code & 3 == suit else 0


def evaluate7(a: int, b: int, c: int, d: int, e: int, f: int, g: int) -> int:
    """Strength (1..7462, higher wins) of seven distinct card codes. No validation."""
    w = _W
    key = w[a] + w[b] + w[c] + w[d] + w[e] + w[f] + w[g] + SUIT_BASE
    if key & FLUSH_BITS:
        s = _flush_suit(key)
        mask = (
            _suited(a, s)
            | _suited(b, s)
            | _suited(c, s)
            | _suited(d, s)
            | _suited(e, s)
            | _suited(f, s)
            | _suited(g, s)
        )
        return _FLUSH[mask]
    rank = key & _RANK_KEY7
    return _NONFLUSH7[rank + _ROW_ADJUST[rank >> _SHIFT7]]


def _codes_strength(codes: list[int]) -> int:
    w = _W
    key = SUIT_BASE
    for code in codes:
        key += w[code]
    if key & FLUSH_BITS:
        s = _flush_suit(key)
        mask = 0
        for code in codes:
            if code & 3 == s:
                mask |= 1 << (code >> 2)
        return _FLUSH[mask]
    if len(codes) == 7:
        rank = key & _RANK_KEY7
        return _NONFLUSH7[rank + _ROW_ADJUST[rank >> _SHIFT7]]
    return _NONFLUSH[key & RANK_MASK]


def evaluate_codes(codes: Sequence[int]) -> int:
    """Strength of 5, 6 or 7 distinct card codes. No validation (see ``evaluate``)."""
    if isinstance(codes, list):  # mypyc: a typed list is read without iterator objects
        return _codes_strength(codes)
    return _codes_strength(list(codes))


def _check(cards: Sequence[Card], sizes: tuple[int, ...], what: str) -> None:
    if len(cards) not in sizes:
        expected = " or ".join(str(n) for n in sizes)
        raise EvaluationError(f"{what} needs {expected} cards, got {len(cards)}")
    ensure_distinct(cards)


def evaluate(cards: Sequence[Card]) -> int:
    """Strength of the best five of 5 to 7 cards.

    >>> from pokerroom.cards import parse_cards
    >>> evaluate(parse_cards("AsKsQsJsTs2c3d"))
    7462
    """
    _check(cards, (5, 6, 7), "a high hand")
    return evaluate_codes([card.code for card in cards])


@dataclass(frozen=True, slots=True)
class HandValue:
    """A hand's strength with what the room shows: its category, name and five cards."""

    strength: int
    best_five: tuple[Card, ...]

    @property
    def category(self) -> Category:
        return category_of(self.strength)

    @property
    def description(self) -> str:
        return describe(self.strength)

    def __str__(self) -> str:
        return f"{self.description} ({''.join(str(c) for c in self.best_five)})"


def _best_of(fives: list[tuple[Card, ...]]) -> HandValue:
    best = max(fives, key=lambda five: evaluate_codes([card.code for card in five]))
    strength = evaluate_codes([card.code for card in best])
    ordered = tuple(sorted(best, key=lambda card: (-card.rank, -card.suit)))
    return HandValue(strength=strength, best_five=ordered)


def best_hand(cards: Sequence[Card]) -> HandValue:
    """Hold'em: the best five of 5 to 7 cards, any of them (R-SHOW-2).

    >>> from pokerroom.cards import parse_cards
    >>> best_hand(parse_cards("KhKd7s7c2h3dKc")).description
    'Full House, Kings over Sevens'
    """
    _check(cards, (5, 6, 7), "a high hand")
    return _best_of(list(combinations(cards, 5)))


def omaha_fives(hole: Sequence[Card], board: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every five-card hand of exactly two hole cards and three board cards (R-SHOW-3)."""
    return [h + b for h in combinations(hole, 2) for b in combinations(board, 3)]


def omaha_best_hand(hole: Sequence[Card], board: Sequence[Card]) -> HandValue:
    """Omaha high: exactly two of the four hole cards and three of the five board cards."""
    _check(hole, (4,), "an Omaha hand")
    _check(board, (3, 4, 5), "an Omaha board")
    ensure_distinct([*hole, *board])
    return _best_of(omaha_fives(hole, board))
