"""The floor's integrity reports on bot runs: a planted chip-dumping pair and a planted
soft-playing pair come top of their reports; an honest run has nobody above a report's
threshold. The reports show numbers and hands; they accuse nobody."""

from __future__ import annotations

import pytest

from pokerroom.history.integrity import (
    Seen,
    chip_dumping,
    shared_connections,
    soft_play,
)
from tests.helpers.bot_runs import bot_run, dumper, honest, receiver, soft

HANDS = 1000


@pytest.fixture(scope="module")
def planted():
    # 1 dumps chips to 2; 3 and 4 play soft against each other; 5 and 6 are honest.
    return bot_run(
        {
            1: dumper(2, seed=1),
            2: receiver(1, seed=2),
            3: soft(4, seed=3),
            4: soft(3, seed=4),
            5: honest(5),
            6: honest(6),
        },
        HANDS,
        seed=1,
    )


@pytest.fixture(scope="module")
def fair():
    return bot_run({a: honest(a) for a in range(1, 7)}, HANDS, seed=2)


def test_a_planted_chip_dumping_pair_comes_top(planted):
    report = chip_dumping(planted)
    top = report.rows[0]
    assert top.accounts == (1, 2)
    assert top.score >= report.threshold and top.numbers["strong_folds"] > 0
    assert [r.accounts for r in report.flagged] == [(1, 2)]
    assert set(top.hands) <= {h.hand_id for h in planted}


def test_a_planted_soft_playing_pair_comes_top(planted):
    report = soft_play(planted)
    top = report.rows[0]
    assert top.accounts == (3, 4)
    assert top.numbers["bets"] == 0 and top.score >= report.threshold
    assert [r.accounts for r in report.flagged] == [(3, 4)]
    assert top.hands  # their streets together without a bet


def test_an_honest_run_has_nobody_above_the_thresholds(fair):
    assert chip_dumping(fair).flagged == []
    assert soft_play(fair).flagged == []
    assert shared_connections(fair, []).rows == []


def test_accounts_sharing_an_address_are_listed_with_their_hands(fair):
    seen = [Seen(1, "203.0.113.7", "d1"), Seen(4, "203.0.113.7", "d2"), Seen(5, "x", "d2")]
    report = shared_connections(fair, seen)
    pairs = {r.accounts: r for r in report.rows}
    assert set(pairs) == {(1, 4), (4, 5)}
    assert len(pairs[(1, 4)].hands) == HANDS  # six-handed: always dealt in together
    assert pairs[(1, 4)].numbers == {"address": 1, "device": 0}
    assert pairs[(4, 5)].numbers == {"address": 0, "device": 1}
