"""A node's share of the tables on PostgreSQL (``store/nodes/store.py``): live
nodes counted from their heartbeats; adopting a table cancels only that table's running
hand (the other nodes' hands deal on), under the next epoch, and the adopter's restore sees
the old owner's last write; renewals keep what is held and name what was lost."""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from sqlalchemy import select, update

from pokerroom.store.db import Database
from pokerroom.store.models import HandRecord, TableRecord
from pokerroom.store.nodes.leases import LeaseHeldError, acquire_sync
from pokerroom.store.nodes.store import (
    Adopted,
    adopt_sync,
    heartbeat_sync,
    leave_sync,
    open_sync,
    renew_all_sync,
    tables_sync,
)
from pokerroom.store.tables.hands import begin_hand_sync, save_table_sync
from tests.helpers.leases import NOW, TTL, db

__all__ = ["db"]  # the PostgreSQL database fixture

pytestmark = pytest.mark.postgres


def restore(table_id: str, config: dict[str, Any], snapshot: str, last: int) -> Adopted:
    """As a room restores: here only what it was given, to look at."""
    return Adopted((snapshot, last), table_id, config, snapshot + "+restored", [])


async def statuses(db: Database) -> dict[str, str]:
    async with db.transaction() as session:
        rows = await session.execute(select(HandRecord.table_id, HandRecord.status))
        return {str(t): str(s) for t, s in rows}


async def test_live_nodes_are_those_seen_within_a_lease(db: Database) -> None:
    assert await db.run(partial(heartbeat_sync, node="a", now=NOW, ttl=TTL)) == 1
    later = NOW + timedelta(seconds=3)
    assert await db.run(partial(heartbeat_sync, node="b", now=later, ttl=TTL)) == 2
    much_later = NOW + timedelta(seconds=7)  # a has not been seen for 7 s
    assert await db.run(partial(heartbeat_sync, node="b", now=much_later, ttl=TTL)) == 1
    await db.run(partial(heartbeat_sync, node="a", now=much_later, ttl=TTL))
    await db.run(partial(leave_sync, node="b"))  # b stops cleanly: gone at once
    assert await db.run(partial(heartbeat_sync, node="a", now=much_later, ttl=TTL)) == 1


async def test_adopting_a_table_cancels_only_its_own_running_hand(db: Database) -> None:
    for table in ("t1", "t2"):
        await db.run(
            partial(save_table_sync, table_id=table, name=table, config={}, snapshot="s", now=NOW)
        )
        await db.run(partial(acquire_sync, table_id=table, node="a", now=NOW, ttl=TTL))
        await db.run(
            partial(
                begin_hand_sync,
                table_id=table,
                number=7,
                deck=list(range(52)),
                snapshot_before=f"{table}-before",
                now=NOW,
            )
        )
    with pytest.raises(LeaseHeldError):  # a's lease has not run out
        await db.run(
            lambda s: adopt_sync(s, "t1", "b", restore, now=NOW, ttl=TTL, reason="failover")
        )
    later = NOW + timedelta(seconds=6)
    got = await db.run(
        lambda s: adopt_sync(s, "t1", "b", restore, now=later, ttl=TTL, reason="failover")
    )
    assert got is not None
    lease, adopted = got
    assert (lease.node, lease.epoch) == ("b", 2)
    assert adopted.table == ("t1-before", 7)  # the snapshot from before the hand, its number
    assert await statuses(db) == {"t1": "cancelled", "t2": "running"}  # t2's hand deals on
    rows = {r.id: r for r in await db.run(tables_sync)}
    assert rows["t1"].snapshot == "t1-before+restored" and rows["t1"].owner == "b"
    assert rows["t2"].owner == "a" and rows["t2"].free(later)
    with pytest.raises(ValueError, match="already open"):  # the floor on another node
        await db.run(
            partial(
                open_sync,
                table_id="t1",
                node="c",
                name="x",
                config={},
                snapshot="",
                now=later,
                ttl=TTL,
            )
        )
    assert (await db.run(tables_sync))[0].snapshot == "t1-before+restored"  # untouched


async def test_a_renewal_keeps_what_is_held_and_names_what_was_lost(db: Database) -> None:
    leases = []
    for table in ("t1", "t2"):
        await db.run(
            partial(save_table_sync, table_id=table, name=table, config={}, snapshot="s", now=NOW)
        )
        acquire = partial(acquire_sync, table_id=table, node="a", now=NOW, ttl=TTL)
        leases.append(await db.run(acquire))
    later = NOW + timedelta(seconds=6)  # both expired; b takes t2
    await db.run(partial(acquire_sync, table_id="t2", node="b", now=later, ttl=TTL))
    kept, lost = await db.run(partial(renew_all_sync, leases=leases, now=later, ttl=TTL))
    assert kept == [] and [x.table_id for x in lost] == ["t1", "t2"]  # expired: not renewed
    fresh = await db.run(partial(acquire_sync, table_id="t1", node="a", now=later, ttl=TTL))
    kept, lost = await db.run(
        partial(renew_all_sync, leases=[fresh, leases[1]], now=later, ttl=TTL)
    )
    assert [x.table_id for x in kept] == ["t1"] and [x.table_id for x in lost] == ["t2"]


async def test_a_pass_reads_again_only_the_snapshots_that_changed(db: Database) -> None:
    for table in ("t1", "t2", "t3"):
        await db.run(
            partial(save_table_sync, table_id=table, name=table, config={}, snapshot="s0", now=NOW)
        )
    first = {r.id: r for r in await db.run(tables_sync)}
    assert {r.snapshot for r in first.values()} == {"s0"}
    later = NOW + timedelta(seconds=1)
    await db.run(
        partial(save_table_sync, table_id="t2", name="t2", config={}, snapshot="s1", now=later)
    )
    again = {r.id: r for r in await db.run(partial(tables_sync, known=list(first.values())))}
    assert again["t1"].snapshot is first["t1"].snapshot  # unchanged: not read again
    assert again["t2"].snapshot == "s1" and again["t2"].updated_at != first["t2"].updated_at


async def test_a_pass_with_its_time_reads_only_tables_written_since_and_leases_run_out(
    db: Database,
) -> None:
    """Given the pass's time, a pass after a full read reads the tables written since
    and the leases run out, not every table: a table untouched keeps its row (its snapshot
    not read again, held), a table written since has its new snapshot, and a lease run out
    makes its table free; a table closed meanwhile is dropped (every table read again)."""
    for table in ("t1", "t2", "t3", "t4"):
        save = partial(save_table_sync, table_id=table, name=table, config={}, snapshot="s0")
        await db.run(partial(save, now=NOW))
        await db.run(partial(acquire_sync, table_id=table, node="a", now=NOW, ttl=TTL))
    first = {r.id: r for r in await db.run(partial(tables_sync, now=NOW))}
    assert all(r.read_at == NOW and not r.free(NOW) for r in first.values())
    # Ten seconds on: t1..t3 renewed by their node, t4's lease ran out; t2 written.
    later = NOW + timedelta(seconds=10)
    await db.run(partial(acquire_sync, table_id="t4", node="a", now=NOW, ttl=TTL))
    for table in ("t1", "t2", "t3"):
        await db.run(partial(acquire_sync, table_id=table, node="a", now=later - TTL / 2, ttl=TTL))
    write = partial(save_table_sync, table_id="t2", name="t2", config={}, snapshot="s1")
    await db.run(partial(write, now=later))
    again = {
        r.id: r for r in await db.run(partial(tables_sync, known=list(first.values()), now=later))
    }
    assert again["t1"].snapshot is first["t1"].snapshot and not again["t1"].free(later)
    assert again["t1"].read_at == NOW  # not read whole again
    assert again["t2"].snapshot == "s1" and again["t2"].owner == "a"
    assert again["t4"].free(later) and not again["t3"].free(later)
    # The floor closes t3: the count differs, every table is read again, t3 gone.

    await db.run(
        lambda s: s.execute(update(TableRecord).where(TableRecord.id == "t3").values(closed=True))
    )
    closed = await db.run(partial(tables_sync, known=list(again.values()), now=later))
    assert [r.id for r in closed] == ["t1", "t2", "t4"]
    assert all(r.read_at == later for r in closed)
