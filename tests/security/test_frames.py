"""S-ISOLATE-1 at the socket: a frame bigger than the protocol's limit plus headroom is refused
by the WebSocket layer (close 1009) before it is read into memory, in ``pokerroom serve`` and
in the test server alike; a frame just over 4,096 bytes is still answered with an error."""

from __future__ import annotations

import json
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosedError

from pokerroom.server.ops.process import free_port, spawn_room
from pokerroom.server.sockets.protocol import MAX_FRAME_BYTES, MAX_MESSAGE_BYTES
from pokerroom.store.db import sqlite_url
from tests.helpers.sockets import closed_code
from tests.server.conftest import Server


async def refuses_oversized_frames(ws_url: str) -> None:
    async with connect(ws_url, max_size=2**20) as ws:
        await ws.recv()  # welcome
        over = json.dumps({"type": "chat", "table": "t", "text": "x" * MAX_MESSAGE_BYTES})
        assert MAX_MESSAGE_BYTES < len(over) < MAX_FRAME_BYTES
        await ws.send(over)
        answer = json.loads(await ws.recv())
        assert answer["type"] == "error" and "too long" in answer["message"]
        await ws.send(json.dumps({"type": "ping"}))  # still connected
        assert json.loads(await ws.recv())["type"] == "pong"
        try:
            await ws.send("x" * (1 << 20))  # 1 MiB: past the socket's bound
        except ConnectionClosedError as closed:  # refused while it was still being sent
            assert closed.rcvd is not None and closed.rcvd.code == 1009
            return
        assert await closed_code(ws) == 1009


async def test_S_ISOLATE_1_the_test_server_refuses_a_frame_past_its_bound(server: Server) -> None:
    await refuses_oversized_frames(server.base.replace("http", "ws", 1) + "/ws")


async def test_S_ISOLATE_1_pokerroom_serve_refuses_a_frame_past_its_bound(
    tmp_path: Path,
) -> None:
    port = free_port()
    process = await spawn_room(sqlite_url(tmp_path / "room.db"), port, pause=0.05)
    try:
        await refuses_oversized_frames(f"ws://127.0.0.1:{port}/ws")
    finally:
        process.terminate()
        process.wait(timeout=30)
