"""The chip ledger: S-MONEY-1 (balanced, no overdraft, idempotent), S-MONEY-2 (conservation)."""

import random
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from pokerroom.store.accounts.accounts import STARTING_GRANT, sign_up
from pokerroom.store.audit import audit
from pokerroom.store.db import Database
from pokerroom.store.models import Posting, Transfer
from pokerroom.store.money.ledger import (
    BANK,
    HOUSE,
    IdempotencyConflictError,
    InsufficientChipsError,
    LedgerError,
    TableMove,
    balance,
    move_chips,
    take_rake_sync,
    transfer,
)

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


async def new_player(db: Database, name: str) -> int:
    async with db.transaction() as session:
        account = await sign_up(session, name, "correct horse", now=NOW)
        return account.id


async def test_S_MONEY_1_the_grant_is_a_balanced_transfer(database: Database) -> None:
    ann = await new_player(database, "ann")
    async with database.transaction() as session:
        assert await balance(session, "player", str(ann)) == STARTING_GRANT
        assert await balance(session, *BANK) == -STARTING_GRANT
        total = await session.scalar(select(func.sum(Posting.amount)))
        assert total == 0


async def test_S_MONEY_1_a_buy_in_never_exceeds_the_balance(database: Database) -> None:
    ann = await new_player(database, "ann")
    with pytest.raises(InsufficientChipsError, match="cannot pay 1000001"):
        async with database.transaction() as session:
            await move_chips(session, TableMove.BUY_IN, ann, "t1", STARTING_GRANT + 1, now=NOW)
    async with database.transaction() as session:
        assert await balance(session, "player", str(ann)) == STARTING_GRANT  # unchanged
        assert await session.scalar(select(func.count(Transfer.id))) == 1  # the grant only
        await move_chips(
            session, TableMove.BUY_IN, ann, "t1", STARTING_GRANT, now=NOW
        )  # all of it is fine
        assert await balance(session, "table", "t1") == STARTING_GRANT


async def test_S_MONEY_1_the_same_request_moves_chips_once(database: Database) -> None:
    ann = await new_player(database, "ann")
    for _ in range(3):
        async with database.transaction() as session:
            await move_chips(
                session, TableMove.BUY_IN, ann, "t1", 5_000, now=NOW, key="buy-in:ann:t1:1"
            )
    async with database.transaction() as session:
        assert await balance(session, "player", str(ann)) == STARTING_GRANT - 5_000
        with pytest.raises(IdempotencyConflictError, match="another transfer"):
            await move_chips(
                session, TableMove.BUY_IN, ann, "t1", 6_000, now=NOW, key="buy-in:ann:t1:1"
            )


async def test_unbalanced_or_fractional_transfers_are_refused(database: Database) -> None:
    async with database.transaction() as session:
        with pytest.raises(LedgerError, match="must balance"):
            await transfer(session, "x", {BANK: -5, HOUSE: 4}, now=NOW)
        with pytest.raises(LedgerError, match="whole number"):
            await transfer(session, "x", {BANK: -0.5, HOUSE: 0.5}, now=NOW)  # type: ignore[dict-item]


async def test_S_MONEY_2_conservation_over_random_table_traffic(database: Database) -> None:
    players = [await new_player(database, f"player{k}") for k in range(4)]
    rng = random.Random(7)
    seated: dict[int, int] = {}
    for step in range(120):
        async with database.transaction() as session:
            who = rng.choice(players)
            if who not in seated:
                amount = rng.randint(1, 50_000)
                await move_chips(
                    session, TableMove.BUY_IN, who, "t1", amount, now=NOW, key=f"in:{step}"
                )
                seated[who] = amount
            elif rng.random() < 0.3:
                await move_chips(
                    session,
                    TableMove.CASH_OUT,
                    who,
                    "t1",
                    seated.pop(who),
                    now=NOW,
                    key=f"out:{step}",
                )
            else:
                rake = rng.randint(0, min(300, await balance(session, "table", "t1")))
                # as a hand's end takes it, inside its transaction (finish_hand_sync)
                await session.run_sync(take_rake_sync, "t1", rake, now=NOW, hand_id=None)
                # the rake comes out of somebody's chips at the table
                if rake:
                    loser = rng.choice(list(seated))
                    seated[loser] = max(0, seated[loser] - rake)
        async with database.transaction() as session:
            report = await audit(session, reconcile=False)  # no table behind "t1"
            assert report.ok, report.problems
            assert report.in_circulation == 4 * STARTING_GRANT


async def test_audit_finds_a_tampered_balance(database: Database) -> None:
    ann = await new_player(database, "ann")
    async with database.transaction() as session:
        from sqlalchemy import update

        from pokerroom.store.models import LedgerAccount

        await session.execute(
            update(LedgerAccount).where(LedgerAccount.owner == str(ann)).values(balance=7)
        )
        report = await audit(session)
    assert not report.ok
    assert any("postings add up to" in p for p in report.problems)


async def test_S_MONEY_2_audit_command_on_a_live_database(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import asyncio

    from typer.testing import CliRunner

    from pokerroom.cli import app
    from pokerroom.store.db import sqlite_url

    url = sqlite_url(tmp_path / "room.db")
    db = Database(url)
    await db.migrate()
    await new_player(db, "ann")  # chips at tables: tests/security/test_money.py
    await db.close()
    result = await asyncio.to_thread(CliRunner().invoke, app, ["audit", "--database", url])
    assert result.exit_code == 0, result.output
    assert "every chip is accounted for" in result.output and "1,000,000" in result.output
