"""Cash tables over real sockets: a table's configuration, people seated at it, and playing
along until some hands are over."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from typing import Any

from websockets.asyncio.client import connect

from pokerroom.server.app import create_app
from pokerroom.server.tables.room import TableConfig
from tests.server.conftest import Person, Server, person, start_uvicorn

FAST = (("decision_seconds", 2), ("warning_after_seconds", 1), ("time_bank_seconds", 0))


def table_config(table_id: str, seats: int = 6, overrides=FAST) -> TableConfig:  # type: ignore[no-untyped-def]
    return TableConfig(table_id, table_id, "titan", "holdem", "no_limit", 200, seats, overrides)


async def ann_and_bob_seated(
    server: Server,
    table: str,
    seats: tuple[int, int],
    *,
    table_seats: int = 6,
    overrides: tuple[tuple[str, int], ...] = FAST,
) -> tuple[Person, Person]:
    """Open ``table`` and seat two new people, ann and bob, with 10,000 each."""
    await server.room.open_table(table_config(table, seats=table_seats, overrides=overrides))
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    for someone, seat in ((ann, seats[0]), (bob, seats[1])):
        await someone.send(type="watch", table=table)
        await someone.send(type="join", table=table, seat=seat, buy_in=10_000, request="r1")
    return ann, bob


async def play_along(someone: Person, table: str, hands: int) -> None:
    """Check or call whenever it is this person's turn, for ``hands`` hands."""
    done = 0
    last = 0
    while done < hands:
        frame = await someone.next("table", 30)
        hand = frame.get("hand")
        if hand is None:
            continue
        if hand["number"] != last:
            last, done = hand["number"], done + 1
        if hand["actor"] == frame["you"] and hand["legal"] is not None:
            await someone.send(type="act", table=table, action="check_or_call", hand=hand["number"])


def clock(decision: int, warning: int, bank: int) -> tuple[tuple[str, Any], ...]:
    return (
        ("decision_seconds", decision),
        ("warning_after_seconds", warning),
        ("time_bank_seconds", bank),
    )


async def heads_up(server: Server, table: str, overrides: Any) -> tuple[Person, Person]:
    """A heads-up table with ``overrides`` and two people seated with 10,000 each."""
    await server.room.open_table(
        TableConfig(table, table, "titan", "holdem", "no_limit", 200, 2, overrides)
    )
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    for someone, seat in ((ann, 1), (bob, 2)):
        await someone.send(type="watch", table=table)
        await someone.send(type="join", table=table, seat=seat, buy_in=10_000, request="r1")
    return ann, bob


async def tournament_heads_up(server: Server) -> tuple[str, Person, Person]:
    """A heads-up sit & go in play, ann and bob its two entrants watching its table: the
    table's id and the two."""
    runner = await server.app.state.tournaments.create("sng_heads_up")
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    for k, someone in enumerate((ann, bob)):
        await runner.register(someone.account_id, someone.name, f"r{k}")  # full: it starts
    table = runner.table_id(1)
    for someone in (ann, bob):
        await someone.send(type="watch", table=table)
    return table, ann, bob


async def first_turn(ann: Person, bob: Person) -> tuple[Person, dict[str, Any], float]:
    """The person to act first in a hand, their frame and when it arrived (monotonic)."""
    frame = await ann.until(lambda f: f.get("hand") is not None and f["hand"]["actor"] is not None)
    if frame["hand"]["actor"] == 1:
        return ann, frame, time.monotonic()
    number = frame["hand"]["number"]
    mine = await bob.until(
        lambda f: (
            f.get("hand") is not None
            and f["hand"]["number"] == number
            and f["hand"]["legal"] is not None
        )
    )
    return bob, mine, time.monotonic()


async def decision(someone: Person, seat: int, number: int) -> dict[str, Any]:
    """The first frame after ``seat``'s turn in hand ``number`` ended, however it ended."""
    return await someone.until(
        lambda f: (
            f.get("hand") is None or f["hand"]["number"] != number or f["hand"]["actor"] != seat
        ),
        timeout=15,
    )


async def cancelled_result(someone: Person, number: int) -> dict[str, Any]:
    while True:  # bounded by ``next``'s own time-out
        result = await someone.next("hand_result", 15)
        if result["hand"] == number:
            return result


async def play_at(someone: Person, table: str, hands: int) -> None:
    """Check or call at ``table`` (frames of other tables passed by) until its ``hands``-th
    hand is dealt: the ones before it have ended."""
    numbers: set[int] = set()
    while len(numbers) < hands:
        frame = await someone.next("table", 30)
        hand = frame.get("hand")
        if frame["table"] != table or hand is None:
            continue
        numbers.add(hand["number"])
        if hand["actor"] == frame["you"] and hand["legal"] is not None:
            await someone.send(type="act", table=table, action="check_or_call", hand=hand["number"])


@contextlib.asynccontextmanager
async def room_on(url: str) -> AsyncIterator[Server]:
    """The room on ``url``, served until the block ends (then stopped as on a shutdown)."""
    app = create_app(url, demo=False, pause=0.05)
    port, uv, task = await start_uvicorn(app)
    try:
        yield Server(base=f"http://127.0.0.1:{port}", app=app, database=url)
    finally:
        uv.should_exit = True
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, timeout=30)


async def back(server: Server, someone: Person) -> Person:
    """``someone`` on a new socket to ``server``, logged in with their session."""
    ws = await connect(server.base.replace("http", "ws", 1) + "/ws")
    again = Person(someone.name, someone.token, someone.account_id, ws)
    await again.next("welcome")
    await again.send(type="hello", token=again.token)
    await again.next("hello")
    return again
