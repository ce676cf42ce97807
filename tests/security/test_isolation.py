"""S-ISOLATE-1 and S-AUTH-2 attacked over real sockets: a client that watches and hangs up,
never reads, or floods hurts only its own connection; a fault in the table's own logic is logged
and counted; log-out and suspension close sockets."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import random
import socket
import time
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from pokerroom.bots.client import run_bot
from pokerroom.bots.strategy import RuleBot
from pokerroom.server.tables.actor import CLIENT_WAITING
from pokerroom.server.tables.room import TableConfig
from tests.helpers.accounts import operator_headers
from tests.helpers.attacks import CLOCK, heads_up, play, report
from tests.helpers.audit import assert_books_balance
from tests.helpers.database import cancelled_hands
from tests.helpers.sockets import closed_code, ws_url
from tests.server.conftest import Person, Server, person


async def watch_and_close(server: Server, table: str, times: int) -> None:
    """Anonymous sockets that watch ``table`` and hang up at once."""
    for _ in range(times):
        ws = await connect(ws_url(server))
        await ws.send(json.dumps({"type": "watch", "table": table}))
        await ws.close()
        await asyncio.sleep(0.02)


async def never_reader(server: Server) -> ClientConnection:
    """A client that never reads: a tiny receive buffer, a short queue on the server and (for
    this connection only) no rate limit, so it can ask for thousands of frames."""
    limits = server.room.limits
    server.room.limits = dataclasses.replace(limits, outbox_frames=16, rate=1e9, burst=10**9)
    try:
        raw = socket.create_connection(("127.0.0.1", int(server.base.rsplit(":", 1)[1])))
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        return await connect(ws_url(server), sock=raw, max_queue=1)
    finally:
        server.room.limits = limits


async def never_read(ws: ClientConnection, table: str) -> None:
    frame = json.dumps({"type": "watch", "table": table})
    with contextlib.suppress(ConnectionClosed):
        for _ in range(20_000):
            await ws.send(frame)


async def flood(someone: Person, table: str) -> int | None:
    """10,000 messages as fast as the socket takes them; the close code the server sent."""
    frame = json.dumps({"type": "act", "table": table, "action": "fold", "hand": 1})
    with contextlib.suppress(ConnectionClosed):
        for _ in range(10_000):
            await someone.ws.send(frame)
    return await closed_code(someone.ws, frames=someone.frames)


async def test_S_ISOLATE_1_anonymous_watch_and_close_never_cancels_a_hand(server: Server) -> None:
    ann, bob = await heads_up(server, "iso1")
    waits: list[float] = []
    honest = asyncio.gather(play(ann, "iso1", 6, waits), play(bob, "iso1", 6, waits))
    await asyncio.gather(honest, watch_and_close(server, "iso1", 40))
    assert await cancelled_hands(server) == 0
    assert server.room.actors["iso1"].faults == 0
    assert all(not c.closed for c in server.room.actors["iso1"].watchers)
    await assert_books_balance(server)


async def test_S_ISOLATE_1_a_flooder_and_a_client_that_never_reads_hurt_only_themselves(
    server: Server,
) -> None:
    room = server.room
    limits = room.limits
    ann, bob = await heads_up(server, "iso2")
    actor = room.actors["iso2"]
    mallory = await person(server.base, "mallory")
    await mallory.send(type="watch", table="iso2")
    sleeper = await never_reader(server)
    biggest = {"inbox": 0, "outbox": 0}
    stop = asyncio.Event()

    async def watch_bounds() -> None:
        while not stop.is_set():
            biggest["inbox"] = max(biggest["inbox"], actor.queued)
            for client in list(room.clients):
                biggest["outbox"] = max(biggest["outbox"], client.outbox.qsize())
            await asyncio.sleep(0.005)

    started = time.monotonic()
    monitor = asyncio.create_task(watch_bounds())
    waits: list[float] = []
    results = await asyncio.gather(
        play(ann, "iso2", 8, waits),
        play(bob, "iso2", 8, waits),
        never_read(sleeper, "iso2"),
        flood(mallory, "iso2"),
    )
    stop.set()
    await monitor
    print(f"played in {time.monotonic() - started:.1f} s")
    assert results[3] == 1008  # persistent flooding closed the flooder's connection
    refused = [f for f in mallory.frames if f.get("type") == "error"]
    assert any("slow down" in f["message"] for f in refused)
    # The client that never read was dropped, not waited for; the table went on.
    for _ in range(600):  # bounded (30 s): the drop is noticed within moments
        if len(room.clients) == 2:
            break
        await asyncio.sleep(0.05)
    assert len(room.clients) == 2  # only ann and bob are still connected
    assert biggest["outbox"] <= limits.outbox_frames
    assert biggest["inbox"] <= CLIENT_WAITING * 3 <= limits.inbox_messages
    assert await cancelled_hands(server) == 0 and actor.faults == 0
    assert len(waits) >= 8
    report(waits)
    sleeper.transport.abort()
    await assert_books_balance(server)


async def test_a_fault_in_the_tables_logic_is_logged_counted_and_cancels_the_hand(
    server: Server, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob = await heads_up(server, "iso3")
    frame = await ann.until(lambda f: f.get("hand") is not None and f["hand"]["actor"] is not None)
    number = frame["hand"]["number"]
    actor = server.room.actors["iso3"]

    async def broken(*_: Any) -> None:  # the table's class is compiled: break the actor's step
        raise RuntimeError("a bug in the table")

    monkeypatch.setattr(actor, "_act", broken)
    to_act = ann if frame["hand"]["actor"] == 1 else bob
    with caplog.at_level(logging.ERROR, logger="pokerroom.table"):
        await to_act.send(type="act", table="iso3", action="fold", hand=number)
        result = await to_act.next("hand_result")
    assert result["hand"] == number and result["cancelled"]  # R-DECK-5: every chip goes back
    faults = [r for r in caplog.records if r.name == "pokerroom.table"]
    assert len(faults) == 1
    assert "iso3" in faults[0].getMessage() and f"hand {number}" in faults[0].getMessage()
    assert faults[0].exc_info is not None and "a bug in the table" in caplog.text
    floor = await operator_headers(server)
    async with httpx.AsyncClient(base_url=server.base, headers=floor) as http:
        tables = (await http.get("/api/floor/tables")).json()
    assert [t["faults"] for t in tables if t["id"] == "iso3"] == [1]
    monkeypatch.undo()
    await assert_books_balance(server)


async def test_S_AUTH_2_log_out_closes_the_sockets_of_that_session(server: Server) -> None:
    ann, bob = await heads_up(server, "iso4")
    await ann.until(lambda f: f.get("you") == 1)
    async with httpx.AsyncClient(base_url=server.base) as http:
        out = await http.post("/api/logout", headers={"Authorization": f"Bearer {ann.token}"})
    assert out.status_code == 204
    assert await closed_code(ann.ws) == 1008  # at once, not when it next sends something
    assert bob.ws.protocol.close_rcvd is None  # another session is not touched
    await bob.send(type="chat", table="iso4", text="still here")
    assert (await bob.next("chat"))["text"] == "still here"
    await assert_books_balance(server)


async def test_S_AUTH_2_suspension_closes_sockets_sits_out_and_cashes_out(server: Server) -> None:
    ann, bob = await heads_up(server, "iso5")
    await bob.until(lambda f: f.get("hand") is not None and f.get("you") == 2)
    floor = await operator_headers(server)
    async with httpx.AsyncClient(base_url=server.base, headers=floor) as http:
        done = await http.post(
            f"/api/floor/accounts/{bob.account_id}/suspend", json={"reason": "collusion"}
        )
    assert done.status_code == 200
    assert await closed_code(bob.ws) == 1008
    # The floor's rule: bob is sat out and cashed out once the hand in progress is over.
    table = server.room.actors["iso5"].table
    for _ in range(600):  # bounded: the hand in progress ends by the clock at the latest
        if table.seat_number(str(bob.account_id)) is None:
            break
        await asyncio.sleep(0.05)
    assert table.seat_number(str(bob.account_id)) is None
    assert table.seat_number(str(ann.account_id)) == 1
    ws = await connect(ws_url(server))
    await ws.send(json.dumps({"type": "hello", "token": bob.token}))
    answers = [json.loads(await ws.recv()) for _ in range(2)]
    assert answers[1]["type"] == "error" and answers[1]["request"] == "hello"
    await ws.close()
    await assert_books_balance(server)


@pytest.mark.slow
async def test_S_ISOLATE_1_soak_bots_play_while_every_attack_runs(server: Server) -> None:
    """The soak: people and bots play while a client floods, one never reads and
    anonymous sockets watch and hang up; no hand is cancelled and the books balance."""
    await server.room.open_table(
        TableConfig("soak", "soak", "titan", "holdem", "no_limit", 200, 6, CLOCK)
    )
    ann, bob = await person(server.base, "ann"), await person(server.base, "bob")
    for someone, seat in ((ann, 1), (bob, 4)):
        await someone.send(type="watch", table="soak")
        await someone.send(type="join", table="soak", seat=seat, buy_in=10_000, request="r1")
    bots = [
        run_bot(server.base, f"robot{k}", RuleBot(random.Random(k)), table="soak", hands=40)
        for k in range(2)
    ]
    mallory = await person(server.base, "mallory")
    await mallory.send(type="watch", table="soak")
    sleeper = await never_reader(server)
    waits: list[float] = []
    results = await asyncio.gather(
        play(ann, "soak", 40, waits, cautious=True),  # the bots would bust calling stations
        play(bob, "soak", 40, waits, cautious=True),
        *bots,
        watch_and_close(server, "soak", 200),
        never_read(sleeper, "soak"),
        flood(mallory, "soak"),
    )
    assert results[-1] == 1008
    assert await cancelled_hands(server) == 0
    assert server.room.actors["soak"].faults == 0
    report(waits)
    sleeper.transport.abort()
    await assert_books_balance(server)
