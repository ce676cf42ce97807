"""A real server for end-to-end tests: uvicorn on a free loopback port, a SQLite file."""

from __future__ import annotations

import asyncio
import contextlib
import json
import ssl
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from pokerroom.server.app import create_app
from pokerroom.server.ops.process import free_port
from pokerroom.server.sockets.protocol import MAX_FRAME_BYTES, parse_server
from pokerroom.store.db import sqlite_url
from tests.store.conftest import drop_postgres, fresh_postgres

# The bound for a request that hashes a password (argon2: a sign-up, a log-in): on a busy
# machine it waits for the hashing threads, and httpx's default 5 s ran out (ReadTimeout).
PASSWORD_SECONDS = 60.0


@dataclass
class Server:
    base: str
    app: Any
    database: str

    @property
    def room(self) -> Any:
        return self.app.state.room


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    async for running in _serve(sqlite_url(tmp_path / "room.db")):
        yield running


@pytest.fixture
async def postgres_server() -> AsyncIterator[Server]:
    """The same room on a fresh PostgreSQL database (required under CI=true)."""
    name, url = await fresh_postgres()
    try:
        async for running in _serve(url):
            yield running
    finally:
        await drop_postgres(name)


async def _serve(url: str) -> AsyncIterator[Server]:
    app = create_app(url, demo=False, pause=0.05)
    port, uv, task = await start_uvicorn(app)
    yield Server(base=f"http://127.0.0.1:{port}", app=app, database=url)
    uv.should_exit = True
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(task, timeout=10)


async def start_uvicorn(app: Any) -> tuple[int, uvicorn.Server, asyncio.Task[None]]:
    """``app`` served on a free loopback port: the port, the server and its task."""
    port = free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_per_message_deflate=False,
        ws_max_size=MAX_FRAME_BYTES,  # as ``pokerroom serve``
    )
    uv = uvicorn.Server(config)
    task = asyncio.create_task(uv.serve())
    for _ in range(600):  # bounded: the server starts within seconds (30 s) or the test fails
        if uv.started:
            break
        await asyncio.sleep(0.05)
    assert uv.started, "the server did not start"
    return port, uv, task


def checked_frame(raw: str | bytes) -> dict[str, Any]:
    """A frame from the server, checked against its model in server/sockets/protocol.py: every
    field the server sent is one the model has, with the model's type (and nothing lost)."""
    data: dict[str, Any] = json.loads(raw)
    model = parse_server(raw)
    assert model.model_dump(mode="json", by_alias=True, exclude_unset=True) == data, data
    return data


@pytest.fixture(autouse=True)
async def people_closed(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[None]:
    """Every client socket a test opened is closed after it (``closing_opened_sockets``).
    Autouse, so set up first and torn down last: after the test's servers stopped."""
    async for _ in closing_opened_sockets(monkeypatch):
        yield


async def closing_opened_sockets(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[None]:
    """Yields once; then closes every client socket opened meanwhile and left open, waiting
    until each TCP connection is gone (bounded). One left open would be collected once its
    event loop is gone and warn of an unclosed transport in a later test. (A test module
    on a module-wide loop overrides ``people_closed`` to run this on that loop.)"""
    opened: list[ClientConnection] = []
    init = ClientConnection.__init__

    def tracked(self: ClientConnection, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        opened.append(self)

    monkeypatch.setattr(ClientConnection, "__init__", tracked)
    yield
    # Aborted, not closed with a handshake: a person who stopped reading has a full queue,
    # so her connection reads no more, never sees the server's close frame and would wait
    # out the close timeout (10 s) for an answer it cannot read.
    for ws in opened:
        if ws.transport is not None:
            ws.transport.abort()
    async with asyncio.timeout(30):
        await asyncio.gather(*(ws.wait_closed() for ws in opened))


@dataclass
class Person:
    """A person's client: REST session plus one WebSocket, recording every frame received."""

    name: str
    token: str
    account_id: int
    ws: ClientConnection
    frames: list[dict[str, Any]] = field(default_factory=list)

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    async def next(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            while True:
                frame = checked_frame(await self.ws.recv())
                self.frames.append(frame)
                if frame.get("type") == kind:
                    return frame

    async def until(self, predicate: Any, timeout: float = 20.0) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            while True:
                frame = await self.next("table", timeout)
                if predicate(frame):
                    return frame


async def person(
    base: str,
    name: str,
    password: str = "correct horse",
    *,
    origin: str | None = None,
    tls: ssl.SSLContext | None = None,
) -> Person:
    """A new account's client; ``origin``: the Origin header a browser would send; ``tls``:
    how to trust an ``https`` room."""
    async with httpx.AsyncClient(
        base_url=base, timeout=PASSWORD_SECONDS, verify=tls or True
    ) as http:
        response = await http.post("/api/signup", json={"username": name, "password": password})
        response.raise_for_status()
        data = response.json()
    ws = await connect(
        base.replace("http", "ws", 1) + "/ws",
        origin=origin,  # type: ignore[arg-type]
        ssl=tls,
    )
    someone = Person(name=name, token=data["token"], account_id=data["account_id"], ws=ws)
    await someone.next("welcome")
    await someone.send(type="hello", token=someone.token)
    await someone.next("hello")
    return someone
