"""People and their accounts over HTTP and the socket: sign-up, logging in again, the operator's
credentials."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import httpx
from typer.testing import CliRunner
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from pokerroom.cli import app as cli
from tests.helpers.waiting import WAIT
from tests.server.conftest import PASSWORD_SECONDS, Person, Server


async def operator_headers(server: Server) -> dict[str, str]:
    async with httpx.AsyncClient(base_url=server.base, timeout=PASSWORD_SECONDS) as http:
        await http.post("/api/signup", json={"username": "floor", "password": "floor manager"})
    result = await asyncio.to_thread(
        CliRunner().invoke, cli, ["operator", "floor", "--database", server.database]
    )
    assert result.exit_code == 0, (result.output, repr(result.exception))
    async with httpx.AsyncClient(base_url=server.base, timeout=PASSWORD_SECONDS) as http:
        token = (
            await http.post("/api/login", json={"username": "floor", "password": "floor manager"})
        ).json()["token"]
    return {"Authorization": f"Bearer {token}"}


async def reload_page(server: Server, who: Person, table: str) -> Person:
    """What the browser does after a reload: a new socket, hello, then watch (no join)."""
    async with httpx.AsyncClient(base_url=server.base, timeout=PASSWORD_SECONDS) as http:
        login = await http.post(
            "/api/login", json={"username": who.name, "password": "correct horse"}
        )
    token = login.json()["token"]
    ws = await connect(server.base.replace("http", "ws", 1) + "/ws")
    again = Person(name=who.name, token=token, account_id=who.account_id, ws=ws)
    await again.next("welcome")
    await again.send(type="hello", token=token)
    await again.next("hello")
    await again.send(type="watch", table=table)
    return again


async def closed_with(someone: Person) -> int | None:
    """Read until the node closes the socket; its close code."""
    with contextlib.suppress(ConnectionClosed):
        async with asyncio.timeout(WAIT):
            while True:
                await someone.ws.recv()
    return someone.ws.close_code


async def person_again(base: str, someone: Person) -> Person:
    from websockets.asyncio.client import connect

    ws = await connect(base.replace("http", "ws", 1) + "/ws")
    again = Person(name=someone.name, token=someone.token, account_id=someone.account_id, ws=ws)
    await again.next("welcome")
    await again.send(type="hello", token=someone.token)
    await again.next("hello")
    return again


async def signup(base: str, name: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=PASSWORD_SECONDS) as http:
        response = await http.post("/api/signup", json={"username": name, "password": "pw-" * 4})
        response.raise_for_status()
        data: dict[str, Any] = response.json()
        return data
