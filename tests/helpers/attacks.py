"""Honest play beside hostile clients: seats, play that records how long each action took to
show, and the figures."""

from __future__ import annotations

import asyncio
import contextlib
import json
import statistics
import time
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import httpx
from websockets.asyncio.client import ClientConnection, connect

from tests.helpers.room_tables import first_turn
from tests.helpers.room_tables import heads_up as seat_two
from tests.helpers.sockets import ws_url
from tests.server.conftest import Person, Server

GRANT = 1_000_000
CLOCK = (("decision_seconds", 10), ("warning_after_seconds", 5), ("time_bank_seconds", 0))


async def heads_up(
    server: Server, table: str, clock: tuple[tuple[str, int], ...] = CLOCK
) -> tuple[Person, Person]:
    return await seat_two(server, table, clock)


async def play(
    someone: Person, table: str, hands: int, waits: list[float], *, cautious: bool = False
) -> None:
    """Check or call (``cautious``: check or fold) for ``hands`` hands; ``waits`` gets, for
    every action, the seconds until the frame that shows it done arrived."""
    last = 0
    frame = await someone.next("table", 30)
    while True:
        hand = frame.get("hand")
        if hand is None:
            frame = await someone.next("table", 30)
            continue
        last = max(last, hand["number"])
        if last > hands:
            return
        if hand["actor"] == frame["you"] and hand["legal"] is not None:
            sent = time.monotonic()
            action = "check_or_call"
            if cautious:
                action = "check" if hand["legal"]["can_check"] else "fold"
            await someone.send(type="act", table=table, action=action, hand=hand["number"])
            frame = await someone.until(  # bounded: the broadcast of this action, or it fails
                lambda f, h=hand: (
                    f["hand"] is None
                    or f["hand"]["number"] != h["number"]
                    or f["hand"]["actor"] != h["actor"]
                    or f["hand"]["street"] != h["street"]
                ),
                timeout=10,
            )
            waits.append(time.monotonic() - sent)
        else:
            frame = await someone.next("table", 30)


def report(waits: list[float]) -> None:
    p99 = statistics.quantiles(waits, n=100)[98] if len(waits) > 1 else waits[0]
    p50 = statistics.median(waits)
    print(f"honest action-to-broadcast: {len(waits)} actions, p50 {p50:.4f} s, p99 {p99:.4f} s")


async def logged_in(server: Server, token: str) -> ClientConnection:
    ws = await connect(ws_url(server))
    await ws.recv()  # welcome
    await ws.send(json.dumps({"type": "hello", "token": token}))
    await ws.recv()  # hello
    return ws


async def settle(read: Any, rounds: int = 100) -> int:
    """Wait (bounded) until ``read()`` stops changing for a few turns; its last value."""
    last, same = read(), 0
    for _ in range(rounds):
        await asyncio.sleep(0.02)
        now = read()
        same = same + 1 if now == last else 0
        last = now
        if same >= 10:
            break
    return int(last)


@contextlib.asynccontextmanager
async def writes_held(server: Server) -> AsyncIterator[None]:
    """While inside, a table that writes its own row in its turn (a player joining its
    waiting list, sitting down) waits for a lock (an operator's long transaction): nothing
    more leaves its inbox, and what is sent to it piles up."""
    admin = await asyncpg.connect(server.database.replace("+asyncpg", ""))
    lock = admin.transaction()
    await lock.start()
    try:
        await admin.execute("LOCK TABLE tables IN EXCLUSIVE MODE")
        yield
    finally:
        await lock.rollback()
        await admin.close()


async def first_act(
    server: Server, clock: tuple[tuple[str, int], ...] = CLOCK
) -> tuple[Any, tuple[Person, Person, Person], int, int]:
    """Table "fair" heads-up, its first hand dealt: the actor, Ann, Bob and the one to act,
    the hand's number and the mover's seat."""
    ann, bob = await heads_up(server, "fair", clock)
    mover, frame, _ = await first_turn(ann, bob)
    return server.room.actors["fair"], (ann, bob, mover), frame["hand"]["number"], frame["you"]


def errors(someone: Person) -> list[dict[str, Any]]:
    return [f for f in someone.frames if f.get("type") == "error"]


async def balance(server: Server, someone: Person) -> int:
    headers = {"Authorization": f"Bearer {someone.token}"}
    async with httpx.AsyncClient(base_url=server.base, headers=headers) as http:
        response = await http.get("/api/me")
        response.raise_for_status()
        value: int = response.json()["balance"]
        return value


async def sit(someone: Person, table: str, seat: int, buy_in: int, request: str) -> dict[str, Any]:
    await someone.send(type="join", table=table, seat=seat, buy_in=buy_in, request=request)
    return await someone.until(lambda f: f.get("you") == seat)


async def refused(someone: Person, **message: Any) -> str:
    """Send ``message`` and return the error it gets (the test fails if none comes)."""
    await someone.send(**message)
    error = await someone.next("error")
    text: str = error["message"]
    return text


async def handled(someone: Person, table: str) -> None:
    """Wait until the table has handled everything sent before (its inbox is in order)."""
    await someone.send(type="chat", table=table, text="barrier")
    await someone.next("chat")
