"""Hand values at showdown: high (Hold'em any five, Omaha two plus three) and the low."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from pokerroom.evaluation.classes import describe
from pokerroom.evaluation.high import evaluate_codes
from pokerroom.evaluation.low import LOW_CHARS
from pokerroom.evaluation.tables import tables
from pokerroom.rules.game import Variant

_PAIRS4 = tuple(combinations(range(4), 2))
_LOW_BIT = tuple(
    1 if code >> 2 == 12 else (1 << ((code >> 2) + 1) if code >> 2 <= 6 else 0)
    for code in range(52)
)


@cache
def _low_table() -> list[int]:
    return [int(v) for v in tables().low_table]


def high_strength(variant: Variant, hole: Sequence[int], board: Sequence[int]) -> int:
    """Strength (higher wins) by the variant's rule (R-SHOW-2, R-SHOW-3)."""
    return best_high(variant.two_plus_three, hole, board)


def best_high(two_plus_three: bool, hole: Sequence[int], board: Sequence[int]) -> int:
    """Strength of any five cards, or (``two_plus_three``) of exactly two hole and three board
    cards: ``high_strength`` with the variant's rule already looked up."""
    if not two_plus_three:
        return evaluate_codes([*hole, *board])
    best = 0
    triples = list(combinations(board, 3))
    for a, b in _PAIRS4:
        pair = (hole[a], hole[b])
        for triple in triples:
            value = evaluate_codes((*pair, *triple))
            if value > best:
                best = value
    return best


def low_score(hole: Sequence[int], board: Sequence[int]) -> int:
    """Eight-or-better low score, 0 for none (R-HILO-2 .. R-HILO-4, R-HILO-8)."""
    hole_mask = 0
    for code in hole:
        hole_mask |= _LOW_BIT[code]
    board_mask = 0
    for code in board:
        board_mask |= _LOW_BIT[code]
    return _low_table()[hole_mask << 8 | board_mask]


# Names are asked for at every showdown: each is built once (7,462 high, 256 low at most).
_HIGH_NAMES: dict[int, str] = {}
_LOW_NAMES: dict[int, str] = {}


def describe_low(score: int) -> str:
    name = _LOW_NAMES.get(score)
    if name is None:
        mask = 256 - score
        name = "-".join(LOW_CHARS[r] for r in range(7, -1, -1) if mask >> r & 1) if score else ""
        _LOW_NAMES[score] = name
    return name


def describe_high(strength: int) -> str:
    name = _HIGH_NAMES.get(strength)
    if name is None:
        name = _HIGH_NAMES[strength] = describe(strength)
    return name
