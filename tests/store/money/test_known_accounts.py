"""On PostgreSQL the ledger reads accounts unlocked before locking them (so that none is
created while locks are held); a connection that has seen the accounts exist skips that
read (a round trip at every hand's rake), and an account it knows from a
transaction that was rolled back is created again."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import event

from pokerroom.store.accounts.accounts import STARTING_GRANT, sign_up
from pokerroom.store.audit import audit
from pokerroom.store.db import Database
from pokerroom.store.money.ledger import HOUSE, TableMove, balance, move_chips, take_rake_sync
from tests.store.conftest import postgres_database

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
pytestmark = pytest.mark.postgres


@pytest.fixture
async def postgres() -> AsyncIterator[Database]:
    async with postgres_database() as db:
        yield db


def unlocked_reads(db: Database) -> list[str]:
    """Every unlocked read of ledger accounts by name that ``db`` runs from now on."""
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if statement.startswith("SELECT ledger_accounts.kind, ledger_accounts.owner"):
            seen.append(statement)

    event.listen(db.engine.sync_engine, "before_cursor_execute", record)
    return seen


async def test_known_accounts_are_not_read_unlocked_again(postgres: Database) -> None:
    async with postgres.transaction() as session:
        ann = (await sign_up(session, "ann", "correct horse", now=NOW)).id
        await move_chips(session, TableMove.BUY_IN, ann, "t1", 50_000, now=NOW)
    reads = unlocked_reads(postgres)
    for _ in range(6):  # six hands' rakes, each in a transaction of its own
        async with postgres.transaction() as session:
            await session.run_sync(take_rake_sync, "t1", 100, now=NOW, hand_id=None)
    # Read once on each pooled connection (the sequential transactions here use one or two),
    # when the house's account is first used there: not at every rake.
    assert 1 <= len(reads) <= 2
    async with postgres.transaction() as session:
        assert await balance(session, "table", "t1") == 50_000 - 600
        assert await balance(session, *HOUSE) == 600
        report = await audit(session, reconcile=False)  # no table behind "t1"
        assert report.ok, report.problems


async def test_an_account_known_from_a_rolled_back_transaction_is_created_again(
    postgres: Database,
) -> None:
    async with postgres.transaction() as session:
        ann = (await sign_up(session, "ann", "correct horse", now=NOW)).id
    with pytest.raises(RuntimeError, match="rolled back"):
        async with postgres.transaction() as session:
            # The table's account is created here, seen to exist, and then rolled back.
            await move_chips(session, TableMove.BUY_IN, ann, "t2", 10_000, now=NOW)
            await session.run_sync(take_rake_sync, "t2", 100, now=NOW, hand_id=None)
            raise RuntimeError("rolled back")
    async with postgres.transaction() as session:
        await move_chips(session, TableMove.BUY_IN, ann, "t2", 20_000, now=NOW)
        await session.run_sync(take_rake_sync, "t2", 200, now=NOW, hand_id=None)
    async with postgres.transaction() as session:
        assert await balance(session, "player", str(ann)) == STARTING_GRANT - 20_000
        assert await balance(session, "table", "t2") == 20_000 - 200
        assert await balance(session, *HOUSE) == 200
        report = await audit(session, reconcile=False)
        assert report.ok, report.problems
