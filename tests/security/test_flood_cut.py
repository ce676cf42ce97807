"""S-ISOLATE-1, a flood from the players' own address (127.0.0.1), over real sockets: a
connection thrown out for flooding (1008) that never reads, so never answers the close, is
cut at once; the room does not go on parsing what it still sends, for the server's close
timeout, while the players beside it wait. A flooder that reads is told why (1008) every
time. The audit reconciles."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from pokerroom.cli.load_room import stop_room
from pokerroom.server.ops.process import free_port, spawn_room
from pokerroom.server.sockets.client import Client
from pokerroom.store.db import sqlite_url
from tests.helpers.audit import assert_books_balance, audit_database
from tests.helpers.room_tables import table_config
from tests.helpers.sockets import closed_code
from tests.server.conftest import Server, person


async def test_a_flooder_thrown_out_is_cut_not_read_while_its_close_reply_never_comes(
    server: Server,
) -> None:
    await server.room.open_table(table_config("f1"))
    ann, mallory = await person(server.base, "ann"), await person(server.base, "mallory")
    await ann.send(type="watch", table="f1")
    await ann.send(type="join", table="f1", seat=1, buy_in=10_000, request="a1")
    await ann.until(lambda f: f["you"] == 1)
    before = set(server.room.clients)  # mallory's own socket among them
    host, port = server.base.removeprefix("http://").split(":")
    raw = socket.create_connection((host, int(port)))
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # it reads nothing
    ws = await connect(server.base.replace("http", "ws", 1) + "/ws", sock=raw, max_queue=1)
    await ws.send(json.dumps({"type": "hello", "token": mallory.token}))
    flooder: Client | None = None
    async with asyncio.timeout(30):
        while flooder is None or flooder.account_id != mallory.account_id:
            await asyncio.sleep(0.01)
            flooder = next(iter(server.room.clients - before), None)
    options = json.dumps({"type": "options", "table": "f1", "auto_post": True})
    async with asyncio.timeout(30):  # past its rate and its strikes: thrown out
        try:
            while not flooder.closed:
                await ws.send(options)
        except ConnectionClosed:
            pass
    assert flooder.drop_code == 1008, flooder.drop_reason
    async with asyncio.timeout(30):  # its handler is done with it
        while flooder in server.room.clients:
            await asyncio.sleep(0.01)
    assert flooder.socket is not None  # uvicorn's connection, written to directly
    transport = flooder.socket.protocol.transport
    assert transport.get_protocol() is not flooder.socket.protocol  # cut: none of it parsed
    async with asyncio.timeout(30):  # then closed, not read for uvicorn's 10 s more
        while not transport.is_closing():
            await asyncio.sleep(0.05)
    await ann.send(type="options", table="f1", sit_out_next=True)  # the table goes on
    await ann.until(lambda f: f["options"]["sit_out_next"], timeout=30)
    raw.close()
    await assert_books_balance(server)


async def test_a_flooder_that_reads_is_told_why_it_was_thrown_out(tmp_path: Path) -> None:
    """A client thrown out for flooding (1008) that reads once its burst is sent gets the
    close frame, every time: the room stops reading its flood yet lets the close frame reach
    it, rather than resetting the connection over the flood left unread (the reset broke the
    client's next write, and its connection ended with no reason given). The room runs in
    its own process, as in production: sharing the test's event loop, it could not read
    while the flood was being sent."""
    database = sqlite_url(tmp_path / "room.db")
    port = free_port()
    room = await spawn_room(database, port, pause=0.2)
    try:
        base = f"http://127.0.0.1:{port}"
        mallory = await person(base, "mallory")
        act = json.dumps({"type": "act", "table": "nlhe-1-2", "action": "fold", "hand": 1})
        codes = []
        for _ in range(5):
            async with connect(base.replace("http", "ws", 1) + "/ws", max_size=2**20) as ws:
                await ws.send(json.dumps({"type": "hello", "token": mallory.token}))
                with contextlib.suppress(ConnectionClosed):
                    for _ in range(5_000):  # far past its rate and strikes, sent in a blink
                        await ws.send(act)
                codes.append(await closed_code(ws))
        await mallory.ws.close()
    finally:
        stop_room(room)
    assert codes == [1008] * 5
    report = await audit_database(database)
    assert report.ok, report.problems
