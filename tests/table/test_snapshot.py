"""The table's JSON lives in ``table.snapshot``; the hand in progress is stored as
its ``HandSetup`` and log and restored with ``Hand.replay``; snapshots already stored load."""

from __future__ import annotations

import json
from pathlib import Path

import orjson

from pokerroom.engine import Action, ActionKind
from pokerroom.table import Table
from pokerroom.table.clock import TurnClock
from pokerroom.table.snapshot import VERSION, json_text
from tests.helpers.tables import BB, finish_hand, make_table

OLD = Path(__file__).parent / "data" / "snapshot_v1.json"


def test_S_RESTORE_snapshot_written_before_versions_still_loads_and_plays_on() -> None:
    """A mid-hand snapshot as ``main`` wrote it before snapshots had a version (no version; the
    cancel record inside the setup; a new player's live post): restored, it is the same hand."""
    data = json.loads(OLD.read_text())
    expected = data["expected"]
    assert "version" not in data["snapshot"] and "before" in data["snapshot"]["hand"]["setup"]
    table = Table.from_json(json.dumps(data["snapshot"]))
    hand = table.hand
    assert hand is not None and not hand.is_over
    assert table.actor_seat() == expected["actor_seat"]
    assert hand.pot == expected["pot"] and hand.stacks == expected["stacks"]
    assert table.chips_on_table() == expected["chips"]
    assert table.hand_before == data["snapshot"]["hand"]["setup"]["before"]
    finish_hand(table, 13.0)
    assert {str(n): s.stack for n, s in table.seats.items()} == expected["final"]


def test_snapshot_stores_the_hands_setup_and_log_and_restores_them() -> None:
    table = make_table(players={1: 100 * BB, 2: 100 * BB, 3: 100 * BB}, seed=4)
    table.start_hand(0.0)
    table.act("p1", Action(ActionKind.BET_OR_RAISE, 3 * BB), 1.0)
    data = json.loads(table.to_json())
    assert data["version"] == VERSION == 2
    assert data["hand"]["log"] == [[table.hand_seats.index(1), "bet_or_raise", 3 * BB]]
    assert data["hand"]["setup"]["deck"] == list(table.hand.setup.deck)  # type: ignore[union-attr]
    restored = Table.from_json(table.to_json())
    assert restored.hand is not None and table.hand is not None
    assert restored.hand.setup == table.hand.setup and restored.hand.log == table.hand.log
    assert restored.hand.events == table.hand.events
    assert restored.to_json() == table.to_json()


def test_R_TIME_turn_clock_is_its_own_object_and_survives_a_restore() -> None:
    table = make_table(players={1: 100 * BB, 2: 100 * BB}, seed=2)
    table.start_hand(100.0)
    assert isinstance(table.clock, TurnClock)
    assert table.deadline == table.clock.deadline is not None
    table.disconnect("p2", 101.0)
    before = table.clock.deadline
    table.reconnect(table.seats[table.actor_seat() or 0].player, 102.0)
    restored = Table.from_json(table.to_json())
    assert restored.clock.to_json() == table.clock.to_json()
    assert restored.deadline is not None and before is not None and restored.deadline >= before


def test_a_snapshot_is_orjsons_text_and_reads_back_as_json_dumps_text() -> None:
    """A table's snapshot (and a hand's record, ``history.record``) is written at
    every hand on the tables' loop, by orjson, not stdlib json: compact, a name not in ASCII
    kept as UTF-8. What it holds is what ``json.dumps`` wrote (read back, equal), and a
    value orjson refuses (a key that is not a string, an integer past 64 bits) is still
    written, by ``json.dumps``."""
    table = make_table(players={1: 100 * BB, 2: 100 * BB, 3: 100 * BB}, seed=4)
    table.name = "Café ♠"
    table.start_hand(0.5)
    table.act("p1", Action(ActionKind.BET_OR_RAISE, 3 * BB), 1.25)
    text = table.to_json()
    data = json.loads(text)
    assert text == orjson.dumps(data).decode() and "Café ♠" in text
    assert json.loads(json.dumps(data)) == data
    assert Table.from_json(text).to_json() == text
    refused = {1: "one", "big": 2**70}
    assert json.loads(json_text(refused)) == json.loads(json.dumps(refused))
