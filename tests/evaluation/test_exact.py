"""Exact hold'em equity by board rank classes (exact.py) against dealing every board.

The rank classes stand for many boards each and the flush classes correct them, so each
case is checked against a brute force that deals each completion and evaluates every hand.
Cases lean on what the classes must get right: flush draws of one and two suited hole
cards, monotone and paired boards, dead cards, split pots and several players."""

from itertools import combinations

import numpy as np
import pytest

from pokerroom.cards import parse_cards
from pokerroom.evaluation import equity, evaluate7
from pokerroom.evaluation.exact import holdem_exact


def codes(text: str) -> list[int]:
    return [card.code for card in parse_cards(text)]


def brute_force(
    hands: list[list[int]], board: list[int], dead: list[int]
) -> tuple[list[int], list[int], list[float], int]:
    known = {*(c for h in hands for c in h), *board, *dead}
    rest = [c for c in range(52) if c not in known]
    wins, ties, share = [0] * len(hands), [0] * len(hands), [0.0] * len(hands)
    boards = 0
    for extra in combinations(rest, 5 - len(board)):
        full = [*board, *extra]
        strengths = [evaluate7(*h, *full) for h in hands]
        best = max(strengths)
        winners = [i for i, s in enumerate(strengths) if s == best]
        for i in winners:
            share[i] += 1 / len(winners)
            if len(winners) == 1:
                wins[i] += 1
            else:
                ties[i] += 1
        boards += 1
    return wins, ties, share, boards


CASES = [
    (["AhKh", "QsQd"], "Ks7d2c", ""),
    (["AhKh", "QsQd"], "Ks7d2c", "QhQc"),
    (["AhKh", "QsQd", "7c6c"], "2h9h", ""),  # turn and river: a flush draw, two to come
    (["AsKs", "QsJs", "Ts9s"], "2s3s4d", ""),  # three players on one suit
    (["Ah2c", "KhKc"], "3h4h5h", ""),  # monotone: straight flushes and flushes
    (["7c7d", "8h9h", "AcKd"], "7h7s8c", ""),  # quads, full houses, paired board
    (["AhKd", "AcKs"], "QhJhTc", ""),  # split straights, a heart flush draw for one
    (["2c3c", "4d5d", "6h7h", "8s9s"], "TcJdQh", "As"),  # four players, a dead card
    (["AhAd", "KsKc"], "", "2c3d4h5s6c7d8h9s" + "TcJdQhQs2d3h4s5c6d7h8s9c"),
]


@pytest.mark.parametrize(("hands", "board", "dead"), CASES)
def test_rank_classes_count_every_board_exactly(hands: list[str], board: str, dead: str) -> None:
    hand_codes = [codes(h) for h in hands]
    exact = holdem_exact(hand_codes, codes(board), codes(dead))
    wins, ties, share, boards = brute_force(hand_codes, codes(board), codes(dead))
    assert exact.boards == boards
    assert exact.wins.tolist() == wins and exact.ties.tolist() == ties
    assert exact.share == pytest.approx(share)


def test_random_flops_against_the_brute_force() -> None:
    rng = np.random.default_rng(11)
    for _ in range(12):
        players = int(rng.integers(2, 5))
        deal = rng.permutation(52)[: 2 * players + 3].tolist()
        hands = [deal[2 * i : 2 * i + 2] for i in range(players)]
        board = deal[2 * players :]
        exact = holdem_exact(hands, board, [])
        wins, ties, share, boards = brute_force(hands, board, [])
        assert (exact.wins.tolist(), exact.ties.tolist(), exact.boards) == (wins, ties, boards)
        assert exact.share == pytest.approx(share)


def test_preflop_multiway_equities_sum_to_one_and_count_every_board() -> None:
    hands = [parse_cards(h) for h in ("AhKh", "QsQd", "7c6c", "Ad2s", "JhTh")]
    result = equity(hands)
    assert result.exhaustive and result.boards == 850_668  # C(42, 5)
    assert sum(h.equity for h in result.hands) == pytest.approx(1.0)
    for h in result.hands:
        assert h.wins + h.ties <= h.boards and h.stderr == 0.0
