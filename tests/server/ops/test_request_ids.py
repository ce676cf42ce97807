"""Request and connection ids in the JSON logs (server/ops/request_ids.py): every HTTP request
gets an id (a sane X-Request-ID taken, anything else replaced), returned in the response
and on each line logged while it is handled; each WebSocket connection gets one on its
lines; a table opened by a request logs its hands under no request's id."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from pokerroom.server.app import create_app
from pokerroom.server.ops.logs import JsonFormatter
from pokerroom.store.db import sqlite_url
from tests.helpers.accounts import operator_headers
from tests.helpers.waiting import eventually
from tests.server.conftest import Server, person

GENERATED = re.compile(r"[0-9a-f]{16}")
said = logging.getLogger("pokerroom.server.said")


def json_lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    formatter = JsonFormatter("node-a")
    return [json.loads(formatter.format(r)) for r in caplog.records]


async def test_each_request_gets_an_id_returned_and_on_the_lines_logged_while_handling_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="pokerroom")
    app = create_app(sqlite_url(tmp_path / "ids.db"), demo=False)

    @app.get("/said")
    async def say(n: int) -> dict[str, int]:
        said.info("handling request %s", n)
        return {}

    sent = {
        1: "lb-7f3a_9.2:x=+",  # sane: kept
        2: "two words",  # spaces
        3: "x" * 129,  # too long
        4: 'a"b\n{"level":"error"}',  # a forged line
        5: "",  # empty
        6: None,  # none sent
        7: None,
    }
    returned: dict[int, str] = {}
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://room") as http:
        for n, incoming in sent.items():
            headers = {} if incoming is None else {"X-Request-ID": incoming}
            answer = await http.get("/said", params={"n": n}, headers=headers)
            assert answer.status_code == 200
            returned[n] = answer.headers["x-request-id"]
    said.info("between requests")
    assert returned[1] == sent[1]
    for n in range(2, 8):
        assert GENERATED.fullmatch(returned[n]), returned[n]
    assert len(set(returned.values())) == len(returned)  # a new one each time
    lines = {x["message"]: x for x in json_lines(caplog) if x["logger"] == said.name}
    for n, chosen in returned.items():
        assert lines[f"handling request {n}"]["request"] == chosen
    assert "request" not in lines["between requests"]


async def test_connections_have_ids_on_their_lines_and_a_table_a_request_opened_has_none(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="pokerroom")
    floor = await operator_headers(server)
    async with httpx.AsyncClient(base_url=server.base) as http:
        opened = await http.post(
            "/api/floor/tables",
            json={"id": "traced", "name": "traced", "seats": 2},
            headers={**floor, "X-Request-ID": "floor-open-1"},
        )
    assert opened.status_code == 200 and opened.headers["x-request-id"] == "floor-open-1"
    with pytest.raises(InvalidStatus):  # refused for its Origin (403), under the id it sent
        await connect(
            server.base.replace("http", "ws", 1) + "/ws",
            origin="https://elsewhere.example",  # type: ignore[arg-type]
            additional_headers={"X-Request-ID": "edge-42"},
        )
    ann, bob = await person(server.base, "ann"), await person(server.base, "bob")
    for someone, seat in ((ann, 1), (bob, 2)):
        await someone.send(type="watch", table="traced")
        await someone.send(type="join", table="traced", seat=seat, buy_in=10_000, request="r1")

    def hand_started() -> list[dict[str, Any]]:
        return [
            x
            for x in json_lines(caplog)
            if x.get("table") == "traced" and "started" in x["message"]
        ]

    await eventually(hand_started, "a hand is dealt at the table the floor opened")
    lines = json_lines(caplog)
    (act,) = [x for x in lines if "floor act open_table" in x["message"]]
    assert act["request"] == "floor-open-1" and "connection" not in act
    (refused,) = [x for x in lines if "refused: Origin" in x["message"]]
    assert refused["connection"] == "edge-42" and "request" not in refused
    hello = {x["account"]: x for x in lines if "is account" in x["message"]}
    ids = {hello[p.account_id]["connection"] for p in (ann, bob)}
    assert len(ids) == 2 and all(GENERATED.fullmatch(i) for i in ids)
    for line in hand_started():  # the table's own task: no request's, no connection's
        assert "request" not in line and "connection" not in line, line
