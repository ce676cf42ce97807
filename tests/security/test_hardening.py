"""What a room on the internet needs: security headers, no CDN,
the WebSocket's Origin check, connection limits, byte-counted frames, binary and nested
frames closed cleanly, and out-of-range REST parameters refused with a 4xx."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from pokerroom.server.app import WEB, create_app
from pokerroom.server.tables.room import Limits
from pokerroom.store.db import sqlite_url
from tests.helpers.room_tables import table_config
from tests.helpers.sockets import closed_code, ws_url
from tests.server.conftest import Server, person


async def test_every_response_has_the_security_headers(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        for path in ("/", "/api/lobby", "/static/js/main.js", "/api/me", "/no/such/page"):
            response = await http.get(path)
            headers = response.headers
            policy = headers["content-security-policy"]
            script = re.search(r"script-src ([^;]*)", policy)
            assert script is not None and "unsafe-inline" not in script.group(1), path
            assert "frame-ancestors 'none'" in policy
            assert headers["x-frame-options"] == "DENY"
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["referrer-policy"] == "same-origin"


def test_the_page_has_no_inline_script_for_the_policy_to_block() -> None:
    page = (WEB / "index.html").read_text()
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, flags=re.S)
    assert scripts and all("src=" in attrs and not body.strip() for attrs, body in scripts)
    assert not re.search(r"\son[a-z]+\s*=", page)  # no inline event handlers
    assert "javascript:" not in page


async def test_docs_load_nothing_from_a_cdn_they_are_off_unless_asked_for(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        assert (await http.get("/docs")).status_code == 404
        assert (await http.get("/openapi.json")).status_code == 200  # the schema stays


async def test_the_websocket_refuses_other_origins_and_logs_why(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    own = server.base  # http://127.0.0.1:port: the room's own origin (its Host)
    with pytest.raises(InvalidStatus) as refused:
        await connect(ws_url(server), origin="http://evil.example")  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    host = own.removeprefix("http://")  # the log says what Origin would have matched
    why = [r.getMessage() for r in caplog.records if "refused: Origin" in r.getMessage()]
    assert why == [
        f"WebSocket from 127.0.0.1 refused: Origin 'http://evil.example' is neither"
        f" http(s)://{host} (from the Host header) nor in POKERROOM_ORIGINS"
    ]
    for origin in (own, None):  # the room's page, and clients without an Origin (bots)
        ws = await connect(ws_url(server), origin=origin)  # type: ignore[arg-type]
        assert json.loads(await ws.recv())["type"] == "welcome"
        await ws.close()
    server.room.limits = dataclasses.replace(Limits(), origins=("https://poker.example",))
    ws = await connect(ws_url(server), origin="https://poker.example")  # type: ignore[arg-type]
    assert json.loads(await ws.recv())["type"] == "welcome"
    await ws.close()


async def test_connections_per_address_are_limited(server: Server) -> None:
    server.room.limits = dataclasses.replace(Limits(), connections_per_address=3)
    open_ = [await connect(ws_url(server)) for _ in range(3)]
    with pytest.raises(InvalidStatus):
        await connect(ws_url(server))
    await open_.pop().close()
    for _ in range(600):  # bounded (30 s): the server notices the close within moments
        if len(server.room.clients) < 3:
            break
        await asyncio.sleep(0.05)
    again = await connect(ws_url(server))
    assert json.loads(await again.recv())["type"] == "welcome"
    for ws in [*open_, again]:
        await ws.close()


async def test_an_idle_anonymous_connection_is_closed_a_player_or_watcher_is_not(
    server: Server,
) -> None:
    server.room.limits = dataclasses.replace(Limits(), idle_seconds=0.5)
    idle = await connect(ws_url(server))
    assert await closed_code(idle, timeout=10) == 1000
    await server.room.open_table(table_config("h1"))
    watcher = await connect(ws_url(server))
    await watcher.send(json.dumps({"type": "watch", "table": "h1"}))
    player = await person(server.base, "player")  # logged in, watching nothing
    await asyncio.sleep(1.0)
    await player.send(type="ping")
    assert (await player.next("pong"))["type"] == "pong"
    await watcher.send(json.dumps({"type": "ping"}))
    received = [json.loads(await watcher.recv())["type"] for _ in range(3)]
    assert received == ["welcome", "table", "pong"]
    await watcher.close()


async def test_anonymous_watchers_are_capped(server: Server) -> None:
    await server.room.open_table(table_config("h2"))
    server.room.limits = dataclasses.replace(Limits(), anonymous_watchers=2)
    sockets = [await connect(ws_url(server)) for _ in range(3)]
    answers = []
    for ws in sockets:
        await ws.recv()  # welcome
        await ws.send(json.dumps({"type": "watch", "table": "h2"}))
        answers.append(json.loads(await ws.recv()))
    assert [a["type"] for a in answers] == ["table", "table", "error"]
    assert "log in" in answers[2]["message"]
    ann = await person(server.base, "ann")  # logged in: not counted
    await ann.send(type="watch", table="h2")
    assert (await ann.next("table"))["table"] == "h2"
    for ws in sockets:
        await ws.close()


async def test_the_size_limit_counts_bytes_not_characters(server: Server) -> None:
    ann = await person(server.base, "ann")
    text = "é" * 2100  # 2,100 characters, 4,200 bytes
    await ann.ws.send(json.dumps({"type": "chat", "table": "x", "text": text}, ensure_ascii=False))
    error = await ann.next("error")
    assert "too long (4" in error["message"] and "bytes" in error["message"]


@pytest.mark.parametrize(
    ("frame", "code", "says"),
    [
        (b'{"type": "ping"}', 1003, "binary"),
        ("[" * 1500 + "]" * 1500, 1007, "nested"),
        ('{"type": "chat", "table": ' + "[" * 40 + "]" * 40 + "}", 1007, "nested"),
    ],
)
async def test_binary_and_nested_frames_get_an_error_and_a_clean_close(
    server: Server, frame: str | bytes, code: int, says: str
) -> None:
    ann = await person(server.base, "ann")
    await ann.ws.send(frame)
    error = await ann.next("error")
    assert says in error["message"]
    assert await closed_code(ann.ws) == code


async def test_out_of_range_ids_and_limits_get_a_4xx_not_a_500(server: Server) -> None:
    ann = await person(server.base, "ann")
    auth = {"Authorization": f"Bearer {ann.token}"}
    async with httpx.AsyncClient(base_url=server.base, headers=auth) as http:
        for path in (
            "/api/hands/99999999999999999999.phh",
            "/api/hands/99999999999999999999.txt",
            "/api/hands/99999999999999999999/replay",
            "/api/hands?limit=-1",
            "/api/hands?limit=0",
            "/api/sessions/t1.phhs?limit=-1",
        ):
            response = await http.get(path)
            assert 400 <= response.status_code < 500, (path, response.status_code)
        assert (await http.get("/api/hands?limit=5")).status_code == 200


async def test_docs_when_switched_on_are_served_without_the_strict_policy(tmp_path: Path) -> None:
    app = create_app(sqlite_url(tmp_path / "docs.db"), demo=False, docs=True)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://room.test") as http:
        docs = await http.get("/docs")
        home = await http.get("/")
    assert docs.status_code == 200 and "content-security-policy" not in docs.headers
    assert docs.headers["x-frame-options"] == "DENY"
    assert "ws://room.test" in home.headers["content-security-policy"]


def test_limits_are_read_from_the_environment() -> None:
    limits = Limits.from_env(
        {
            "POKERROOM_RATE": "5",
            "POKERROOM_CONNECTIONS_PER_ADDRESS": "7",
            "POKERROOM_ORIGINS": "https://a.example, https://b.example",
        }
    )
    assert limits.rate == 5.0 and limits.connections_per_address == 7
    assert limits.origins == ("https://a.example", "https://b.example")
    assert limits.burst == Limits().burst
