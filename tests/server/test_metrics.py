"""Observability (issue 15): Prometheus metrics at /metrics move when a hand is played, and
the room's log lines are JSON naming the node, the table and the hand."""

from __future__ import annotations

import json
import logging

import httpx
from prometheus_client.parser import text_string_to_metric_families

from pokerroom.server.logs import JsonFormatter
from tests.server.conftest import Server
from tests.server.test_hand_end import cancelled_result
from tests.server.test_late_clock import first_turn, heads_up

CLOCK = (("decision_seconds", 30), ("time_bank_seconds", 0))


async def scrape(server: Server) -> dict[str, float]:
    """Every sample /metrics serves, by name (and labels, where it has some)."""
    async with httpx.AsyncClient(base_url=server.base) as http:
        response = await http.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    samples: dict[str, float] = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()) if k != "le")
            le = sample.labels.get("le")
            key = sample.name + (f"{{{labels}}}" if labels else "") + (f"[{le}]" if le else "")
            samples[key] = sample.value
    return samples


async def test_metrics_serve_the_rooms_series_and_they_move_when_a_hand_is_played(
    server: Server,
) -> None:
    before = await scrape(server)
    for series in (
        "pokerroom_tables",
        "pokerroom_players_seated",
        "pokerroom_hands_total",
        "pokerroom_action_seconds_count",
        "pokerroom_write_batch_units_count",
        "pokerroom_commit_seconds_count",
        "pokerroom_write_batches_failed_total",
        f"pokerroom_node{{node={server.room.node}}}",
    ):
        assert series in before, series
    assert before["pokerroom_tables"] == 0 and before["pokerroom_players_seated"] == 0
    ann, bob = await heads_up(server, "m1", CLOCK)
    to_act, frame, _ = await first_turn(ann, bob)
    number = frame["hand"]["number"]
    await to_act.send(type="act", table="m1", action="fold", hand=number)
    result = await cancelled_result(to_act, number)  # the hand's result: stored by now
    assert not result["cancelled"]
    after = await scrape(server)
    assert after["pokerroom_tables"] == 1 and after["pokerroom_players_seated"] == 2
    assert after["pokerroom_hands_total"] >= before["pokerroom_hands_total"] + 1
    assert after["pokerroom_action_seconds_count"] >= 1  # the fold, from inbox to frame
    assert after["pokerroom_action_seconds_sum"] > 0
    # The hand's start and end went through the writer: batches and commits were timed.
    assert after["pokerroom_write_batch_units_count"] >= 2
    assert after["pokerroom_write_batch_units_sum"] >= after["pokerroom_write_batch_units_count"]
    assert after["pokerroom_commit_seconds_count"] >= 2
    assert after["pokerroom_write_batches_failed_total"] == 0


def test_log_lines_are_json_with_the_node_table_and_hand() -> None:
    formatter = JsonFormatter("node-a")
    record = logging.LogRecord(
        "pokerroom.table", logging.ERROR, __file__, 1, "table %s: fault", ("t1",), None
    )
    record.table, record.hand = "t1", 12
    line = json.loads(formatter.format(record))
    assert line["node"] == "node-a" and line["table"] == "t1" and line["hand"] == 12
    assert line["message"] == "table t1: fault" and line["level"] == "error"
    plain = logging.LogRecord("pokerroom", logging.INFO, __file__, 1, "started", (), None)
    assert "table" not in json.loads(formatter.format(plain))  # only what the call named
