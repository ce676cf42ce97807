"""``pokerroom tournament simulate`` (issue 14): one JSON line, money and chips conserved,
every place once, tables within one player; clear errors for a bad structure or field."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from pokerroom.cli.app import app
from tests.tournament.invariants import check_result

KEYS = [
    "entrants",
    "hands",
    "tables_max",
    "levels",
    "places",
    "prize_pool",
    "paid",
    "chips_start",
    "chips_end",
    "max_table_gap",
    "moves",
]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["tournament", "simulate", *args])
    return result.exit_code, result.stdout, result.stderr


def test_issue14_simulate_prints_one_json_line() -> None:
    code, out, _ = run("--entrants", "40", "--structure", "mtt_freezeout", "--seed", "3", "--json")
    assert code == 0 and out.count("\n") == 1
    result = json.loads(out)
    assert list(result)[: len(KEYS)] == KEYS
    assert result["entrants"] == 40 and result["tables_max"] == 5 and result["moves"] > 0
    check_result(result)
    again = run("--entrants", "40", "--structure", "mtt_freezeout", "--seed", "3", "--json")
    assert again[1] == out  # the seed makes the event


def test_issue14_simulate_without_json_prints_a_summary() -> None:
    code, out, _ = run("--entrants", "9", "--structure", "sng9", "--seed", "1")
    assert code == 0 and "prize pool / paid" in out and "9000 / 9000" in out


def test_issue14_simulate_refuses_a_bad_structure_or_field_size() -> None:
    code, _, err = run("--entrants", "9", "--structure", "nope")
    assert code == 1 and "no tournament structure 'nope'" in err
    code, _, err = run("--entrants", "12", "--structure", "sng9")
    assert code == 1 and "sng9 takes 2 to 9 entries, not 12" in err
