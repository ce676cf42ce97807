"""``pokerroom verify HAND.json``: a true reveal is verified and its deck shown; a
tampered one exits non-zero saying what differs."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pokerroom.cards import FULL_DECK
from pokerroom.cli.app import app
from tests.helpers.fairness import CLIENT_SEEDS, KNOWN_DECK, document

RUNNER = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = RUNNER.invoke(app, ["verify", *args])
    return result.exit_code, result.stdout, result.stderr


def test_verify_accepts_a_true_reveal_and_shows_the_deck(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(document()))
    code, out, _ = run(str(path), "--seed", CLIENT_SEEDS[0])
    assert code == 0, out
    assert out.startswith("VERIFIED: table nlhe-1-2 hand 17")
    assert out.count("  ok  ") == 5
    dealt = " ".join(str(FULL_DECK[c]) for c in KNOWN_DECK[:13])
    assert f"   1-13  {dealt}" in out


def test_verify_refuses_a_tampered_file_with_a_clear_message(tmp_path: Path) -> None:
    doc = document()
    doc["deck"][10], doc["deck"][20] = doc["deck"][20], doc["deck"][10]
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(doc))
    code, out, err = run(str(path))
    assert code == 1
    assert out == ""
    assert err.startswith(f"NOT VERIFIED: {path}: the deck is not the one the seeds make: card 11")


def test_verify_refuses_a_missing_or_broken_file(tmp_path: Path) -> None:
    code, _, err = run(str(tmp_path / "none.json"))
    assert code == 1 and "NOT VERIFIED" in err and "No such file" in err
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    code, _, err = run(str(broken))
    assert code == 1 and "NOT VERIFIED" in err
    listed = tmp_path / "list.json"
    listed.write_text("[]")
    code, _, err = run(str(listed))
    assert code == 1 and "not a JSON object" in err
