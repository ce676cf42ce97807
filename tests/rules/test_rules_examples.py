"""RULES.md's rake numbers read off the shipped schedules (R-RAKE-1, R-RAKE-2, R-RAKE-5).

Every concrete number in RULES.md is a test. 000's examples are in test_rake.py;
these are 002's caps ("from $1 to $5", and $5 beating the prose's $3) and the casino's
convention, which had no test of their own.
"""

import pytest

from pokerroom.rules import load_rake_schedule
from pokerroom.rules.game import Structure

NL, FL = Structure.NO_LIMIT, Structure.FIXED_LIMIT
BIG_POT = 1_000_000  # $10,000: far above every cap


@pytest.mark.parametrize(
    ("structure", "big_blind", "players", "cap"),
    [
        (FL, 10, 6, 100),  # L1: $1
        (FL, 3000, 3, 200),  # L4 2-3 players: $2
        (FL, 3000, 9, 500),  # L4 4-10 players: $5
        (NL, 10, 9, 100),  # P2: $1
        (NL, 200, 2, 100),  # P3: $1 / $2 / $3 by players
        (NL, 200, 4, 200),
        (NL, 200, 5, 300),
        (NL, 1000, 3, 200),  # P4: $2 / $5
        (NL, 1000, 4, 500),
    ],
)
def test_R_RAKE_2_R_RAKE_5_titan_caps_run_from_1_to_5_dollars(
    structure: Structure, big_blind: int, players: int, cap: int
) -> None:
    # R-RAKE-5: 002's prose says "never more than $3", its tables cap the top stakes at $5;
    # the tables win.
    titan = load_rake_schedule("titan")
    assert titan.rake(BIG_POT, players=players, structure=structure, big_blind=big_blind) == cap


@pytest.mark.parametrize(("pot", "rake"), [(99, 0), (100, 5), (199, 5), (1999, 95), (6000, 300)])
@pytest.mark.parametrize("players", [2, 10])
def test_R_RAKE_1_casino_convention_five_percent_capped_3_dollars_no_minimum(
    pot: int, rake: int, players: int
) -> None:
    # Presets table: the casino rakes every pot at 5% per full $1, capped at $3, with no
    # minimum (5 cents is taken where multipoker's $0.10 minimum would take nothing).
    casino = load_rake_schedule("casino")
    for structure in Structure:
        assert casino.rake(pot, players=players, structure=structure, big_blind=200) == rake
    multipoker = load_rake_schedule("multipoker")
    assert multipoker.rake(199, players=players, structure=NL, big_blind=200) == 0
