"""Observability: Prometheus metrics at /metrics move when a hand is played, and
the room's log lines are JSON naming the node, the table and the hand."""

from __future__ import annotations

import json
import logging
from importlib.metadata import version
from pathlib import Path
from typing import Any

import httpx
import pytest

from pokerroom.server.app import create_app
from pokerroom.server.ops.logs import JsonFormatter
from pokerroom.server.ops.metrics import MetricsAccess
from pokerroom.store.db import sqlite_url
from tests.helpers.metrics import scrape
from tests.helpers.room_tables import cancelled_result, first_turn, heads_up
from tests.server.conftest import Server

CLOCK = (("decision_seconds", 30), ("time_bank_seconds", 0))


async def test_metrics_serve_the_rooms_series_and_they_move_when_a_hand_is_played(
    server: Server,
) -> None:
    before = await scrape(server)
    for series in (
        "pokerroom_tables",
        "pokerroom_players_seated",
        "pokerroom_hands_total{outcome=complete}",
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
    done = "pokerroom_hands_total{outcome=complete}"
    assert after[done] >= before[done] + 1
    assert after["pokerroom_action_seconds_count"] >= 1  # the fold, from inbox to frame
    assert after["pokerroom_action_seconds_sum"] > 0
    # The hand's start and end went through the writer: batches and commits were timed.
    assert after["pokerroom_write_batch_units_count"] >= 2
    assert after["pokerroom_write_batch_units_sum"] >= after["pokerroom_write_batch_units_count"]
    assert after["pokerroom_commit_seconds_count"] >= 2
    assert after["pokerroom_write_batches_failed_total"] == 0


async def test_a_hand_is_traced_in_the_json_logs_and_counted_in_the_metrics(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    """ "I lost chips at 08:12" answered from the logs: each connection's account and
    address, the hand's start with its seated accounts, its end with the chips each won or
    lost; and the metrics an operator alerts on."""
    caplog.set_level(logging.INFO, logger="pokerroom")
    ann, bob = await heads_up(server, "traced", CLOCK)
    to_act, frame, _ = await first_turn(ann, bob)
    number = frame["hand"]["number"]
    await to_act.send(type="act", table="traced", action="fold", hand=number)
    assert not (await cancelled_result(to_act, number))["cancelled"]
    formatter = JsonFormatter("node-a")
    lines = [json.loads(formatter.format(r)) for r in caplog.records]
    accounts = sorted([ann.account_id, bob.account_id])
    hello = [x for x in lines if x.get("account") in accounts and "is account" in x["message"]]
    assert {(x["account"], x["address"]) for x in hello} == {(a, "127.0.0.1") for a in accounts}
    about = [x for x in lines if x.get("table") == "traced" and x.get("hand") == number]
    started = [x for x in about if "started" in x["message"]]
    ended = [x for x in about if "ended" in x["message"]]
    assert len(started) == len(ended) == 1, about
    assert sorted(started[0]["accounts"]) == sorted(ended[0]["accounts"]) == accounts
    assert started[0]["hand_id"] == ended[0]["hand_id"] and ended[0]["cancelled"] is False
    chips = {int(k): v for k, v in ended[0]["chips"].items()}
    assert sorted(chips) == accounts and sum(chips.values()) <= 0  # (the rake, if any)
    assert chips[to_act.account_id] < 0  # the one who folded lost the blind
    metrics = await scrape(server)
    assert metrics["pokerroom_hands_total{outcome=complete}"] == 1
    assert metrics["pokerroom_hands_total{outcome=cancelled}"] == 0
    assert metrics["pokerroom_table_faults_total"] == 0
    assert metrics["pokerroom_websockets_open"] == 2
    assert metrics["pokerroom_http_responses_total{status=101}"] == 2  # ann's and bob's
    assert metrics["pokerroom_http_responses_total{status=200}"] >= 2  # their sign-ups
    assert metrics["process_cpu_seconds_total"] > 0
    assert metrics["process_resident_memory_bytes"] > 0
    assert metrics[f"pokerroom_build_info{{version={version('pokerroom')}}}"] == 1


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


TOKEN = "a-token-for-the-scraper-0123456789"


async def read_metrics(
    app: Any, address: str, headers: dict[str, str] | None = None
) -> httpx.Response:
    """GET /metrics as if from ``address`` (the ASGI client's address, as uvicorn gives it)."""
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://room") as http:
        return await http.get("/metrics", headers=headers or {})


async def test_metrics_are_read_only_from_loopback_the_named_networks_or_with_the_token(
    tmp_path: Path,
) -> None:
    access = MetricsAccess.from_env(
        {"POKERROOM_METRICS_FROM": "10.1.2.0/24", "POKERROOM_METRICS_TOKEN": TOKEN}
    )
    app = create_app(sqlite_url(tmp_path / "m.db"), demo=False, metrics_access=access)
    for address in ("127.0.0.1", "::1", "10.1.2.77"):
        response = await read_metrics(app, address)
        assert response.status_code == 200, address
        assert "pokerroom_hands_total" in response.text
    for address in ("203.0.113.9", "10.1.3.1", "2001:db8::1"):
        refused = await read_metrics(app, address)
        assert refused.status_code == 403, address
        assert "pokerroom" not in refused.text.replace("room's operators", "")
        assert refused.json()["detail"] == "metrics are for the room's operators"
        assert refused.json()["code"] == "metrics.operators_only"
    outside = "203.0.113.9"
    assert (await read_metrics(app, outside, {"Authorization": f"Bearer {TOKEN}"})).is_success
    wrong = await read_metrics(app, outside, {"Authorization": f"Bearer {TOKEN}x"})
    assert wrong.status_code == 403
    assert (await read_metrics(app, outside, {"Authorization": TOKEN})).status_code == 403


def test_by_default_only_loopback_reads_the_metrics() -> None:
    access = MetricsAccess.from_env({})
    assert access.allows("127.0.0.1", None) and access.allows("::ffff:127.0.0.1", None)
    assert not access.allows("192.168.1.10", None)
    assert not access.allows("192.168.1.10", "Bearer anything-at-all-here")  # no token set
    assert not access.allows(None, None) and not access.allows("testclient", None)


def test_a_malformed_metrics_setting_is_an_error_at_start_not_an_open_door() -> None:
    with pytest.raises(ValueError, match="POKERROOM_METRICS_FROM"):
        MetricsAccess.from_env({"POKERROOM_METRICS_FROM": "10.0.0.0/33"})
    with pytest.raises(ValueError, match="POKERROOM_METRICS_TOKEN"):
        MetricsAccess.from_env({"POKERROOM_METRICS_TOKEN": "short"})
