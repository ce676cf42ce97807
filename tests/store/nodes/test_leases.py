"""Table leases: one owner per table, every write fenced on its epoch. A write
with a stale epoch is refused and stores nothing, alone or inside a group-committed batch;
on PostgreSQL a write under the old epoch and the taking of the next one are serialised
by the lease row's lock, while a renewal never waits for the owner's writes."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

import pytest
from sqlalchemy.orm import Session

from pokerroom.store.db import Database
from pokerroom.store.fence import Lease, StaleEpochError, check_sync, fenced
from pokerroom.store.models import TableRecord
from pokerroom.store.nodes.leases import LeaseHeldError, acquire_sync, renew_sync
from pokerroom.store.tables.hands import save_table_sync

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TTL = timedelta(seconds=5)


def snapshot_write(text: str) -> Any:
    """A table write (its snapshot) as an owner makes them."""
    return partial(save_table_sync, table_id="t1", name="t1", config={}, snapshot=text, now=NOW)


async def snapshot(db: Database) -> str:
    async with db.transaction() as session:
        record = await session.get(TableRecord, "t1")
        assert record is not None
        return record.snapshot


async def acquire(db: Database, node: str, at: datetime) -> Lease:
    return await db.run(partial(acquire_sync, table_id="t1", node=node, now=at, ttl=TTL))


async def test_a_write_with_a_stale_epoch_is_refused_and_stores_nothing(
    database: Database,
) -> None:
    await database.run(snapshot_write("{}"))
    a = await acquire(database, "node-a", NOW)
    assert a.epoch == 1
    await database.run(fenced(a, snapshot_write("a1")))
    assert await snapshot(database) == "a1"
    with pytest.raises(LeaseHeldError, match="held by node node-a"):  # not while it holds
        await acquire(database, "node-b", NOW + timedelta(seconds=1))
    a = await database.run(partial(renew_sync, lease=a, now=NOW + timedelta(seconds=4), ttl=TTL))
    b = await acquire(database, "node-b", NOW + timedelta(seconds=10))  # a's lease expired
    assert b.epoch == 2
    with pytest.raises(StaleEpochError, match="held by node node-b under epoch 2"):
        await database.run(fenced(a, snapshot_write("a2")))  # paused, then woke up
    assert await snapshot(database) == "a1"  # nothing of the stale write
    with pytest.raises(StaleEpochError):
        await database.run(partial(renew_sync, lease=a, now=NOW + timedelta(seconds=11), ttl=TTL))
    await database.run(fenced(b, snapshot_write("b1")))
    assert await snapshot(database) == "b1"
    # The old owner taking the table back after b's lease expired is a new owner again.
    again = await acquire(database, "node-a", NOW + timedelta(seconds=30))
    assert again.epoch == 3


async def test_a_stale_write_in_a_group_committed_batch_is_refused_alone(
    database: Database,
) -> None:
    await database.run(snapshot_write("{}"))
    a = await acquire(database, "node-a", NOW)
    b = await acquire(database, "node-b", NOW + timedelta(seconds=10))
    stale, current = fenced(a, snapshot_write("a")), fenced(b, snapshot_write("b"))
    results = await asyncio.gather(
        database.grouped(stale), database.grouped(current), return_exceptions=True
    )
    assert isinstance(results[0], StaleEpochError) and not isinstance(results[1], Exception)
    assert await snapshot(database) == "b"


@pytest.mark.postgres
async def test_the_next_epoch_waits_for_a_write_under_the_last_one() -> None:
    """On PostgreSQL: while the old owner's fenced write is in its transaction (the lease
    row locked), a new owner cannot take the next epoch; it gets it once that write has
    committed, so no write under the old epoch can land after the new owner began."""
    from tests.store.conftest import drop_postgres, fresh_postgres

    name, url = await fresh_postgres()
    db = Database(url)
    try:
        await db.migrate()
        await db.run(snapshot_write("{}"))
        a = await acquire(db, "node-a", NOW)
        checked, release = asyncio.Event(), asyncio.Event()

        async def old_owner() -> None:
            async with db.transaction() as session:
                await session.run_sync(check_sync, a)  # the lease row is locked from here
                checked.set()
                await release.wait()
                await session.run_sync(snapshot_write("a-late"))

        writing = asyncio.create_task(old_owner())
        await checked.wait()
        # The owner renews meanwhile: a renewal moves only the expiry, so it does not wait
        # for the write (bounded: it would otherwise wait for a release that comes later).
        renewed = partial(renew_sync, lease=a, now=NOW + timedelta(seconds=1), ttl=TTL)
        assert (await asyncio.wait_for(db.run(renewed), 60)).epoch == a.epoch
        taking = asyncio.create_task(acquire(db, "node-b", NOW + timedelta(seconds=10)))
        await asyncio.sleep(0.3)
        assert not taking.done()  # it waits on the lock the write holds
        release.set()
        await writing
        b = await taking
        assert b.epoch == 2 and await snapshot(db) == "a-late"  # committed before epoch 2
        with pytest.raises(StaleEpochError):
            await db.run(fenced(a, snapshot_write("too late")))
    finally:
        await db.close()
        await drop_postgres(name)


def test_a_lease_must_last_a_while() -> None:
    with pytest.raises(ValueError, match="must last a while"):
        acquire_sync(Session(), "t1", "node-a", now=NOW, ttl=timedelta(0))
