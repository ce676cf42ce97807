"""High hands (R-SHOW-1, R-SHOW-2, R-SHOW-5, R-SHOW-7): the 7,462-class scale."""

import random
from itertools import combinations

import numpy as np
import phevaluator
import pytest
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from pokerroom.cards import DuplicateCardError, parse_cards
from pokerroom.evaluation import (
    CLASS_COUNT,
    Category,
    EvaluationError,
    best_hand,
    category_of,
    describe,
    evaluate,
    evaluate7,
    evaluate7_batch,
    evaluate_codes,
)
from pokerroom.evaluation.classes import _category_floors

TEXT = [r + s for r in "23456789TJQKA" for s in "cdhs"]

FIVE_CARD_COUNTS = {
    Category.STRAIGHT_FLUSH: 40,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.PAIR: 1_098_240,
    Category.HIGH_CARD: 1_302_540,
}
SEVEN_CARD_COUNTS = {
    Category.STRAIGHT_FLUSH: 41_584,
    Category.FOUR_OF_A_KIND: 224_848,
    Category.FULL_HOUSE: 3_473_184,
    Category.FLUSH: 4_047_644,
    Category.STRAIGHT: 6_180_020,
    Category.THREE_OF_A_KIND: 6_461_620,
    Category.TWO_PAIR: 31_433_400,
    Category.PAIR: 58_627_800,
    Category.HIGH_CARD: 23_294_460,
}


def test_R_SHOW_7_all_five_card_hands_by_category_and_7462_classes() -> None:
    floors = _category_floors()
    counts = [0] * 9
    seen: set[int] = set()
    royal = 0
    for hand in combinations(range(52), 5):
        strength = evaluate_codes(hand)
        seen.add(strength)
        if strength == CLASS_COUNT:
            royal += 1
        for category in range(8, -1, -1):
            if strength >= floors[category]:
                counts[category] += 1
                break
    assert {Category(c): n for c, n in enumerate(counts)} == FIVE_CARD_COUNTS
    assert royal == 4
    assert len(seen) == 7462 and min(seen) == 1 and max(seen) == 7462


def test_R_SHOW_7_all_seven_card_hands_through_the_batch_evaluator() -> None:
    from pokerroom.evaluation.exact import combinations_array as _combinations

    floors = np.array(_category_floors())
    counts = np.zeros(9, dtype=np.int64)
    total = 0
    for a, b in combinations(range(52), 2):
        if 52 - b - 1 < 5:
            continue
        rest = _combinations(52 - b - 1, 5).astype(np.int16) + (b + 1)
        rows = np.empty((len(rest), 7), dtype=np.int16)
        rows[:, 0], rows[:, 1], rows[:, 2:] = a, b, rest
        categories = np.searchsorted(floors, evaluate7_batch(rows), side="right") - 1
        counts += np.bincount(categories, minlength=9)
        total += len(rows)
    assert total == 133_784_560
    assert {Category(c): int(n) for c, n in enumerate(counts)} == SEVEN_CARD_COUNTS


def _random_hands(count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, :7]


def test_same_order_as_treys_on_100000_random_seven_card_hands() -> None:
    hands = _random_hands(100_000, seed=1)
    ours = evaluate7_batch(hands).astype(np.int64)
    treys = TreysEvaluator()
    cards = [TreysCard.new(t) for t in TEXT]
    theirs = np.array(
        [treys.evaluate([cards[c] for c in h[:2]], [cards[c] for c in h[2:]]) for h in hands]
    )
    # treys ranks 1 (royal flush) .. 7462: the same classes, the other way round.
    assert np.array_equal(ours, 7463 - theirs)


def test_same_order_as_phevaluator_on_100000_random_seven_card_hands() -> None:
    hands = _random_hands(100_000, seed=2)
    ours = evaluate7_batch(hands).astype(np.int64)
    theirs = np.array([phevaluator.evaluate_cards(*(TEXT[c] for c in h)) for h in hands])
    assert np.array_equal(ours, 7463 - theirs)


def test_single_hand_paths_agree_with_the_batch() -> None:
    hands = _random_hands(20_000, seed=3)
    batch = evaluate7_batch(hands)
    assert [evaluate7(*h) for h in hands.tolist()] == batch.tolist()
    assert [evaluate_codes(h) for h in hands.tolist()] == batch.tolist()


def test_six_card_hands_are_the_best_of_their_fives() -> None:
    rng = random.Random(4)
    for _ in range(2_000):
        six = rng.sample(range(52), 6)
        assert evaluate_codes(six) == max(evaluate_codes(f) for f in combinations(six, 5))


@pytest.mark.parametrize(
    ("cards", "name", "five"),
    [
        ("AsKsQsJsTs9s2d", "Royal Flush", "AsKsQsJsTs"),
        ("5d4d3d2dAd9c9h", "Straight Flush, Five high", "5d4d3d2dAd"),
        ("KhKdKcKs2c3c4c", "Four of a Kind, Kings", "KsKhKdKc4c"),
        ("KhKdKc7s7c2h3d", "Full House, Kings over Sevens", "KhKdKc7s7c"),
        ("AhJh9h6h2h2c2s", "Flush, Ace high", "AhJh9h6h2h"),
        ("Ah2c3d4s5hKcKd", "Straight, Five high", "5h4s3d2cAh"),
        ("6s6d6c9hTc2h3d", "Three of a Kind, Sixes", "6s6d6cTc9h"),
        ("QsQdJcJh4c4d2h", "Two Pair, Queens and Jacks", "QsQdJhJc4d"),
        ("9s9dAc7h5c3d2h", "Pair of Nines", "Ac9s9d7h5c"),
        ("As Qd 9c 7h 5c 3d 2h", "High Card, Ace high", "AsQd9c7h5c"),
    ],
)
def test_R_SHOW_7_names_and_best_five(cards: str, name: str, five: str) -> None:
    value = best_hand(parse_cards(cards))
    assert value.description == name
    # Equal-ranked alternatives (4c or 4d as the kicker) are the same hand: compare ranks.
    assert sorted(c.rank for c in value.best_five) == sorted(c.rank for c in parse_cards(five))
    assert set(value.best_five) <= set(parse_cards(cards))
    assert value.strength == evaluate(parse_cards(cards)) == evaluate(value.best_five)


def test_R_SHOW_7_ace_plays_low_in_the_wheel_and_high_in_broadway() -> None:
    wheel = evaluate(parse_cards("Ah2c3d4s5h"))
    six_high = evaluate(parse_cards("2c3d4s5h6h"))
    broadway = evaluate(parse_cards("AhKcQdJsTh"))
    assert category_of(wheel) is Category.STRAIGHT
    assert wheel < six_high < broadway
    # No round-the-corner straight: Q-K-A-2-3 is ace high.
    assert category_of(evaluate(parse_cards("QhKcAd2s3h"))) is Category.HIGH_CARD


def test_R_SHOW_2_the_board_may_play() -> None:
    board = parse_cards("AsKsQsJsTs")
    assert evaluate([*board, *parse_cards("2c3d")]) == evaluate([*board, *parse_cards("9h8h")])


def test_R_SHOW_5_suits_never_break_ties_and_kickers_do() -> None:
    assert evaluate(parse_cards("AsKd9c7h3s")) == evaluate(parse_cards("AhKc9d7s3h"))
    assert evaluate(parse_cards("AsAdKc7h3s")) > evaluate(parse_cards("AhAcQd7s3h"))
    # Only five cards count: a sixth and seventh kicker never play.
    assert evaluate(parse_cards("AsAdKcQhJs4d2c")) == evaluate(parse_cards("AhAcKdQsJh3c2d"))


def test_R_SHOW_1_cards_speak_the_room_finds_the_best_hand() -> None:
    # A player holding a flush "declared" as a pair still has a flush.
    assert best_hand(parse_cards("7h2hKhQh9h9c9d")).category is Category.FLUSH


# R-SHOW-7: how many distinct five-card hands each category has, worst to best.
CLASSES_PER_CATEGORY = [1277, 2860, 858, 858, 10, 1277, 156, 156, 10]
NAME_STARTS = ["High Card, ", "Pair of ", "Two Pair, ", "Three of a Kind, ", "Straight, "]
NAME_STARTS += ["Flush, ", "Full House, ", "Four of a Kind, ", "Straight Flush, "]


def test_every_strength_has_a_category_and_a_name() -> None:
    categories = [category_of(strength) for strength in range(1, CLASS_COUNT + 1)]
    assert categories == sorted(categories)  # a better category always ranks higher
    assert [categories.count(c) for c in Category] == CLASSES_PER_CATEGORY
    for strength, category in zip(range(1, CLASS_COUNT + 1), categories, strict=True):
        name = describe(strength)
        assert name.startswith(NAME_STARTS[category]) or name == "Royal Flush", name
    assert (describe(1), describe(CLASS_COUNT)) == ("High Card, Seven high", "Royal Flush")
    assert describe(CLASS_COUNT - 1) == "Straight Flush, King high"
    with pytest.raises(ValueError, match="7463"):
        category_of(7463)


def test_bad_hands_are_refused() -> None:
    with pytest.raises(EvaluationError, match="got 4"):
        evaluate(parse_cards("AsKsQsJs"))
    with pytest.raises(DuplicateCardError):
        evaluate(parse_cards("AsAsQsJs2c", allow_duplicates=True))
    with pytest.raises(ValueError, match=r"shape \(N, 7\)"):
        evaluate7_batch(np.zeros((3, 6), dtype=np.int64))
