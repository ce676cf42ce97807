"""Group commit: hands ending at many tables at once are written by one writer
per database in one transaction; a failing unit costs the others nothing (they are
committed one at a time, once each); closing the database drains the writer's queue.
On SQLite and PostgreSQL (the ``database`` fixture), with the audit reconciling (S-AUDIT-2)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from pokerroom.engine import Action, ActionKind
from pokerroom.history.record import hand_record
from pokerroom.rng import SeededRandomSource
from pokerroom.store.accounts import new_password
from pokerroom.store.audit import audit
from pokerroom.store.db import Database
from pokerroom.store.group_commit import Committed, GroupCommit, WriterClosedError
from pokerroom.store.hands import StartedHand
from pokerroom.store.ledger import balance
from pokerroom.store.models import HandPlayer, HandRecord
from pokerroom.store.room_store import RoomStore, TableSave
from pokerroom.table import Table
from tests.store.test_hands import HOUSE, SPEC

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TABLES = 12


@dataclass
class Ended:
    """A table whose hand is over in memory: what its end writes."""

    table_id: str
    table: Table
    fields: dict[str, Any]


async def tables_with_hands_over(db: Database, count: int = TABLES) -> list[Ended]:
    """``count`` tables, two players each (bought in through the ledger), each with one hand
    begun in the store and played to its end in memory, not yet written."""
    store = RoomStore(db)
    accounts = []
    for name in ("ann", "bob"):
        account, _ = await store.sign_up(
            name, new_password("correct horse"), display_name=name, now=NOW
        )
        accounts.append(account.id)
    ended = []
    for k in range(count):
        table_id = f"g{k}"
        table = Table(spec=SPEC, house=HOUSE, seats=6, rng=SeededRandomSource(k), name=table_id)
        await store.save_table(table_id, TableSave(table_id, {}, table.to_json()), now=NOW)
        for seat, account in enumerate(accounts, start=1):

            def sit(
                account: int = account, seat: int = seat, table: Table = table, name: str = table_id
            ) -> TableSave:
                table.sit(str(account), seat, 10_000, name=str(account))
                return TableSave(name, {}, table.to_json())

            await store.seat(
                table_id,
                account,
                key=f"{table_id}:{account}",
                buy_in=10_000,
                seat=seat,
                joined=None,
                number=table.joined + 1,
                sit=sit,
                now=NOW,
            )
        before = table.to_json()
        table.start_hand(0.0)
        assert table.hand is not None
        started = await store.begin_hand(
            table_id, number=table.hand_number, deck=list(table.hand.deck), before=before, now=NOW
        )
        ended.append(play_out(Ended(table_id, table, {}), started))
    return ended


def play_out(one: Ended, started: StartedHand) -> Ended:
    """The hand dealt at ``one``'s table (begun in the store as ``started``) checked down
    (or called) to its end in memory: the table, with what its end writes."""
    table = one.table
    hand = table.hand
    assert hand is not None
    deck, stacks = list(hand.deck), list(hand.starting_stacks)
    dealt = [(int(table.seats[n].player), n) for n in table.hand_seats]
    while table.hand is not None:
        seat = table.actor_seat()
        table.act(table.seats[seat].player, Action(ActionKind.CHECK_OR_CALL), 1.0)
    players = [
        (account, n, position, stacks[position], hand.stacks[position])
        for position, (account, n) in enumerate(dealt)
    ]
    fields = {
        "started": started,
        "table_id": one.table_id,
        "deck": deck,
        "record": hand_record(hand),
        "rake": hand.rake,
        "cancelled": False,
        "snapshot_after": table.to_json(),
        "now": NOW,
        "players": players,
    }
    return Ended(one.table_id, table, fields)


async def stored_hands(db: Database) -> dict[str, list[str]]:
    """Each table's hands' statuses, as stored."""
    async with db.transaction() as session:
        rows = (await session.execute(select(HandRecord.table_id, HandRecord.status))).all()
    found: dict[str, list[str]] = {}
    for table_id, status in rows:
        found.setdefault(table_id, []).append(status)
    return found


async def check_books(db: Database, ended: list[Ended]) -> None:
    """S-AUDIT-2: every table's ledger account holds the chips its snapshot seats."""
    async with db.transaction() as session:
        for one in ended:
            assert await balance(session, "table", one.table_id) == one.table.chips_on_table()
        report = await audit(session)
    assert report.ok, report.problems


def watch(db: Database) -> list[Committed]:
    seen: list[Committed] = []
    db.writer.observe = seen.append
    return seen


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
