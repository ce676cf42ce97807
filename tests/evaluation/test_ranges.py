"""Hold'em ranges: parsing (with errors that name the part at fault) and range equity,
exact and Monte Carlo, against OMPEval's figures (pokerfast, a dev-only peer).

OMPEval reads no spans ("22-55" means something else to it), so spans are given to it
written out. Its Monte Carlo stops at a standard error; ours states its own, and the two
must agree within four of their combined standard errors (a seeded rng: no flakiness)."""

import numpy as np
import pytest
from pokerfast import equity as ompeval
from typer.testing import CliRunner

from pokerroom.cards import DuplicateCardError, parse_cards
from pokerroom.cli import app
from pokerroom.evaluation.equity import EquityError
from pokerroom.evaluation.range_equity import range_equity
from pokerroom.evaluation.ranges import RangeError, parse_range


@pytest.mark.parametrize(
    ("text", "hands"),
    [
        ("random", 1326),
        ("any", 1326),
        ("AhKh", 1),
        ("ahkh", 1),
        ("QQ", 6),
        ("QQ+", 18),
        ("QQ+,AKs", 22),
        ("QQ+, KK, AKs", 22),  # overlaps count once
        ("AK", 16),
        ("AKo", 12),
        ("T9s+", 4),  # the second rank rises to just below the first: T9s alone
        ("A5s+", 36),  # A5s..AKs
        ("22-55", 24),
        ("55-22", 24),
        ("A5s-A2s", 16),
        ("KTo-K8o", 36),
    ],
)
def test_range_sizes(text: str, hands: int) -> None:
    parsed = parse_range(text)
    assert len(parsed) == hands
    assert len({(a.code, b.code) for a, b in parsed.combos}) == hands


def test_range_members() -> None:
    assert {str(a) + str(b) for a, b in parse_range("T9s+").combos} == {f"T{s}9{s}" for s in "cdhs"}
    spans = {a.rank * 13 + b.rank for a, b in parse_range("A5s-A2s").combos}
    assert spans == {12 * 13 + r for r in (0, 1, 2, 3)}
    assert all(a.suit == b.suit for a, b in parse_range("A5s-A2s").combos)
    assert all(a.suit != b.suit for a, b in parse_range("AKo").combos)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty range"),
        ("AA,", "empty part"),
        ("QQ++", "not a range part"),
        ("AKx", "not a range part"),
        ("XX", "not a range part"),
        ("AAs", "neither suited nor offsuit"),
        ("KA", "higher rank first"),
        ("T9s-A2s", "keeps its first rank"),
        ("AKs-AJo", "alike"),
        ("AhAh", "Ah"),
    ],
)
def test_bad_ranges_are_refused_naming_the_part(text: str, message: str) -> None:
    with pytest.raises(RangeError, match=message):
        parse_range(text)


@pytest.mark.parametrize(
    ("ours", "theirs", "board"),
    [
        (["AhKh", "QQ"], ["AhKh", "QQ"], ""),
        (["QQ+,AKs", "AhKh"], ["QQ+,AKs", "AhKh"], ""),
        (["T9s+", "22-55"], ["T9s+", "22,33,44,55"], "2c7d8h"),
        (["A5s-A2s", "KK", "JTs"], ["A2s,A3s,A4s,A5s", "KK", "JTs"], "2c7d8h"),
    ],
)
def test_exact_range_equity_matches_ompeval(ours: list[str], theirs: list[str], board: str) -> None:
    result = range_equity(ours, board=parse_cards(board))
    assert result.exact
    expected = ompeval.equity(theirs, board=board)
    assert [p.equity for p in result.players] == pytest.approx(expected, abs=1e-9)
    assert sum(p.equity for p in result.players) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("ranges", "board"),
    [
        (["QQ+,AKs", "random"], ""),
        (["QQ+,AKs", "T9s+,22+", "random"], "Kh7d2c"),
    ],
)
def test_monte_carlo_range_equity_agrees_with_ompeval_within_its_error(
    ranges: list[str], board: str
) -> None:
    result = range_equity(
        ranges, board=parse_cards(board), samples=60_000, rng=np.random.default_rng(7)
    )
    assert not result.exact and result.deals == 60_000
    theirs_error = 5e-4
    expected = ompeval.equity(ranges, board=board, exact=False, stdev=theirs_error)
    for player, reference in zip(result.players, expected, strict=True):
        assert 0 < player.stderr < 0.01
        combined = (player.stderr**2 + theirs_error**2) ** 0.5
        assert abs(player.equity - reference) < 4 * combined
    assert sum(p.equity for p in result.players) == pytest.approx(1.0)


def test_monte_carlo_of_fixed_hands_states_its_error_and_meets_the_exact_figure() -> None:
    result = range_equity(
        ["AhKh", "QsQd", "7c6c"], samples=50_000, rng=np.random.default_rng(3), exact_deals=0
    )
    exact = range_equity(["AhKh", "QsQd", "7c6c"])
    assert exact.exact and not result.exact
    for sampled, known in zip(result.players, exact.players, strict=True):
        assert abs(sampled.equity - known.equity) < 4 * sampled.stderr


def test_range_equity_questions_without_an_answer_are_refused() -> None:
    with pytest.raises(EquityError, match="no deal"):
        range_equity(["AhKh", "AhKh"])
    with pytest.raises(EquityError, match="no hand of 'AA'"):
        range_equity(["AA", "KK"], board=parse_cards("AsAhAd"), dead=parse_cards("Ac"))
    with pytest.raises(EquityError, match="needs an rng"):
        range_equity(["random", "random"])
    with pytest.raises(EquityError, match="2 to 10"):
        range_equity(["AA"])
    with pytest.raises(DuplicateCardError):
        range_equity(["AA", "KK"], board=parse_cards("2c3c4c"), dead=parse_cards("2c"))
    with pytest.raises(RangeError):
        range_equity(["AA", "QQ++"])


def test_cli_equity_takes_ranges() -> None:
    runner = CliRunner()
    exact = runner.invoke(app, ["equity", "QQ+,AKs", "AhKh"])
    assert exact.exit_code == 0, exact.output
    assert "exact" in exact.output and "QQ+,AKs" in exact.output
    sampled = runner.invoke(
        app, ["equity", "QQ+,AKs", "random", "--samples", "5000", "--seed", "4"]
    )
    assert sampled.exit_code == 0, sampled.output
    assert "Monte Carlo" in sampled.output and "seed 4" in sampled.output and "±" in sampled.output
    bad = runner.invoke(app, ["equity", "QQ++", "AhKh"])
    assert bad.exit_code == 2 and "not a range part" in bad.output
    omaha = runner.invoke(app, ["equity", "AA", "KK", "--game", "omaha"])
    assert omaha.exit_code == 2 and "hold'em only" in omaha.output
