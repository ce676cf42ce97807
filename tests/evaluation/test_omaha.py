"""Omaha high (R-SHOW-3) and eight-or-better low (R-HILO-2 .. R-HILO-4, R-HILO-7, R-HILO-8)."""

from itertools import combinations

import numpy as np
import pytest
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

from pokerroom.cards import DuplicateCardError, parse_cards
from pokerroom.evaluation import (
    Category,
    EvaluationError,
    omaha_best_hand,
    omaha_high_batch,
    omaha_low,
    omaha_low_batch,
)

TEXT = [r + s for r in "23456789TJQKA" for s in "cdhs"]
HANDS = 20_000


def _deals(count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    nine = np.argsort(rng.random((count, 52)), axis=1)[:, :9]
    return nine[:, :4], nine[:, 4:]


def brute_force_low(hole: list[int], board: list[int]) -> int:
    """Reference low: try all 60 two-plus-three hands, compare sorted ranks from the top."""
    best: tuple[int, ...] | None = None
    for two in combinations(hole, 2):
        for three in combinations(board, 3):
            # ace = 1, deuce = 2 ... eight = 8; anything higher disqualifies
            ranks = [1 if c >> 2 == 12 else (c >> 2) + 2 for c in (*two, *three)]
            if max(ranks) > 8 or len(set(ranks)) < 5:
                continue
            low = tuple(sorted(ranks, reverse=True))
            if best is None or low < best:
                best = low
    if best is None:
        return 0
    return 256 - sum(1 << (r - 1) for r in best)


def test_R_SHOW_3_omaha_high_batch_matches_brute_force_on_20000_hands() -> None:
    holes, boards = _deals(HANDS, seed=11)
    ours = omaha_high_batch(holes, boards)
    treys = TreysEvaluator()
    cards = [TreysCard.new(t) for t in TEXT]
    for i in range(HANDS):
        h = [cards[c] for c in holes[i]]
        b = [cards[c] for c in boards[i]]
        # treys scores one five-card hand (1 = royal flush); take the best of 60.
        reference = min(
            treys.evaluate(list(two), list(three))
            for two in combinations(h, 2)
            for three in combinations(b, 3)
        )
        assert ours[i] == 7463 - reference, (holes[i], boards[i])


def test_R_HILO_2_R_HILO_3_low_batch_matches_brute_force_on_20000_hands() -> None:
    holes, boards = _deals(HANDS, seed=12)
    ours = omaha_low_batch(holes, boards)
    expected = [brute_force_low(h, b) for h, b in zip(holes.tolist(), boards.tolist(), strict=True)]
    assert ours.tolist() == expected
    assert 0 < np.count_nonzero(ours) < HANDS  # both outcomes are exercised


def test_R_SHOW_3_exactly_two_hole_cards_and_three_board_cards() -> None:
    # Four spades in hand and one on board: no flush in Omaha (needs three board spades).
    value = omaha_best_hand(parse_cards("AsKsQsJs"), parse_cards("2s7h8d9cTd"))
    assert value.category is Category.STRAIGHT  # Q-J from the hand, 8-9-T from the board
    assert value.description == "Straight, Queen high"
    # Four kings on board: only three can play, so a pocket pair makes a full house.
    value = omaha_best_hand(parse_cards("AhAd2c3c"), parse_cards("KsKhKdKc5d"))
    assert value.category is Category.FULL_HOUSE
    assert value.description == "Full House, Kings over Aces"


def test_R_HILO_2_R_HILO_4_lows_use_two_and_three_and_ignore_straights_and_flushes() -> None:
    low = omaha_low(parse_cards("Ah2hKhKc"), parse_cards("3h4h5hQsJs"))
    assert low is not None and low.description == "5-4-3-2-A"
    assert omaha_best_hand(parse_cards("Ah2hKhKc"), parse_cards("3h4h5hQsJs")).category is (
        Category.STRAIGHT_FLUSH
    )
    # Only one low card in hand: no low even with five low cards on board.
    assert omaha_low(parse_cards("AhKhKdQc"), parse_cards("2c3d4h5s6c")) is None


def test_R_HILO_3_lows_compare_from_the_top_card_down() -> None:
    board = parse_cards("3c5d7hKsQs")
    a = omaha_low(parse_cards("Ah2dJcJd"), board)  # 7-5-3-2-A
    b = omaha_low(parse_cards("Ac4dJhJs"), board)  # 7-5-4-3-A
    c = omaha_low(parse_cards("2c6dThTs"), board)  # 7-6-5-3-2
    assert a and b and c
    assert a.score > b.score > c.score
    assert (a.description, b.description, c.description) == ("7-5-3-2-A", "7-5-4-3-A", "7-6-5-3-2")


def test_R_HILO_7_one_card_may_play_in_both_high_and_low() -> None:
    hole, board = parse_cards("As2sKdKc"), parse_cards("3s4s8sQhJh")
    high = omaha_best_hand(hole, board)
    low = omaha_low(hole, board)
    assert high.category is Category.FLUSH and parse_cards("As")[0] in high.best_five
    assert low is not None and parse_cards("As")[0] in low.cards


def test_R_HILO_8_no_low_without_three_distinct_low_ranks_on_board() -> None:
    hole = parse_cards("Ah2d3c4s")
    assert omaha_low(hole, parse_cards("5c5d9hKsQs")) is None
    assert omaha_low(hole, parse_cards("5c6d9hKsQs")) is None
    assert omaha_low(hole, parse_cards("5c6d8hKsQs")) is not None


def test_omaha_input_errors() -> None:
    with pytest.raises(EvaluationError, match="4 cards, got 2"):
        omaha_best_hand(parse_cards("AsKs"), parse_cards("2c3c4c5c6c"))
    with pytest.raises(DuplicateCardError):
        omaha_low(parse_cards("AsKsQsJs"), parse_cards("As3c4c5c6c"))
    with pytest.raises(ValueError, match="3 Omaha hands but 2 boards"):
        omaha_high_batch(np.zeros((3, 4), dtype=np.int64), np.zeros((2, 5), dtype=np.int64))
