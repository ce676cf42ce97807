"""``pokerroom tournament simulate``: one JSON line, money and chips conserved,
every place once, tables within one player; clear errors for a bad structure or field."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from pokerroom.cli.app import app
from pokerroom.history.phh import load_text
from tests.helpers.tournament_invariants import check_result

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


def test_simulate_prints_one_json_line() -> None:
    code, out, _ = run("--entrants", "40", "--structure", "mtt_freezeout", "--seed", "3", "--json")
    assert code == 0 and out.count("\n") == 1
    result = json.loads(out)
    assert list(result)[: len(KEYS)] == KEYS
    assert result["entrants"] == 40 and result["tables_max"] == 5 and result["moves"] > 0
    check_result(result)
    again = run("--entrants", "40", "--structure", "mtt_freezeout", "--seed", "3", "--json")
    assert again[1] == out  # the seed makes the event


def test_simulate_without_json_prints_a_summary() -> None:
    code, out, _ = run("--entrants", "9", "--structure", "sng9", "--seed", "1")
    assert code == 0 and "prize pool / paid" in out and "9000 / 9000" in out


def test_simulate_refuses_a_bad_structure_or_field_size() -> None:
    code, _, err = run("--entrants", "9", "--structure", "nope")
    assert code == 1 and "no tournament structure 'nope'" in err
    code, _, err = run("--entrants", "12", "--structure", "sng9")
    assert code == 1 and "sng9 takes 2 to 9 entries, not 12" in err


def test_simulate_exports_every_players_histories_and_summary(tmp_path: Path) -> None:
    out = tmp_path / "event"
    code, line, _ = run(
        "--entrants", "9", "--structure", "sng9", "--seed", "2", "--json", "--export", str(out)
    )
    assert code == 0 and line.count("\n") == 1  # the JSON line stays alone on stdout
    result = json.loads(line)
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(f"p{k}" for k in range(1, 10))
    for name in names:
        assert sorted(p.name for p in (out / name).iterdir()) == [
            "hands.phhs",
            "hands.txt",
            "summary.txt",
        ]
        hands = (out / name / "hands.txt").read_text(encoding="utf-8")
        assert hands.startswith("PokerStars Hand #1: Tournament #1, $10.00+$1.00 USD")
        assert set(re.findall(r"^Dealt to (\S+)", hands, flags=re.M)) == {name}
        assert len(load_text((out / name / "hands.phhs").read_text(encoding="utf-8"))) == (
            hands.count("PokerStars Hand #")
        )
    winner = result["places"][0][1]
    summary = (out / winner / "summary.txt").read_text(encoding="utf-8")
    assert "Total Prize Pool: $90.00 USD" in summary and summary.endswith(
        "You finished in 1st place.\n"
    )


def test_simulate_exports_one_player_in_one_format(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    code, _, _ = run(
        "--entrants", "6", "--structure", "sng6", "--seed", "4", "--export", str(out),
        "--player", "p3", "--export-format", "phh", "--tournament-id", "7",
        "--start", "2026-12-24T20:30:00+01:00",
    )  # fmt: skip
    assert code == 0
    assert sorted(p.name for p in (out / "p3").iterdir()) == ["hands.phhs", "summary.txt"]
    assert [p.name for p in out.iterdir()] == ["p3"]
    first = load_text((out / "p3" / "hands.phhs").read_text(encoding="utf-8"))[0].fields
    assert (first["_tournament"], first["hand"], first["level"]) == (7, 1, 1)
    assert str(first["time"]) == "19:30:00" and first["day"] == 24
    summary = (out / "p3" / "summary.txt").read_text(encoding="utf-8")
    assert "PokerStars Tournament #7, No Limit Hold'em" in summary
    assert "Tournament started 2026/12/24 14:30:00 ET" in summary


def test_simulate_export_refuses_bad_input_and_writes_nothing(tmp_path: Path) -> None:
    used = tmp_path / "used"
    used.mkdir()
    (used / "keep.txt").write_text("mine", encoding="utf-8")
    code, _, err = run("--entrants", "9", "--structure", "sng9", "--export", str(used))
    err = " ".join(err.split())  # as the console wrapped it
    assert code == 1 and "not a new or empty directory" in err
    assert [p.name for p in used.iterdir()] == ["keep.txt"]
    fresh = tmp_path / "fresh"
    code, _, err = run(
        "--entrants", "9", "--structure", "sng9", "--export", str(fresh), "--player", "p10"
    )  # fmt: skip
    err = " ".join(err.split())
    assert code == 1 and "--player p10: not in this event (p1 to p9)" in err
    assert not fresh.exists()
    code, _, err = run(
        "--entrants", "9", "--structure", "sng9", "--export", str(fresh), "--start", "noon"
    )
    err = " ".join(err.split())
    assert code == 1 and "'noon' is not an ISO 8601 time" in err and not fresh.exists()
    code, _, err = run(
        "--entrants", "9", "--structure", "sng9", "--export", str(fresh),
        "--start", "2026-12-01T12:00:00",
    )  # fmt: skip
    err = " ".join(err.split())
    assert code == 1 and "needs a time zone" in err and not fresh.exists()
