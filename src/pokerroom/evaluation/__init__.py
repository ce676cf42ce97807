"""Hand evaluation: high hands (Hold'em, Omaha), eight-or-better lows, batches, equity
of hands and of hold'em ranges.

>>> from pokerroom.cards import parse_cards
>>> from pokerroom.evaluation import best_hand, evaluate
>>> evaluate(parse_cards("AsAdKsKd2c")) > evaluate(parse_cards("AsAdQsQd2c"))
True
>>> str(best_hand(parse_cards("9h8h7h6h5h2c2d")))
'Straight Flush, Nine high (9h8h7h6h5h)'
"""

from pokerroom.evaluation.batch import evaluate7_batch, omaha_high_batch, omaha_low_batch
from pokerroom.evaluation.classes import (
    CLASS_COUNT,
    Category,
    category_of,
    describe,
    name_in_english,
    named_ranks,
)
from pokerroom.evaluation.equity import (
    EquityError,
    EquityResult,
    HandEquity,
    equity,
)
from pokerroom.evaluation.high import (
    EvaluationError,
    HandValue,
    best_hand,
    evaluate,
    evaluate7,
    evaluate_codes,
    omaha_best_hand,
)
from pokerroom.evaluation.low import LowValue, omaha_low
from pokerroom.evaluation.range_equity import RangeEquityResult, RangeShare, range_equity
from pokerroom.evaluation.ranges import HandRange, RangeError, parse_range
from pokerroom.evaluation.variant import Variant

__all__ = [
    "CLASS_COUNT",
    "Category",
    "EquityError",
    "EquityResult",
    "EvaluationError",
    "HandEquity",
    "HandRange",
    "HandValue",
    "LowValue",
    "RangeEquityResult",
    "RangeError",
    "RangeShare",
    "Variant",
    "best_hand",
    "category_of",
    "describe",
    "equity",
    "evaluate",
    "evaluate7",
    "evaluate7_batch",
    "evaluate_codes",
    "name_in_english",
    "named_ranks",
    "omaha_best_hand",
    "omaha_high_batch",
    "omaha_low",
    "omaha_low_batch",
    "parse_range",
    "range_equity",
]
