"""Group commit: hands ending at many tables at once are written by one writer
per database in one transaction; a failing unit costs the others nothing (they are
committed one at a time, once each); closing the database drains the writer's queue.
On SQLite and PostgreSQL (the ``database`` fixture), with the audit reconciling (S-AUDIT-2)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from pokerroom.store.audit import audit
from pokerroom.store.db import Database
from pokerroom.store.group_commit import GroupCommit, WriterClosedError
from pokerroom.store.models import HandPlayer
from pokerroom.store.money.ledger import balance
from pokerroom.store.tables.store import RoomStore
from tests.helpers.writer import (
    Ended,
    stored_hands,
    tables_with_hands_over,
    watch,
)


async def check_books(db: Database, ended: list[Ended]) -> None:
    """S-AUDIT-2: every table's ledger account holds the chips its snapshot seats."""
    async with db.transaction() as session:
        for one in ended:
            assert await balance(session, "table", one.table_id) == one.table.chips_on_table()
        report = await audit(session)
    assert report.ok, report.problems


async def test_hands_ending_at_once_cost_fewer_commits_and_are_stored_once(
    database: Database,
) -> None:
    ended = await tables_with_hands_over(database)
    seen = watch(database)
    commits = database.writer.commits
    store = RoomStore(database)
    await asyncio.gather(*(store.finish_hand(**one.fields) for one in ended))
    assert database.writer.commits - commits < len(ended)  # a burst: fewer commits than hands
    assert max(c.units for c in seen) > 1 and all(c.ok for c in seen)
    assert sum(c.units for c in seen) == len(ended)  # every hand written once, none twice
    assert await stored_hands(database) == {one.table_id: ["complete"] for one in ended}
    async with database.transaction() as session:
        players = await session.scalar(select(func.count()).select_from(HandPlayer))
    assert players == 2 * len(ended)
    await check_books(database, ended)


async def test_a_failing_hand_end_costs_the_others_nothing(database: Database) -> None:
    """One unit of the batch breaks a constraint (a player who has no account): the batch
    is rolled back and each unit committed on its own; only that table gets the error, the
    one it gets when written alone, and its hand is still running (cancelled on restart)."""
    ended = await tables_with_hands_over(database)
    seen = watch(database)
    bad = ended[len(ended) // 2]
    broken = dict(bad.fields, players=[(999_999, 1, 0, 10_000, 10_000)])
    store = RoomStore(database)
    results = await asyncio.gather(
        *(store.finish_hand(**(broken if one is bad else one.fields)) for one in ended),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(errors) == 1 and isinstance(results[ended.index(bad)], IntegrityError)
    assert not seen[0].ok and seen[0].units > 1  # the batch failed as a whole ...
    assert [c.units for c in seen[1:]] == [1] * len(ended)  # ... then each alone, once
    hands = await stored_hands(database)
    assert hands.pop(bad.table_id) == ["running"]
    assert hands == {one.table_id: ["complete"] for one in ended if one is not bad}
    async with database.transaction() as session:
        others = [one for one in ended if one is not bad]
        for one in others:
            assert await balance(session, "table", one.table_id) == one.table.chips_on_table()
        assert await balance(session, "table", bad.table_id) == 20_000  # as before its hand
        report = await audit(session)
    assert report.ok, report.problems


async def test_closing_the_database_drains_the_writers_queue(database: Database) -> None:
    ended = await tables_with_hands_over(database, 6)
    store = RoomStore(database)
    units = database.writer.units  # the hands' starts
    writes = [asyncio.create_task(store.finish_hand(**one.fields)) for one in ended]
    await asyncio.sleep(0)  # every write is in the writer's queue, none committed yet
    assert database.writer.units == units
    await database.close()  # as the room stops: what was taken is committed first
    assert [w.result() for w in writes] == [None] * len(ended)
    with pytest.raises(WriterClosedError):  # and nothing more is taken
        await store.finish_hand(**ended[0].fields)
    again = Database(database.url)
    try:
        assert await stored_hands(again) == {one.table_id: ["complete"] for one in ended}
        await check_books(again, ended)
    finally:
        await again.close()


async def test_a_batch_holds_at_most_the_limit() -> None:
    batches: list[int] = []

    async def run(work: Any) -> Any:
        return work(None)

    writer = GroupCommit(run, limit=4, observe=lambda c: batches.append(c.units))
    results = await asyncio.gather(*(writer.write(lambda _s, k=k: k) for k in range(10)))
    await writer.close()
    assert results == list(range(10))  # each caller its own result, in order
    assert batches == [4, 4, 2]
    with pytest.raises(ValueError, match="at least one unit"):
        GroupCommit(run, limit=0)
