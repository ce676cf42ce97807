"""S-ISOLATE-1, a flood from the players' own address (127.0.0.1), over real sockets: a
connection thrown out for flooding (1008) that never reads, so never answers the close, is
cut at once; the room does not go on reading and parsing what it still sends, for the
server's close timeout, while the players beside it wait. The audit reconciles."""

from __future__ import annotations

import asyncio
import json
import socket

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from pokerroom.server.sockets.client import Client
from tests.helpers.audit import assert_books_balance
from tests.helpers.room_tables import table_config
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
    assert flooder.socket.protocol.transport.is_closing()  # cut, not read for 10 s more
    await ann.send(type="options", table="f1", sit_out_next=True)  # the table goes on
    await ann.until(lambda f: f["options"]["sit_out_next"], timeout=30)
    raw.close()
    await assert_books_balance(server)
