"""Rake schedules as data: R-RAKE-2 .. R-RAKE-5, and load-time validation."""

import pytest

from pokerroom.rules import RulesError, load_rake_schedule
from pokerroom.rules.game import Structure
from pokerroom.rules.rake import parse_rake_schedule

FL, PL, NL = Structure.FIXED_LIMIT, Structure.POT_LIMIT, Structure.NO_LIMIT


def rake(name: str, pot: int, players: int, structure: Structure, big_blind: int) -> int:
    return load_rake_schedule(name).rake(
        pot, players=players, structure=structure, big_blind=big_blind
    )


@pytest.mark.parametrize(
    ("pot", "expected"),
    [(1999, 0), (2000, 100), (3000, 150), (4000, 200), (5000, 250), (6000, 300), (99_999, 300)],
)
def test_R_RAKE_4_threshold_example_2_4_with_6_to_10_players(pot: int, expected: int) -> None:
    assert rake("multipoker", pot, 6, FL, 200) == expected


def test_R_RAKE_4_threshold_rows_by_players_dealt_in() -> None:
    assert rake("multipoker", 6000, 3, FL, 1000) == 100
    assert rake("multipoker", 6000, 5, FL, 1000) == 200
    assert rake("multipoker", 1200, 2, FL, 50) == 75  # $0.50/$1 band
    assert rake("titan", 35_000, 9, FL, 3000) == 500  # titan L4


def test_R_RAKE_2_amount_per_full_step_capped_by_players() -> None:
    assert rake("multipoker", 1299, 6, NL, 200) == 60  # $0.05 per full $1
    assert rake("multipoker", 100_000, 2, PL, 200) == 100  # 2-3 players: $1 cap
    assert rake("multipoker", 100_000, 4, NL, 200) == 200
    assert rake("multipoker", 100_000, 7, NL, 200) == 300
    assert rake("titan", 399, 6, NL, 10) == 19  # $0.01 per full $0.20
    assert rake("casino", 10_000, 9, NL, 100) == 300


def test_R_RAKE_3_a_rake_below_the_minimum_is_not_taken() -> None:
    assert rake("multipoker", 199, 6, NL, 200) == 0  # 5 cents < 10 cents
    assert rake("multipoker", 200, 6, NL, 200) == 10
    schedule = load_rake_schedule("multipoker")
    assert schedule.rake(199, players=6, structure=NL, big_blind=200, min_rake=0) == 5


def test_R_RAKE_5_never_above_the_cap_and_ten_players_use_the_row_below() -> None:
    schedule = load_rake_schedule("multipoker")
    for pot in range(0, 200_000, 997):
        assert schedule.rake(pot, players=10, structure=NL, big_blind=200) <= 300
    assert schedule.rake(100_000, players=10, structure=NL, big_blind=200) == 300
    assert schedule.check(NL, 200, 10) == [
        "rake multipoker: 10-10 players are not in the schedule; the 6-9 row is used"
    ]
    assert schedule.check(NL, 200, 9) == []


def test_R_RAKE_1_stakes_outside_every_band_are_a_configuration_error() -> None:
    with pytest.raises(RulesError, match="no band for fixed_limit with big blind 4000"):
        rake("multipoker", 5000, 6, FL, 4000)
    with pytest.raises(RulesError, match="big blind 30"):
        rake("titan", 5000, 6, FL, 30)  # between titan's L1 and L2


GOOD_ROW = "{ players = [2, 10], step = 100, per_step = 5, cap = 300 }"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("band = [", "does not parse"),
        ("name = 'x'", "has no bands"),
        ("[[band]]\nstructures = ['no_limit']\nrows = []", "at least one row"),
        (
            "[[band]]\nstructures = ['no_limit']\nrows = [{ players = [2, 3], step = 100,"
            " per_step = 5, cap = 100 },"
            " { players = [5, 10], step = 100, per_step = 5, cap = 300 }]",
            "players 4..4 are not covered",
        ),
        (
            "[[band]]\nstructures = ['no_limit']\nrows = [{ players = [3, 10], step = 100,"
            " per_step = 5, cap = 100 }]",
            "players 2..2 are not covered",
        ),
        (
            "[[band]]\nstructures = ['no_limit']\nrows = [{ players = [2, 10],"
            " thresholds = [[500, 50], [400, 75]], cap = 100 }]",
            "must rise strictly",
        ),
        (
            "[[band]]\nstructures = ['no_limit']\nrows = [{ players = [2, 10],"
            " thresholds = [[500, 150]], cap = 100 }]",
            "exceeds the cap",
        ),
        (f"[[band]]\nstructures = ['stud']\nrows = [{GOOD_ROW}]", "stud"),
        (
            f"[[band]]\nstructures = ['no_limit']\nrows = [{GOOD_ROW}]\n"
            f"[[band]]\nstructures = ['no_limit']\nrows = [{GOOD_ROW}]",
            "two bands cover the same stakes",
        ),
        (
            "[[band]]\nstructures = ['no_limit']\nrows = [{ players = [2, 10], step = 0,"
            " per_step = 5, cap = 100 }]",
            "must be positive",
        ),
    ],
)
def test_a_broken_schedule_is_refused_at_load_time(text: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        parse_rake_schedule(text, "broken")


def test_every_shipped_schedule_loads() -> None:
    for name in ("multipoker", "titan", "casino"):
        assert load_rake_schedule(name).bands
