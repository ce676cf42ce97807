"""Nodes of one room in this process, over one PostgreSQL and Redis: starting and stopping them,
a Redis database of the test's own, people seated through any node."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from pokerroom.server.app import create_app
from pokerroom.server.nodes.bus import Bus, BusError
from pokerroom.server.sockets.client import Client
from tests.helpers.accounts import reload_page
from tests.server.conftest import Person, Server, person, start_uvicorn
from tests.store.conftest import drop_postgres, fresh_postgres

REDIS = os.environ.get("POKERROOM_TEST_REDIS", "redis://127.0.0.1:6379")


class Node(Server):
    uv: Any = None
    task: Any = None

    @property
    def bus(self) -> Bus:
        bus = self.room.links.bus
        assert bus is not None
        return bus


async def redis_db(number: int, *, flush: bool = True) -> str:
    """A Redis database of this test's own, empty (unless not ``flush``ed: keys under a
    prefix of the test's own), or skip (fail under CI) without Redis. Each test file has
    its own numbers (0-15): `make test` runs files side by side."""
    url = f"{REDIS}/{number}"
    client = aioredis.from_url(url)
    try:
        await client.ping()
        if flush:
            await client.flushdb()  # this test's own database number
    except (RedisError, OSError) as error:
        message = f"Redis is not reachable at {url}: {error}"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (CI requires it)")
        pytest.skip(message)
    finally:
        await client.aclose()
    return url


def room_prefix() -> str:
    """Keys and channels of a room of the test's own on a Redis database that another run
    (another checkout's, at the same time) may use too: with the same prefix, its owners
    would read this room's commands from the same streams and send its sockets their own
    tables' frames (a seated player shown a table she does not sit at)."""
    return f"pokerroom-test-{secrets.token_hex(4)}:"


async def start_node(database: str, redis: str, name: str, *, owner: bool, prefix: str) -> Node:
    app = create_app(
        database,
        demo=False,
        pause=0.05,
        redis=redis,
        redis_prefix=prefix,  # this test's keys and channels (pub/sub is shared by databases)
        own_tables=owner,
        node=name,
    )
    bus = app.state.room.links.bus
    bus.alive_seconds, bus.beat_seconds, bus.reap_seconds = 3, 0.5, 1.0
    port, uv, task = await start_uvicorn(app)
    node = Node(base=f"http://127.0.0.1:{port}", app=app, database=database)
    node.uv, node.task = uv, task
    return node


async def stop_node(node: Node) -> None:
    node.uv.should_exit = True
    with contextlib.suppress(asyncio.CancelledError, TimeoutError):
        await asyncio.wait_for(node.task, timeout=10)


@pytest.fixture
async def nodes(request: pytest.FixtureRequest) -> AsyncIterator[Callable[..., Any]]:
    """``await make(db_number)``: the owner node and two socket-only nodes."""
    started: list[Node] = []
    databases: list[str] = []

    async def make(number: int) -> tuple[Node, Node, Node]:
        redis = await redis_db(number, flush=False)  # (the room's keys under its prefix)
        name, url = await fresh_postgres()
        databases.append(name)
        prefix = room_prefix()
        owner = await start_node(url, redis, "owner", owner=True, prefix=prefix)
        started.append(owner)
        first = await start_node(url, redis, "sockets-1", owner=False, prefix=prefix)
        started.append(first)
        second = await start_node(url, redis, "sockets-2", owner=False, prefix=prefix)
        started.append(second)
        return owner, first, second

    yield make
    for node in reversed(started):
        await stop_node(node)
    for name in databases:
        await drop_postgres(name)


async def seated_on(node: Node, table: str, names: tuple[str, ...]) -> list[Person]:
    people = []
    for seat, name in enumerate(names, start=1):
        someone = await person(node.base, name)
        await someone.send(type="watch", table=table)
        await someone.send(type="join", table=table, seat=seat, buy_in=10_000, request=f"j{seat}")
        people.append(someone)
    return people


async def both(
    ann: Person,
    bob: Person,
    table: str,
    hands: int,
    *,
    reconnected: bool = False,
    seats: tuple[int, int] = (1, 2),
) -> None:
    """ann and bob (at ``seats``) play until each was dealt ``hands`` hands (the first
    done plays on until the other is, so that neither is timed out and sat out meanwhile)."""
    counts = dict.fromkeys(seats, 0)
    await asyncio.gather(
        play(ann, table, hands, seats[0], reconnected=reconnected, counts=counts),
        play(bob, table, hands, seats[1], reconnected=reconnected, counts=counts),
    )


def connection(node: Node, account: int) -> Client:
    return next(c for c in node.room.clients if c.account_id == account and not c.closed)


async def kill(node: Node) -> None:
    """The node dies: nothing more of it reaches Redis (no "gone"), its sockets break."""
    bus = node.bus
    for task in bus.tasks:
        task.cancel()

    async def dead(*args: Any, **kwargs: Any) -> None:
        raise BusError("this node is dead")

    bus.xadd = dead  # type: ignore[method-assign]
    await stop_node(node)


async def log_in_again(node: Node, someone: Person, tables: list[str]) -> Person:
    """A page opened afresh on another node: log in, hello (which names the tables where the
    account sits, though another node owns them), watch."""
    back = await reload_page(node, someone, tables[0])
    hello = next(f for f in back.frames if f["type"] == "hello")
    assert hello["seated"] == tables
    return back


async def play(
    someone: Person,
    table: str,
    hands: int,
    seat: int,
    *,
    reconnected: bool = False,
    counts: dict[int, int] | None = None,
) -> None:
    """Check or call on this person's turns until ``hands`` hands were dealt to them (to all
    in ``counts``), always at the same seat (R-TIME-3: a reconnection keeps it)."""
    seen: set[int] = set()
    asked = False
    while (len(seen) if counts is None else min(counts.values())) < hands:
        try:
            frame = await someone.next("table", 30)
        except TimeoutError:
            last = [f["type"] for f in someone.frames if f.get("type") != "table"][-3:]
            tables = [  # who sits where, in which hand, how, connected or not
                (
                    f["you"],
                    f["hand"] and f["hand"]["number"],
                    [(x.get("status"), x.get("connected")) for x in f["seats"]],
                )
                for f in someone.frames
                if f.get("type") == "table"
            ][-2:]
            raise AssertionError((someone.name, last, tables)) from None
        if frame.get("you") is None and not seen and not reconnected:
            continue  # before the join is handled
        assert frame["you"] == seat, seat_lost(someone, seat, frame)
        sitting_out = frame["seats"][seat - 1]["status"] == "sitting_out"
        if sitting_out and not asked:  # timed out while away (a person clicks "sit in")
            await someone.send(type="sit_in", table=table)
        asked = sitting_out
        hand = frame.get("hand")
        if hand is None:
            continue
        seen.add(hand["number"])
        if counts is not None:
            counts[seat] = len(seen)
        if hand["actor"] == seat and hand["legal"] is not None:
            await someone.send(type="act", table=table, action="check_or_call", hand=hand["number"])


def seat_lost(someone: Person, seat: int, frame: dict[str, Any]) -> str:
    """A frame that does not show this person at their seat, as a failure says it: whole
    (pytest cuts a dict's repr short), with the table frames before it."""

    def brief(f: dict[str, Any]) -> str:
        taken = [
            (s["seat"], s["name"], s["stack"], s["status"]) for s in f["seats"] if not s["empty"]
        ]
        hand = f["hand"] and f["hand"]["number"]
        return f"{f['table']} v{f['version']} hand {hand} you={f['you']} seats={taken}"

    before = [brief(f) for f in someone.frames[:-1] if f.get("type") == "table"][-3:]
    return f"{someone.name} (seat {seat}) got {brief(frame)}, after {before}"
