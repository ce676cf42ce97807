"""Nodes of one room on one PostgreSQL database, each a uvicorn server in the test's process
holding table leases: a fresh database for the test, and the hands a table dealt there."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import uvicorn
from sqlalchemy import select
from sqlalchemy.exc import DBAPIError

from pokerroom.server.app import create_app
from pokerroom.server.ops.process import free_port
from pokerroom.server.sockets.protocol import MAX_FRAME_BYTES
from pokerroom.store.audit import audit
from pokerroom.store.db import Database
from pokerroom.store.models import HandRecord, TableLease
from pokerroom.store.nodes.leases import LeaseSettings
from tests.helpers.waiting import eventually
from tests.server.conftest import Server
from tests.store.conftest import drop_postgres, fresh_postgres

# Leases of 6 s: each table must stay with its node until the test pauses or kills it, and a
# loaded machine's lease passes can take a second or two (2 s leases ran out mid-test).
LEASES = LeaseSettings(ttl=6.0, renew=0.5)
TABLE = "hu-nlhe"  # heads-up: two people are enough to deal


async def renewal_pass(server: Server) -> None:
    """One lease pass of ``server``'s node, as its renewals make them: a pass that failed is
    made again. (On a busy machine a pass's transaction can sit idle past its hold between
    two statements, and PostgreSQL ends it: the node's own loop logs that and tries again.)"""

    async def passed() -> bool:
        try:
            await server.room.placement.leases.tick()
        except DBAPIError:
            return False
        return True

    await eventually(passed, f"a lease pass of node {server.room.placement.leases.node}")


@contextlib.asynccontextmanager
async def node(url: str, name: str) -> AsyncIterator[Server]:
    app = create_app(url, demo=True, pause=0.05, node=name, leases=LEASES)
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=MAX_FRAME_BYTES
    )
    uv = uvicorn.Server(config)
    task = asyncio.create_task(uv.serve())
    try:
        for _ in range(600):  # bounded (30 s)
            if uv.started:
                break
            await asyncio.sleep(0.05)
        assert uv.started, f"node {name} did not start"
        yield Server(base=f"http://127.0.0.1:{port}", app=app, database=url)
    finally:
        uv.should_exit = True
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, timeout=15)


@contextlib.asynccontextmanager
async def fresh_database() -> AsyncIterator[str]:
    """A new PostgreSQL database's URL, dropped after."""
    name, address = await fresh_postgres()
    try:
        yield address
    finally:
        await drop_postgres(name)


async def hands(url: str, table: str = TABLE) -> dict[int, tuple[int, str]]:
    """The table's hands by number: (id, status); the books must balance when we look."""
    db = Database(url)
    try:
        async with db.transaction() as session:
            rows = await session.execute(
                select(HandRecord.number, HandRecord.id, HandRecord.status).where(
                    HandRecord.table_id == table
                )
            )
            found = {int(n): (int(i), s) for n, i, s in rows}
            report = await audit(session)
            assert report.ok, report.problems
            lease = await session.get(TableLease, table)
            assert lease is not None
        return found
    finally:
        await db.close()
