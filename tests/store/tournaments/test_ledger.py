"""Tournament money in the ledger: buy-in to the prize pool and fee to the house,
refunds, rebuys and add-ons, prizes as places become final; every movement once; the audit
reconciles the pools with the events' stored state."""

from __future__ import annotations

import asyncio

import pytest

from pokerroom.store.accounts.accounts import STARTING_GRANT
from pokerroom.store.audit import audit
from pokerroom.store.db import Database
from pokerroom.store.money.ledger import KeyUsedError, balance
from pokerroom.store.tournaments.statements import (
    FEES,
    Prize,
    TournamentStoreError,
    pool_account,
)
from tests.helpers.store_tournaments import NOW, Event, new_player, play_out


async def money(db: Database, *account: tuple[str, str]) -> list[int]:
    async with db.transaction() as session:
        return [await balance(session, kind, owner) for kind, owner in account]


async def assert_audited(db: Database) -> None:
    async with db.transaction() as session:
        report = await audit(session)
    assert report.ok, report.problems
    assert report.tournaments >= 1


@pytest.fixture
async def players(database: Database) -> list[int]:
    return [await new_player(database, f"player{k}") for k in range(6)]


async def test_registration_pays_the_buy_in_to_the_pool_and_the_fee_to_the_house(
    database: Database, players: list[int]
) -> None:
    event = Event(database)
    await event.create()
    await event.register(players[0], "r1")
    await event.register(players[1], "r2")
    mine, pool, fees = await money(
        database, ("player", str(players[0])), pool_account("sng-1"), FEES
    )
    assert mine == STARTING_GRANT - 1000 - 100
    assert pool == 2 * 1000 and fees == 2 * 100
    await assert_audited(database)


async def test_a_retried_register_is_applied_once(database: Database, players: list[int]) -> None:
    event = Event(database)
    await event.create()
    for _ in range(3):
        assert await event.register(players[0], "same") == str(players[0])
    (mine,) = await money(database, ("player", str(players[0])))
    assert mine == STARTING_GRANT - 1100
    assert len(event.t.entries) == 1
    await assert_audited(database)


async def test_unregistering_refunds_the_buy_in_and_the_fee(
    database: Database, players: list[int]
) -> None:
    event = Event(database)
    await event.create()
    await event.register(players[0], "r1")
    await event.unregister(players[0])
    mine, pool, fees = await money(
        database, ("player", str(players[0])), pool_account("sng-1"), FEES
    )
    assert (mine, pool, fees) == (STARTING_GRANT, 0, 0)
    with pytest.raises(KeyUsedError):  # the old request cannot register again
        await event.register(players[0], "r1")
    with pytest.raises(TournamentStoreError, match="not registered"):
        await event.unregister(players[0])
    await event.register(players[0], "r2")  # a new request may
    (mine,) = await money(database, ("player", str(players[0])))
    assert mine == STARTING_GRANT - 1100
    await assert_audited(database)


async def test_a_register_the_tournament_refuses_moves_nothing(
    database: Database, players: list[int]
) -> None:
    event = Event(database, "sng_heads_up", "hu-1")
    await event.create()
    await event.register(players[0], "a")
    await event.register(players[1], "b")
    with pytest.raises(Exception, match="full"):
        await event.register(players[2], "c")
    (mine,) = await money(database, ("player", str(players[2])))
    assert mine == STARTING_GRANT
    await assert_audited(database)


async def test_rebuys_and_the_add_on_go_to_the_pool_once(
    database: Database, players: list[int]
) -> None:
    event = Event(database, "mtt_rebuy", "rebuy-1")
    await event.create()
    for k, account in enumerate(players):
        await event.register(account, f"r{k}")
    event.t.start(0.0)
    await event.store.save(event.tid, event.snapshot(), status="running", now=NOW)
    entry = str(players[0])

    def rebuy() -> str:
        event.t.rebuy(entry, 1.0)
        return event.snapshot()

    for _ in range(2):  # the retry moves nothing
        await event.store.buy_chips(
            event.tid, players[0], entry=entry, addon=False, number=1, apply=rebuy, now=NOW
        )
    assert event.t.rebuys == 1
    mine, pool = await money(database, ("player", entry), pool_account(event.tid))
    assert mine == STARTING_GRANT - 11000 - 10000
    assert pool == 6 * 10000 + 10000
    await assert_audited(database)


async def test_prizes_empty_the_pool_exactly(database: Database, players: list[int]) -> None:
    event = Event(database)
    await event.create()
    for k, account in enumerate(players):
        await event.register(account, f"r{k}")
    event.t.start(0.0)
    play_out(event.t)
    await event.store.save(event.tid, event.snapshot(), status="finished", now=NOW)
    prizes = [Prize(p.entry, int(p.entry), p.prize) for p in event.t.places()]
    assert await event.store.pay(event.tid, prizes, now=NOW)
    assert await event.store.pay(event.tid, prizes, now=NOW) == []  # paid once
    (pool,) = await money(database, pool_account(event.tid))
    assert pool == 0
    balances = await money(database, *[("player", str(a)) for a in players])
    assert sum(balances) == 6 * STARTING_GRANT - 6 * 100  # only the fees left the players
    await assert_audited(database)


async def test_nothing_is_bought_for_an_event_that_is_over(
    database: Database, players: list[int]
) -> None:
    """A purchase the coordinator would let through for a finished or cancelled event is
    refused by the store: the pool is paid out (or refunded) and would keep its price."""
    event = Event(database, "mtt_rebuy", "rebuy-over")
    await event.create()
    for status in ("finished", "cancelled"):
        await event.store.save(event.tid, event.snapshot(), status=status, now=NOW)
        with pytest.raises(TournamentStoreError, match=f"is {status}: nothing can be bought"):
            await event.store.buy_chips(
                event.tid,
                players[0],
                entry=str(players[0]),
                addon=True,
                number=1,
                apply=event.snapshot,
                now=NOW,
            )
    (mine,) = await money(database, ("player", str(players[0])))
    assert mine == STARTING_GRANT
    await assert_audited(database)


async def test_the_audit_names_a_pool_that_does_not_match(
    database: Database, players: list[int]
) -> None:
    event = Event(database)
    await event.create()
    await event.register(players[0], "r1")
    event.t.register(str(players[1]), 0.0)  # an entry with no money behind it
    await event.store.save(event.tid, event.snapshot(), status="registering", now=NOW)
    async with database.transaction() as session:
        report = await audit(session)
    assert any("prize pool holds 1000" in p for p in report.problems), report.problems
    assert any("1 registrations are stored but its state has 2" in p for p in report.problems)


@pytest.mark.postgres
async def test_parallel_double_register_on_postgres() -> None:
    from tests.store.conftest import drop_postgres, fresh_postgres

    name, url = await fresh_postgres()
    db = Database(url)
    try:
        await db.migrate()
        account = await new_player(db, "ann")
        other = await new_player(db, "bob")
        event = Event(db)
        await event.create()
        same = await asyncio.gather(
            event.register(account, "k"), event.register(account, "k"), return_exceptions=True
        )
        assert same == [str(account), str(account)]
        results = await asyncio.gather(
            event.register(other, "x"), event.register(other, "y"), return_exceptions=True
        )
        assert sorted(type(r).__name__ for r in results) == ["TournamentStoreError", "str"]
        mine, theirs = await money(db, ("player", str(account)), ("player", str(other)))
        assert mine == theirs == STARTING_GRANT - 1100  # each paid once
        assert len(event.t.entries) == 2
        await assert_audited(db)
    finally:
        await db.close()
        await drop_postgres(name)


@pytest.mark.postgres
async def test_a_twin_registration_committed_between_its_looks_is_answered_again() -> None:
    """On PostgreSQL each statement reads what is committed as it starts: a registration
    that looks for its request (none yet) and then for the entry finds the entry made by its
    twin, the same request committed in between. It is the same registration, answered
    again: one entry, paid once."""
    from sqlalchemy import event as orm_event
    from sqlalchemy.util import await_

    from tests.store.conftest import postgres_database

    async with postgres_database() as db:
        account = await new_player(db, "ann")
        tournament = Event(db)
        await tournament.create()
        twin: dict[str, str] = {}

        def twin_commits_first(conn: object, cursor: object, statement: str, *_: object) -> None:
            if "tournament_entries.active =" in statement and not twin:
                twin["entry"] = "pending"  # (its own statements pass straight through)
                twin["entry"] = await_(tournament.register(account, "k"))

        orm_event.listen(db.engine.sync_engine, "before_cursor_execute", twin_commits_first)
        try:
            entry = await tournament.register(account, "k")
        finally:
            orm_event.remove(db.engine.sync_engine, "before_cursor_execute", twin_commits_first)
        assert entry == twin["entry"] == str(account)
        (mine,) = await money(db, ("player", str(account)))
        assert mine == STARTING_GRANT - 1100  # paid once
        assert len(tournament.t.entries) == 1
        await assert_audited(db)
