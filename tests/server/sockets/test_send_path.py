"""A socket's frames go straight to the ASGI server's own ``send`` (six frames an
action, each once through Starlette's WebSocket.send and the exception handler's wrapper
before), and a send that fails still drops only that client (S-ISOLATE-1)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from starlette.websockets import WebSocket

from pokerroom.server.sockets.client import Client
from pokerroom.server.tables.room import TableConfig
from tests.server.conftest import Server, person


async def test_table_frames_bypass_starlettes_websocket_send(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    through_starlette: list[str] = []
    original = WebSocket.send_text

    async def counted(self: WebSocket, data: str) -> None:
        through_starlette.append(data)
        await original(self, data)

    monkeypatch.setattr(WebSocket, "send_text", counted)
    await server.room.open_table(TableConfig("t", "T", "titan", "holdem", "no_limit", 200, 6))
    ann = await person(server.base, "ann")
    await ann.send(type="watch", table="t")
    await ann.send(type="join", table="t", seat=1, buy_in=10_000, request="j1")
    frame = await ann.until(lambda f: f["you"] == 1)
    assert frame["table"] == "t" and frame["seats"][0]["name"] == "ann"
    # welcome, hello and the table frames all arrived, none through Starlette's send
    assert through_starlette == []
    await ann.ws.close()


async def test_a_failing_server_send_drops_only_that_client() -> None:
    sent: list[dict[str, Any]] = []

    async def fine(message: dict[str, Any]) -> None:
        sent.append(message)

    async def broken(message: dict[str, Any]) -> None:
        raise OSError("connection reset")

    async def unused(text: str) -> None:
        raise AssertionError("the server's send is used when the app was given it")

    good = Client(send=unused, asgi_send=fine)
    bad = Client(send=unused, asgi_send=broken)
    writers = [asyncio.create_task(c.write()) for c in (good, bad)]
    for client in (good, bad):
        client.deliver('{"type":"pong"}')
    await asyncio.wait_for(writers[1], timeout=5)  # the broken one's writer ends
    await asyncio.sleep(0)
    assert bad.closed and bad.drop_code == 1011 and "OSError" in bad.drop_reason
    assert not good.closed
    assert sent == [{"type": "websocket.send", "text": '{"type":"pong"}'}]
    writers[0].cancel()
    await asyncio.gather(writers[0], return_exceptions=True)
