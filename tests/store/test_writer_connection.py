"""PostgreSQL: the database writer does not ping its connection before each batch (a round
trip a batch); a connection the server has ended is still replaced, the batch
that finds it lost run again whole on a new one, each unit written once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from functools import partial

import asyncpg
import pytest
from sqlalchemy import select, text
from sqlalchemy.orm import Session

from pokerroom.store.audit import audit
from pokerroom.store.db import Database
from pokerroom.store.models import HandRecord
from pokerroom.store.tables.hands import finish_hand_sync
from tests.helpers.writer import stored_hands, tables_with_hands_over, watch
from tests.store.conftest import PG_DSN, drop_postgres, fresh_postgres

pytestmark = pytest.mark.postgres
NAME = "writer-connection-test"


@pytest.fixture
async def postgres() -> AsyncIterator[tuple[Database, str]]:
    name, url = await fresh_postgres()
    db = Database(url, name=NAME)
    try:
        await db.migrate()
        yield db, name
    finally:
        await db.close()
        await drop_postgres(name)


async def end_connections(database: str) -> int:
    """The server ends every connection of the database under test: how many."""
    admin = await asyncpg.connect(PG_DSN, timeout=5)
    try:
        ended = await admin.fetch(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = $1 AND application_name = $2",
            database,
            NAME,
        )
    finally:
        await admin.close()
    return len(ended)


@pytest.mark.parametrize("count", [1, 3])
async def test_hand_ends_after_the_writers_connection_is_ended_are_written_once(
    postgres: tuple[Database, str], count: int
) -> None:
    """One hand's end alone in its batch, or three in one: none is refused."""
    db, name = postgres
    ended = await tables_with_hands_over(db, count=count)  # the writer's connection is pooled
    assert await end_connections(name) >= 1
    batches = watch(db)
    ends = [db.grouped(partial(finish_hand_sync, **one.fields)) for one in ended]
    await asyncio.gather(*ends)  # none fails: the batch runs again on a new connection
    assert not batches[0].ok and all(batch.ok for batch in batches[1:]), batches
    assert await stored_hands(db) == {one.table_id: ["complete"] for one in ended}
    async with db.transaction() as session:
        report = await audit(session)
    assert report.ok, report.problems


async def test_a_lease_pass_after_the_writers_connection_is_ended_runs(
    postgres: tuple[Database, str],
) -> None:
    """``run_apart`` (a node's lease pass) is not run again: its connection is pinged."""
    db, name = postgres
    (one,) = await tables_with_hands_over(db, count=1)
    assert await end_connections(name) >= 1
    hand_id = one.fields["started"].hand_id

    def status(session: Session) -> str:
        query = select(HandRecord.status).where(HandRecord.id == hand_id)
        return session.execute(query).scalar_one()

    assert await db.run_apart(status) == "running"


async def test_a_write_still_running_when_the_database_closes_fails_rather_than_waits() -> None:
    """The writer's loop closed under a transaction still in flight (a shutdown cutting a
    write short): its caller gets an error at once, not a wait without end, and closing
    returns (it once hung the room's loop in uvloop's close)."""
    name, url = await fresh_postgres()
    db = Database(url, name=NAME)
    try:
        await db.migrate()
        sleeping = asyncio.ensure_future(
            db.run_apart(lambda session: session.execute(text("SELECT pg_sleep(60)")))
        )
        admin = await asyncpg.connect(PG_DSN, timeout=5)
        try:
            for _ in range(100):  # bounded: the statement reaches the server within seconds
                query = "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND query LIKE $2"
                if await admin.fetchval(query, name, "%pg_sleep(60)%"):
                    break
                await asyncio.sleep(0.1)
        finally:
            await admin.close()
        await asyncio.wait_for(db.close(), 60)
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(sleeping, 30)  # before: never done (TimeoutError here)
    finally:
        await drop_postgres(name)
