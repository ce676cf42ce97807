"""A tournament on nodes that are real processes: two ``pokerroom serve --node-id
--redis`` keep a heads-up sit & go open (one of them opens it, under its lease). Two people
play it through the other node; the event's owner is killed (kill -9) with a hand running,
the other node adopts the event once the lease runs out (the hand cancelled, every chip
back: R-DECK-5) and they play it to the end without reconnecting: one prize, paid once, and
the books balance (S-AUDIT-2). Redis database 2, under a prefix of the test's own."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from pokerroom.server.app import forget_room
from pokerroom.server.ops.process import free_port, spawn_node
from pokerroom.store.db import Database
from pokerroom.store.models import HandRecord, TableLease
from tests.helpers.node_tournaments import books, play, register
from tests.helpers.nodes import redis_db, room_prefix
from tests.helpers.waiting import eventually
from tests.server.conftest import Person, person
from tests.store.conftest import drop_postgres, fresh_postgres

pytestmark = pytest.mark.postgres
WAIT = 60.0  # bounded waits (two processes starting on a busy 2-core machine)
# The nodes' lease, as test_nodes_processes.py's: a loaded machine's lease pass can take
# 1.5-2 s, and a 2 s lease was lost by the watchdog mid-test (the event moved to the other
# node before the kill); at 5 s two such passes in a row still renew it.
TTL, RENEW = 5.0, 0.5


class Base:
    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"


async def owner_of_event(url: str, tid: str = "") -> tuple[str, str] | None:
    """The first event's id (or ``tid``'s) and its owner, from its lease row."""
    db = Database(url)
    try:
        async with db.transaction() as session:
            rows = await session.scalars(
                select(TableLease)
                .where(TableLease.table_id.startswith(f"tournament:{tid}"))
                .order_by(TableLease.table_id)
            )
            leases = list(rows)
        return None if not leases else (leases[0].table_id.split(":", 1)[1], leases[0].node)
    finally:
        await db.close()


async def running_hand(url: str, table: str) -> int | None:
    db = Database(url)
    try:
        async with db.transaction() as session:
            number = await session.scalar(
                select(HandRecord.number).where(
                    HandRecord.table_id == table, HandRecord.status == "running"
                )
            )
        return None if number is None else int(number)
    finally:
        await db.close()


def done(someone: Person) -> bool:
    return any(f["type"] == "tournament" and f["kind"] == "finished" for f in someone.frames)


async def test_kill_9_of_a_tournaments_owner_mid_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    redis = await redis_db(2, flush=False)  # (not flushed: another run may be on it)
    prefix = room_prefix()
    name, url = await fresh_postgres()
    monkeypatch.setenv("POKERROOM_SIT_AND_GO", "sng_heads_up")  # the nodes keep one open
    ports = {node: free_port() for node in ("p1", "p2")}
    processes: dict[str, subprocess.Popen[bytes]] = {}
    try:
        for node, port in ports.items():
            with (tmp_path / f"{node}.log").open("ab") as log:
                processes[node] = spawn_node(
                    url,
                    node,
                    port,
                    lease=TTL,
                    renew=RENEW,
                    output=log,
                    redis=redis,
                    redis_prefix=prefix,
                )
        for port in ports.values():

            async def answering(port: int = port) -> bool:
                async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
                    with contextlib.suppress(httpx.HTTPError):
                        return (await http.get("/api/lobby")).status_code == 200
                return False

            await eventually(answering, f"the node on port {port} answers", WAIT)
        tid, owner = await eventually(lambda: owner_of_event(url), "one node opens the event", WAIT)
        other = next(node for node in ports if node != owner)
        there = Base(ports[other])
        table = f"{tid}-1"

        async def listed() -> bool:  # the other node's lobby lists it (as its pass read it)
            async with httpx.AsyncClient(base_url=there.base) as http:
                return tid in [e["id"] for e in (await http.get("/api/tournaments")).json()]

        await eventually(listed, "the other node lists the event", WAIT)
        ann, bob = await person(there.base, "ann"), await person(there.base, "bob")
        for someone in (ann, bob):  # through the node that does not run it
            answer = await register(there, someone, tid)  # type: ignore[arg-type]
            assert answer.status_code == 200, answer.text
        for someone in (ann, bob):  # told it started (and where) through their node
            notice = await someone.next("tournament", WAIT)
            assert notice["kind"] == "started" and notice["table"] == table, notice

        players = [
            asyncio.create_task(play(p, table, lambda p=p: done(p), shove=False))  # type: ignore[misc]
            for p in (ann, bob)
        ]
        number = await eventually(lambda: running_hand(url, table), "a hand is running", WAIT)
        processes[owner].kill()  # kill -9 with the hand running
        processes[owner].wait(timeout=10)

        async def adopted() -> bool:
            found = await owner_of_event(url, tid)
            return found is not None and found[1] == other

        await eventually(adopted, "the other node adopts the event", WAIT)
        for task in players:  # check or call to the end is slow: all in from here
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*players)
        await asyncio.gather(
            play(ann, table, lambda: done(ann), shove=True),
            play(bob, table, lambda: done(bob), shove=True),
        )
        state = await books(url, tid, table)  # the audit reconciles
        assert state["hands"][number] == ["cancelled"]  # R-DECK-5, never settled
        assert all(statuses.count("complete") <= 1 for statuses in state["hands"].values())
        assert state["prizes"] == 1
        async with httpx.AsyncClient(base_url=there.base) as http:
            event = (await http.get(f"/api/tournaments/{tid}")).json()
        assert event["status"] == "finished"
        assert sorted(p["prize"] for p in event["players"]) == [0, 2000]
    finally:
        for process in processes.values():
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=15)
        await drop_postgres(name)
        await forget_room(redis, prefix)  # its streams outlive its nodes
