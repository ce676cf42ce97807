"""``Database.run``: a whole transaction on a synchronous Session, the same on SQLite (on the
database's own thread, one writer at a time) and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from pokerroom.store.audit import audit
from pokerroom.store.db import Database, sqlite_url
from pokerroom.store.models import LedgerAccount
from pokerroom.store.money.ledger import (
    BANK,
    InsufficientChipsError,
    balance,
    ledger_account_sync,
    player_account,
    transfer_sync,
)

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def grant(session: Session, owner: int, amount: int) -> None:
    transfer_sync(session, "grant", {BANK: -amount, player_account(owner): amount}, now=NOW)


async def test_run_commits_what_it_returns_from(database: Database) -> None:
    await asyncio.gather(*(database.run(lambda s, k=k: grant(s, k % 3, 100)) for k in range(30)))
    async with database.transaction() as session:
        assert (await audit(session)).ok
        assert [await balance(session, "player", str(k)) for k in range(3)] == [1000] * 3


async def test_run_rolls_back_everything_when_the_work_raises(database: Database) -> None:
    await database.run(lambda s: grant(s, 1, 500))

    def overdraw(session: Session) -> None:
        grant(session, 2, 50)  # done first, then undone with the rest
        transfer_sync(session, "move", {player_account(1): -600, player_account(2): 600}, now=NOW)

    with pytest.raises(InsufficientChipsError):
        await database.run(overdraw)
    async with database.transaction() as session:
        assert await balance(session, "player", "1") == 500
        assert await balance(session, "player", "2") == 0


async def test_a_transaction_inside_a_transaction_is_refused_not_deadlocked(
    database: Database,
) -> None:
    if not database.is_sqlite:
        pytest.skip("PostgreSQL has no single-writer queue to wait on")
    async with database.transaction():
        with pytest.raises(RuntimeError, match="inside a transaction"):
            await database.run(lambda s: grant(s, 1, 1))


async def test_a_savepoint_does_not_commit_the_transaction_around_it(
    database: Database,
) -> None:
    """The first write of this transaction is a new ledger account, made in a savepoint
    (``ledger_account_sync``); when the transaction fails later, the account goes too."""

    def fails_after(session: Session) -> None:
        ledger_account_sync(session, "player", "ghost")
        raise RuntimeError("the rest of the work failed")

    with pytest.raises(RuntimeError, match="rest of the work"):
        await database.run(fails_after)
    async with database.transaction() as session:
        found = await session.scalar(select(LedgerAccount).where(LedgerAccount.owner == "ghost"))
    assert found is None


async def test_a_transaction_reads_one_snapshot_while_others_commit(
    database: Database,
) -> None:
    """On SQLite a transaction is one snapshot (BEGIN is sent, not left to the driver):
    figures read early and late in it agree, however much other connections commit."""
    if not database.is_sqlite:
        pytest.skip("PostgreSQL reads committed data per statement (its default level)")
    await database.run(lambda s: grant(s, 1, 100))
    other = Database(database.url)
    try:
        async with database.transaction() as session:
            report = await audit(session)  # starts the snapshot
            first = await balance(session, "player", "1")
            await other.run(lambda s: grant(s, 1, 100))
            assert await balance(session, "player", "1") == first == 100
            assert report.ok
        async with database.transaction() as session:
            assert await balance(session, "player", "1") == 200
    finally:
        await other.close()


async def test_sqlite_synchronous_is_normal_unless_set_full_and_a_bad_value_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """WAL with synchronous=NORMAL by default (a killed process loses nothing committed);
    POKERROOM_SQLITE_SYNCHRONOUS=FULL syncs each commit (docs/deploy.md)."""
    for setting, expected in ((None, 1), ("full", 2)):  # SQLite's numbers: NORMAL 1, FULL 2
        if setting is None:
            monkeypatch.delenv("POKERROOM_SQLITE_SYNCHRONOUS", raising=False)
        else:
            monkeypatch.setenv("POKERROOM_SQLITE_SYNCHRONOUS", setting)
        db = Database(sqlite_url(tmp_path / f"{setting}.db"))
        try:
            await db.migrate()

            def pragmas(session: Session) -> tuple[Any, Any]:
                sync = session.execute(text("PRAGMA synchronous")).scalar()
                return sync, session.execute(text("PRAGMA journal_mode")).scalar()

            assert await db.run(pragmas) == (expected, "wal")
        finally:
            await db.close()
    monkeypatch.setenv("POKERROOM_SQLITE_SYNCHRONOUS", "OFF")
    with pytest.raises(ValueError, match="NORMAL or FULL, not 'OFF'"):
        Database(sqlite_url(tmp_path / "off.db"))


@pytest.mark.parametrize("immediate", [True, False])
async def test_a_rooms_transaction_waits_for_another_process_write_instead_of_failing(
    tmp_path: Path, immediate: bool
) -> None:
    """SQLite: the room's transactions (``immediate``) take the write lock as they begin, so a
    write by another process (an operator's command, immediate too) between their read and
    their write makes them wait, not fail; begun deferred, the same transaction fails at its
    write at once."""
    url = sqlite_url(tmp_path / "room.db")
    room, tool = Database(url, immediate=immediate), Database(url, immediate=True)
    await room.migrate()
    try:
        async with room.transaction() as session:
            await session.scalar(select(LedgerAccount.id).limit(1))  # the read first
            other = asyncio.create_task(tool.run(lambda s: grant(s, 2, 5)))
            if immediate:
                await asyncio.sleep(0.2)  # the tool's write waits for the room's lock
                await session.run_sync(lambda s: grant(s, 1, 7))
            else:
                await other  # committed between the room's read and its write
                with pytest.raises(OperationalError, match="database is locked"):
                    await session.run_sync(lambda s: grant(s, 1, 7))
        await other
        async with room.transaction() as session:
            assert await balance(session, "player", "1") == (7 if immediate else 0)
            assert await balance(session, "player", "2") == 5
            assert (await audit(session)).ok
    finally:
        await room.close()
        await tool.close()
