"""Tournaments on two nodes of one room in this process: the nodes, players registered and
playing through either, and the books once it is over."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from pokerroom.server.app import create_app
from pokerroom.server.tournaments.runner import TournamentRunner
from pokerroom.store.audit import audit
from pokerroom.store.db import Database
from pokerroom.store.models import HandRecord, TableLease, Transfer
from pokerroom.store.nodes.leases import LeaseSettings
from pokerroom.store.nodes.tournament_leases import lease_key
from tests.helpers.nodes import Node, redis_db, room_prefix, stop_node
from tests.helpers.waiting import WAIT, eventually
from tests.server.conftest import Person, person, start_uvicorn
from tests.store.conftest import drop_postgres, fresh_postgres

REDIS_DB = 6


# Leases of 6 s: a loaded machine's lease passes can take a second or two, and an event
# that must not change owner but when the test kills or pauses one needs more than 2 s.
# 12 s: a lease pass slowed by a loaded machine (8.7 s seen at load 15: a test's nodes share
# one process and database) must not hand the event to the other node mid-test.
STEADY = LeaseSettings(ttl=12.0, renew=0.5)


@pytest.fixture
async def steady() -> AsyncIterator[tuple[Node, Node]]:
    """Nodes ``ta`` and ``tb`` (no cash tables), leases of 12 s (``STEADY``): each test's
    event stays with its owner until the test kills or pauses it."""
    async with two_nodes(STEADY) as started:
        yield started


@contextlib.asynccontextmanager
async def two_nodes(
    leases: LeaseSettings, *, bus: bool = True, sockets_only: bool = False
) -> AsyncIterator[tuple[Node, Node]]:
    """Nodes ``ta`` and ``tb`` (no cash tables) on a fresh database and Redis database 6
    (``bus`` False: no Redis; ``sockets_only``: ``tb`` holds sockets only, no lease)."""
    # Not flushed: other files share database 6 and may run meanwhile (keys under a prefix).
    redis = await redis_db(REDIS_DB, flush=False) if bus else None
    name, url = await fresh_postgres()
    prefix = room_prefix()
    started: list[Node] = []
    try:
        for node in ("ta", "tb"):
            only = sockets_only and node == "tb"
            app = create_app(
                url,
                demo=False,
                pause=0.05,
                redis=redis,
                redis_prefix=None if redis is None else prefix,
                node=node,
                leases=None if only else leases,
                own_tables=not only,
            )
            if redis is not None:
                room_bus = app.state.room.links.bus
                room_bus.alive_seconds, room_bus.beat_seconds, room_bus.reap_seconds = 3, 0.5, 1
            port, uv, task = await start_uvicorn(app)
            started.append(Node(base=f"http://127.0.0.1:{port}", app=app, database=url))
            started[-1].uv, started[-1].task = uv, task
        yield started[0], started[1]
    finally:
        for node in started:
            if not node.task.done():
                await stop_node(node)
        await drop_postgres(name)


async def register(node: Node, someone: Person, tournament: str) -> httpx.Response:
    # (two nodes on this test's loop: on a busy machine an answer took over httpx's 5 s)
    async with httpx.AsyncClient(base_url=node.base, timeout=WAIT) as http:
        return await http.post(
            f"/api/tournaments/{tournament}/register",
            json={"request": f"r-{someone.name}"},
            headers={"Authorization": f"Bearer {someone.token}"},
        )


async def heads_up_in_play(node: Node) -> tuple[TournamentRunner, Person, Person]:
    """A heads-up sit & go run by ``node``, ann and bob registered and watching its table
    through it, its first hand in play (stored running)."""
    runner = await node.app.state.tournaments.create("sng_heads_up")
    ann, bob = await person(node.base, "ann"), await person(node.base, "bob")
    for someone in (ann, bob):
        assert (await register(node, someone, runner.id)).status_code == 200
    for someone in (ann, bob):
        await watch_through(node, someone, f"{runner.id}-1")
    await eventually(lambda: 1 in runner.actors and runner.actors[1].started, "hand 1 runs")
    return runner, ann, bob


async def watch_through(node: Node, someone: Person, table: str) -> None:
    """Watch the table from ``node`` once that node knows it (any node's table)."""
    bus = getattr(node.room.links, "bus", None)  # (none: nodes without Redis)
    if bus is not None and table not in node.room.actors:
        async with asyncio.timeout(WAIT):
            while not await node.room.links.has_table(table):
                await asyncio.sleep(0.1)
    await someone.send(type="watch", table=table)


async def act(someone: Person, frame: dict[str, Any], *, shove: bool) -> None:
    hand = frame["hand"]
    legal = hand["legal"]
    if shove and legal["max_raise_to"] is not None:
        action: dict[str, Any] = {"action": "bet_or_raise", "amount": legal["max_raise_to"]}
    else:
        action = {"action": "check_or_call"}
    await someone.send(type="act", table=frame["table"], hand=hand["number"], **action)


async def play(someone: Person, table: str, until: Any, *, shove: bool = False) -> None:
    """Act on this person's turns (check or call; ``shove``: all in) until ``until()``."""
    acted: set[tuple[Any, ...]] = set()
    async with asyncio.timeout(WAIT):
        while not until():
            try:
                frame = await someone.next("table", 0.5)
            except TimeoutError:
                continue
            hand = frame.get("hand")
            if frame.get("table") != table or hand is None or frame.get("you") is None:
                continue
            if hand["actor"] != frame["you"] or hand["legal"] is None:
                continue
            seats = tuple((s.get("bet"), s.get("stack")) for s in frame["seats"])
            key = (hand["number"], hand["street"], seats)
            if key in acted:
                continue
            acted.add(key)
            await act(someone, frame, shove=shove)


async def books(url: str, tournament: str, table: str) -> dict[str, Any]:
    """The audit (it must reconcile), the table's hands by number and status, the prize
    transfers and the tournament's lease."""
    db = Database(url)
    try:
        async with db.transaction() as session:
            report = await audit(session)
            assert report.ok, report.problems
            rows = await session.execute(
                select(HandRecord.number, HandRecord.status).where(HandRecord.table_id == table)
            )
            hands: dict[int, list[str]] = {}
            for number, status in rows:
                hands.setdefault(int(number), []).append(status)
            prizes = await session.scalar(
                select(func.count()).where(
                    Transfer.idempotency_key.startswith(f"t:{tournament}:prize:")
                )
            )
            lease = await session.get(TableLease, lease_key(tournament))
            return {"hands": hands, "prizes": int(prizes or 0), "lease": lease}
    finally:
        await db.close()


def die(node: Node) -> None:
    """The node dies as kill -9 would leave it: no renewal, no table dealing, its leases
    left to expire (nothing released), its sockets gone."""
    room = node.room
    room.placement.leases.task.cancel()
    room.placement.leases.watchdog.cancel()
    room.placement.leases.held.clear()  # its shutdown below releases nothing
    for actor in list(room.actors.values()):
        if actor.task is not None:
            actor.task.cancel()
    room.actors.clear()
    node.app.state.tournaments.runners.clear()
    node.uv.should_exit = True
