"""On PostgreSQL a hand's end is two statements from the database writer, not six (each
is a round trip whose reply takes the interpreter lock from the tables' loop):
the hand's row, the table's snapshot and the players' rows in one, the rake's transfer,
postings and balances in another (besides the ledger accounts' locked read); and one, once
the writer's connection has seen the rake's accounts exist (store/tables/hand_end_pg.py). What is
stored is what the statements one by one stored (SQLite still runs those), and a rake the
table cannot pay is refused with the ledger's own error on every path."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

import pytest
from sqlalchemy import Connection, event, func, select, update

from pokerroom.store.audit import audit
from pokerroom.store.db import Database
from pokerroom.store.models import (
    HandPlayer,
    HandRecord,
    LedgerAccount,
    Posting,
    TableRecord,
    Transfer,
)
from pokerroom.store.money.ledger import HOUSE, InsufficientChipsError, balance, ledger_account_sync
from pokerroom.store.tables.hands import finish_hand_sync
from pokerroom.store.tables.store import RoomStore
from tests.helpers.writer import NOW, Ended, play_out, stored_hands, tables_with_hands_over, watch
from tests.store.conftest import postgres_database


def statements(db: Database) -> list[str]:
    """Every statement ``db``'s engine runs from now on, but the ledger accounts' reads."""
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if "FROM ledger_accounts" not in statement.split("WHERE")[0]:
            seen.append(statement)

    event.listen(db.engine.sync_engine, "before_cursor_execute", record)
    return seen


async def test_a_hand_end_is_stored_whole(database: Database) -> None:
    (one,) = await tables_with_hands_over(database, count=1)
    fields = one.fields
    assert fields["rake"] > 0 and len(fields["players"]) == 2  # every part of an end
    await database.run(lambda session: ledger_account_sync(session, *HOUSE))  # (a first rake's)
    seen = statements(database)
    await database.run(partial(finish_hand_sync, **fields))
    if not database.is_sqlite:
        assert len(seen) == 2, [s.strip()[:90] for s in seen]
    hand_id = fields["started"].hand_id
    async with database.transaction() as session:
        hand = await session.get(HandRecord, hand_id)
        assert hand is not None
        assert (hand.status, hand.record, hand.rake) == (
            "complete",
            fields["record"],
            fields["rake"],
        )
        assert hand.ended_at is not None and fields["started"].salt.hex() in hand.deck_reveal
        table = await session.get(TableRecord, one.table_id)
        assert table is not None and table.snapshot == fields["snapshot_after"]
        stored = (
            await session.execute(
                select(
                    HandPlayer.account_id,
                    HandPlayer.seat,
                    HandPlayer.position,
                    HandPlayer.start_stack,
                    HandPlayer.end_stack,
                )
                .where(HandPlayer.hand_id == hand_id)
                .order_by(HandPlayer.position)
            )
        ).all()
        assert [tuple(row) for row in stored] == [tuple(p) for p in fields["players"]]
        transfer = (
            await session.scalars(select(Transfer).where(Transfer.hand_id == hand_id))
        ).one()
        assert (transfer.kind, transfer.idempotency_key) == ("rake", f"rake:{hand_id}")
        postings = await session.scalar(
            select(func.count()).where(Posting.transfer_id == transfer.id)
        )
        assert postings == 2
        assert await balance(session, *HOUSE) == fields["rake"]
        report = await audit(session)
        assert report.ok, report.problems


@pytest.mark.postgres
async def test_a_hand_end_refused_writes_nothing(database: Database) -> None:
    """Another end of a hand already ended: refused, and none of its parts written."""
    (one,) = await tables_with_hands_over(database, count=1)
    await database.run(partial(finish_hand_sync, **one.fields))
    other = {**one.fields, "record": "{}", "snapshot_after": "{}", "players": [(1, 9, 9, 1, 1)]}
    with pytest.raises(ValueError, match="is not running"):
        await database.run(partial(finish_hand_sync, **other))
    async with database.transaction() as session:
        table = await session.get(TableRecord, one.table_id)
        assert table is not None and table.snapshot == one.fields["snapshot_after"]
        rows = await session.scalar(select(func.count()).select_from(HandPlayer))
        assert rows == 2


async def next_hands(db: Database, ended: list[Ended]) -> list[Ended]:
    """The hands of ``ended`` committed by the writer, and the next hand at each table begun
    in the store and played to its end in memory."""
    store = RoomStore(db)
    await asyncio.gather(*(store.finish_hand(**one.fields) for one in ended))
    for one in ended:
        one.table.start_hand(2.0)
    started = await asyncio.gather(
        *(
            store.begin_hand(
                one.table_id,
                number=one.table.hand_number,
                deck=list(one.table.hand.deck if one.table.hand else ()),
                before=None,
                now=NOW,
            )
            for one in ended
        )
    )
    return [play_out(one, begun) for one, begun in zip(ended, started, strict=True)]


async def third_hands(db: Database, count: int) -> list[Ended]:
    """``count`` tables whose first two hands' ends the writer committed, and whose third
    hand is over in memory: the writer's connection has seen the table's and the house's
    accounts exist (the house's is created at the first rake, and seen at the second), as
    at most hands' ends of a room."""
    return await next_hands(db, await next_hands(db, await tables_with_hands_over(db, count)))


@pytest.mark.postgres
async def test_a_raked_hand_end_on_known_accounts_is_one_statement() -> None:
    """The writer's connection has seen the table's and the house's accounts: the hand's
    row, the snapshot, the players' rows and the whole rake are one statement, and what it
    stores is what the statements one by one stored (the first hands' ends, compared)."""
    async with postgres_database() as database:
        await _one_statement(database)


async def _one_statement(database: Database) -> None:
    (one,) = await third_hands(database, 1)
    assert one.fields["rake"] > 0
    seen: list[str] = []
    writer = await writer_engine(database)
    event.listen(writer.sync_engine, "before_cursor_execute", lambda *a: seen.append(a[2]))
    await RoomStore(database).finish_hand(**one.fields)
    assert len([s for s in seen if s.strip() not in ("BEGIN", "COMMIT")]) == 1, seen
    async with database.transaction() as session:
        transfers = (
            await session.execute(
                select(Transfer.hand_id, Transfer.kind, Transfer.idempotency_key, Transfer.memo)
                .where(Transfer.kind == "rake")
                .order_by(Transfer.id)
            )
        ).all()
        hands = [t.hand_id for t in transfers]
        assert [(t.kind, t.idempotency_key, t.memo) for t in transfers] == [
            ("rake", f"rake:{hand}", "rake at g0") for hand in hands
        ]
        postings = (
            await session.execute(
                select(Transfer.hand_id, LedgerAccount.kind, Posting.amount)
                .join(Posting, Posting.transfer_id == Transfer.id)
                .join(LedgerAccount, LedgerAccount.id == Posting.ledger_account_id)
                .where(Transfer.kind == "rake")
                .order_by(Transfer.id, LedgerAccount.id)
            )
        ).all()
        rakes = {hand: postings[2 * n + 1].amount for n, hand in enumerate(hands)}
        assert rakes[hands[-1]] == one.fields["rake"]
        assert [tuple(p) for p in postings] == [
            (hand, kind, amount)
            for hand in hands
            for kind, amount in (("table", -rakes[hand]), ("house", rakes[hand]))
        ]
        assert await balance(session, *HOUSE) == sum(rakes.values())
        assert await stored_hands(database) == {"g0": ["complete"] * 3}
        players = await session.scalar(select(func.count()).where(HandPlayer.hand_id == hands[-1]))
        assert players == 2
        assert await balance(session, "table", "g0") == one.table.chips_on_table()
        report = await audit(session)
        assert report.ok, report.problems


async def writer_engine(db: Database) -> Any:
    """The engine the database's writer runs its batches on (PostgreSQL: its own loop's)."""
    await db.grouped(lambda _session: None)  # started
    assert db._writer_loop is not None and db._writer_loop._engine is not None
    return db._writer_loop._engine


async def test_a_rake_the_table_cannot_pay_is_refused_in_a_batch_alone(
    database: Database,
) -> None:
    """A table's account short of its hand's rake (tampered with): that hand's end is refused
    with the ledger's error, the same on every path, and nothing of it is stored; the other
    hands of its batch, run again one by one, are each stored once (S-AUDIT-2 finds only
    tampered balance, and nothing once it is put back)."""
    ended = await third_hands(database, 6)
    bad = ended[2]
    held = bad.table.chips_on_table() + bad.fields["rake"]  # before the hand's rake
    async with database.transaction() as session:
        await session.execute(
            update(LedgerAccount)
            .where(LedgerAccount.kind == "table", LedgerAccount.owner == bad.table_id)
            .values(balance=7)
        )
    seen = watch(database)
    store = RoomStore(database)
    results = await asyncio.gather(
        *(store.finish_hand(**one.fields) for one in ended), return_exceptions=True
    )
    error = results[2]
    assert isinstance(error, InsufficientChipsError), results
    assert str(error) == f"table {bad.table_id} has 7 chips, cannot pay {bad.fields['rake']}"
    assert [r for r in results if r is not error] == [None] * 5
    assert not seen[0].ok and [c.units for c in seen[1:]] == [1] * 6
    hands = await stored_hands(database)
    assert sorted(hands.pop(bad.table_id)) == ["complete", "complete", "running"]
    assert hands == {one.table_id: ["complete"] * 3 for one in ended if one is not bad}
    async with database.transaction() as session:
        for one in ended:
            if one is not bad:
                assert await balance(session, "table", one.table_id) == one.table.chips_on_table()
        assert await balance(session, "table", bad.table_id) == 7
        await session.execute(  # put back: nothing else is out of place
            update(LedgerAccount)
            .where(LedgerAccount.kind == "table", LedgerAccount.owner == bad.table_id)
            .values(balance=held)
        )
        report = await audit(session)
    assert report.ok, report.problems


async def test_a_hand_end_runs_on_the_drivers_cursor(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing watching the writer's statements, a hand's start and end (each a
    compiled statement) go to the driver's cursor, asyncpg's as SQLite's, not through
    SQLAlchemy's execution (``exec_driver_sql``), and store what they stored (the hand
    complete, its rake taken, the books balanced)."""
    (one,) = await third_hands(database, 1)

    run = Connection.exec_driver_sql

    def refused(connection: Connection, statement: str, *args: Any) -> Any:
        if statement == "BEGIN":  # SQLite's transaction begun (``db._on_sqlite_begin``)
            return run(connection, statement, *args)
        raise AssertionError(f"exec_driver_sql, not the cursor's: {statement[:60]!r}")

    monkeypatch.setattr(Connection, "exec_driver_sql", refused)
    await RoomStore(database).finish_hand(**one.fields)
    monkeypatch.undo()
    hands = await stored_hands(database)
    assert hands == {one.table_id: ["complete"] * 3}
    async with database.transaction() as session:
        assert await balance(session, "table", one.table_id) == one.table.chips_on_table()
        report = await audit(session)
    assert report.ok, report.problems
