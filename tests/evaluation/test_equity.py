"""Equity: exhaustive and Monte Carlo, Hold'em, Omaha and Omaha Hi-Lo (R-HILO-1, R-HILO-5)."""

import numpy as np
import pytest
from typer.testing import CliRunner

from pokerroom.cards import DuplicateCardError, parse_cards
from pokerroom.cli import app
from pokerroom.evaluation import EquityError, Variant, equity


def test_ak_suited_against_queens_preflop_exactly() -> None:
    result = equity([parse_cards("AhKh"), parse_cards("QsQd")])
    ak, qq = result.hands
    assert result.exhaustive and result.boards == 1_712_304
    assert (ak.wins, ak.ties, ak.losses) == (787_966, 6_732, 917_606)
    assert (qq.wins, qq.ties, qq.losses) == (917_606, 6_732, 787_966)
    assert ak.equity + qq.equity == pytest.approx(1.0)


def test_monte_carlo_agrees_with_exhaustive() -> None:
    hands = [parse_cards("AhKh"), parse_cards("QsQd"), parse_cards("7c6c")]
    exact = equity(hands)
    sampled = equity(hands, samples=100_000, rng=np.random.default_rng(5))
    assert not sampled.exhaustive and sampled.boards == 100_000
    for e, s in zip(exact.hands, sampled.hands, strict=True):
        assert s.equity == pytest.approx(e.equity, abs=0.01)  # ~6 sigma at 100k boards


def test_partial_board_and_dead_cards() -> None:
    result = equity([parse_cards("AhKh"), parse_cards("QsQd")], board=parse_cards("Ks7d2c"))
    assert result.boards == 990 and result.hands[0].wins == 903
    # Killing both remaining queens leaves the pair no outs but runner-runner.
    dead = equity(
        [parse_cards("AhKh"), parse_cards("QsQd")],
        board=parse_cards("Ks7d2c"),
        dead=parse_cards("QhQc"),
    )
    assert dead.boards == 903 and dead.hands[1].equity < result.hands[1].equity


def test_river_board_is_one_board() -> None:
    result = equity([parse_cards("AhKh"), parse_cards("AsKs")], board=parse_cards("2c3d8h9sJc"))
    assert result.boards == 1
    assert [h.ties for h in result.hands] == [1, 1]
    assert [h.equity for h in result.hands] == [0.5, 0.5]


def test_R_HILO_1_R_HILO_5_hi_lo_equity_scoops_and_halves() -> None:
    hands = [parse_cards("Ah2hKsKd"), parse_cards("QcQdJcJd")]
    board = parse_cards("3h4h8c")
    result = equity(hands, board=board, game=Variant.OMAHA_HILO)
    low_hand, high_hand = result.hands
    assert result.exhaustive and result.boards == 820  # C(41, 2)
    # A-2 with 3-4-8 on board always has the only low: the first hand never gets less than
    # half, and scoops whenever its kings also hold up for high.
    assert high_hand.wins == 0 and low_hand.losses == 0
    assert low_hand.ties == high_hand.ties > 0
    assert low_hand.equity == pytest.approx((low_hand.wins + low_hand.ties / 2) / 820)
    assert high_hand.equity == pytest.approx(high_hand.ties / 2 / 820)
    # R-HILO-5: no low on board (only 3 and 4 are low): the straight Q-J + K-T-9 scoops.
    no_low = equity(hands, board=parse_cards("3c4dKhTc9s"), game=Variant.OMAHA_HILO)
    assert no_low.boards == 1 and no_low.hands[1].wins == 1 and no_low.hands[1].equity == 1.0


def test_omaha_high_equity_counts() -> None:
    result = equity(
        [parse_cards("AsAdKsKd"), parse_cards("7h8h9hTh")],
        board=parse_cards("2c3d4h5s"),
        game=Variant.OMAHA,
    )
    assert result.boards == 40 and sum(h.share for h in result.hands) == pytest.approx(40)


def test_bad_equity_questions_are_refused() -> None:
    with pytest.raises(EquityError, match="2 to 10 hands"):
        equity([parse_cards("AhKh")])
    with pytest.raises(EquityError, match="2 cards"):
        equity([parse_cards("AhKhQh"), parse_cards("QsQd")])
    with pytest.raises(DuplicateCardError):
        equity([parse_cards("AhKh"), parse_cards("AhQd")])
    with pytest.raises(EquityError, match="board"):
        equity([parse_cards("AhKh"), parse_cards("QsQd")], board=parse_cards("2c"))
    with pytest.raises(ValueError):
        equity([parse_cards("AhKh"), parse_cards("QsQd")], game="stud")


def test_cli_equity_prints_win_tie_and_equity() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["equity", "AhKh", "QsQd", "--board", "Ks7d2c"])
    assert result.exit_code == 0, result.output
    assert "AhKh" in result.output and "91.21%" in result.output and "990 boards" in result.output
    bad = runner.invoke(app, ["equity", "AhKh", "1x"])
    assert bad.exit_code == 2 and "'1x' is not a card" in bad.output
    omaha = runner.invoke(
        app, ["equity", "Ah2hKsKd", "QcQdJcJd", "--game", "omaha8", "--samples", "2000"]
    )
    assert omaha.exit_code == 0 and "Monte Carlo" in omaha.output
    stud = runner.invoke(app, ["equity", "AhKh", "QsQd", "--game", "stud"])
    assert stud.exit_code == 2 and "'stud' is not a game" in stud.output
