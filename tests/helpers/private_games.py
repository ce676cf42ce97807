"""Private games over real sockets and HTTP (R-PRIV-1): a host's game, players let in with its
code, seated, and what the routes answer each of them."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import socket
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.server.conftest import PASSWORD_SECONDS, Person, Server

SETTINGS: dict[str, Any] = {
    "name": "Friday game",
    "preset": "titan",
    "variant": "holdem",
    "structure": "no_limit",
    "big_blind": 200,
    "seats": 6,
    "decision_seconds": 5,
    "time_bank_seconds": 0,
}
# A sit & go's settings (beside SETTINGS): 3 seats, $10 + $1, 15 big blinds, 1-minute levels.
SIT_AND_GO: dict[str, Any] = {
    "kind": "sit_and_go",
    "big_blind": None,
    "seats": 3,
    "buy_in": 1000,
    "fee": 100,
    "starting_stack": 1500,
    "blinds": "hyper",
    "level_minutes": 1,
}


def api(server: Server, who: Person | None = None) -> httpx.AsyncClient:
    """An HTTP client of the room, logged in as ``who`` (None: nobody)."""
    headers = {} if who is None else {"Authorization": f"Bearer {who.token}"}
    return httpx.AsyncClient(base_url=server.base, headers=headers, timeout=PASSWORD_SECONDS)


async def hosted(server: Server, host: Person, **changes: Any) -> dict[str, Any]:
    """A new private game of ``host``'s (the game as its host sees it)."""
    async with api(server, host) as http:
        response = await http.post("/api/private-games", json={**SETTINGS, **changes})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


async def call(
    server: Server, who: Person | None, method: str, path: str, body: Any = None
) -> httpx.Response:
    """``who``'s request to a private game's route (``path`` after /api/private-games)."""
    async with api(server, who) as http:
        return await http.request(method, f"/api/private-games{path}", json=body)


async def host_act(
    server: Server, host: Person, game: dict[str, Any], act: str, body: Any = None
) -> dict[str, Any]:
    """A host's act that succeeds: the game after it."""
    response = await call(server, host, "POST", f"/{game['id']}/{act}", body)
    assert response.status_code == 200, response.text
    after: dict[str, Any] = response.json()
    return after


async def let_in(server: Server, host: Person, game: dict[str, Any], *people: Person) -> None:
    """Each of ``people`` asks with the game's code and the host approves them."""
    for someone in people:
        asked = await call(server, someone, "POST", "/ask", {"code": game["code"]})
        assert asked.status_code == 200 and asked.json()["you"] == "pending", asked.text
        await host_act(server, host, game, f"requests/{someone.account_id}/approve")


async def seated(someone: Person, table: str, seat: int, buy_in: int = 10_000) -> None:
    """``someone`` watches ``table`` and sits at ``seat`` with ``buy_in``; back once a frame
    shows them seated."""
    await someone.send(type="watch", table=table)
    await someone.send(type="join", table=table, seat=seat, buy_in=buy_in, request=f"s{seat}")
    await someone.until(lambda f: f.get("you") == seat)


async def refused(someone: Person, table: str, **message: Any) -> dict[str, Any]:
    """Send ``message`` to ``table``; the error frame it gets (the test fails on a time-out
    if none comes)."""
    await someone.send(table=table, **message)
    while True:  # bounded by ``next``'s own time-out
        frame = await someone.next("error")
        if frame.get("request") == message["type"]:
            return frame


async def ledger(server: Server, who: Person, game: dict[str, Any]) -> dict[str, Any]:
    response = await call(server, who, "GET", f"/{game['id']}/ledger")
    assert response.status_code == 200, response.text
    book: dict[str, Any] = response.json()
    return book


async def balance(server: Server, who: Person) -> int:
    async with api(server, who) as http:
        return int((await http.get("/api/me")).json()["balance"])


async def hands_of(server: Server, who: Person, game: dict[str, Any], at_least: int) -> list[Any]:
    """The game's hands as ``who`` reads them, once ``at_least`` are stored (bounded: 30 s)."""
    for _ in range(600):
        response = await call(server, who, "GET", f"/{game['id']}/hands")
        assert response.status_code == 200, response.text
        hands: list[Any] = response.json()["hands"]
        if len(hands) >= at_least:
            return hands
        await asyncio.sleep(0.05)
    raise AssertionError(f"fewer than {at_least} hands stored: {hands}")


async def sent_and_dropped(server: Server, who: Person, method: str, path: str, body: Any) -> None:
    """``who``'s request to a private game's route, written whole on a connection that is
    closed at once: the client never reads the answer (a host whose browser goes right after
    clicking). Closed, not reset: a reset that overtook the request on its way could have the
    kernel drop it unread, and then nothing was asked."""
    host, port = server.base.removeprefix("http://").split(":")
    data = json.dumps(body).encode()
    head = (
        f"{method} /api/private-games{path} HTTP/1.1\r\nHost: {host}\r\n"
        f"Authorization: Bearer {who.token}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n"
    )
    _, writer = await asyncio.open_connection(host, int(port))
    writer.write(head.encode() + data)
    await writer.drain()
    writer.close()  # no answer read: the room's answer meets a closed socket


async def never_reader(server: Server, who: Person) -> ClientConnection:
    """``who``'s second connection, logged in, that will never read: a tiny receive buffer,
    a short queue on the server and (for this connection only) no rate limit."""
    room = server.room
    limits = room.limits
    room.limits = dataclasses.replace(limits, outbox_frames=16, rate=1e9, burst=10**9)
    try:
        raw = socket.create_connection(("127.0.0.1", int(server.base.rsplit(":", 1)[1])))
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        ws = await connect(server.base.replace("http", "ws", 1) + "/ws", sock=raw, max_queue=1)
    finally:
        room.limits = limits
    await ws.send(json.dumps({"type": "hello", "token": who.token}))
    return ws


async def never_read(ws: ClientConnection, table: str) -> None:
    """Ask for the table's whole state again and again, reading nothing."""
    frame = json.dumps({"type": "watch", "table": table})
    with contextlib.suppress(ConnectionClosed):
        for _ in range(20_000):
            await ws.send(frame)
