"""Raw WebSocket connections to a room: its address, and reading until the server closes one."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from tests.server.conftest import Server


def ws_url(server: Server) -> str:
    return server.base.replace("http", "ws", 1) + "/ws"


async def closed_code(
    ws: ClientConnection, timeout: float = 10.0, frames: list[dict[str, Any]] | None = None
) -> int | None:
    """Read (into ``frames``) until the server closes ``ws``; its close code."""
    with contextlib.suppress(ConnectionClosed):
        async with asyncio.timeout(timeout):
            while True:
                frame = json.loads(await ws.recv())
                if frames is not None:
                    frames.append(frame)
    rcvd = ws.protocol.close_rcvd
    return None if rcvd is None else rcvd.code
