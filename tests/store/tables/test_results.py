"""My results in the store: the rows written with each hand's end add up to the same page
as a replay of every record, filters and all; a hand's end run again writes no row twice;
the rake the players paid adds up to the rake the hands took."""

from __future__ import annotations

import random
from datetime import timedelta

from sqlalchemy import func, select

from pokerroom.history.results import Filters
from pokerroom.rng import SeededRandomSource
from pokerroom.store.audit import audit
from pokerroom.store.db import Database
from pokerroom.store.models import HandRecord, HandResult
from pokerroom.store.tables.results import (
    backfill_sync,
    results_page_sync,
    scan_page_sync,
)
from pokerroom.table import Table
from tests.helpers.store_hands import NOW, play_counted_hand, seat_player
from tests.helpers.writer import HOUSE, SPEC


async def test_the_rows_give_the_page_a_replay_of_the_records_gives(database: Database) -> None:
    table = Table(spec=SPEC, house=HOUSE, seats=6, rng=SeededRandomSource(7))
    for k, seat in enumerate((1, 2, 4, 5)):
        await seat_player(database, table, f"player{k}", seat, 20_000)
    rng = random.Random(3)
    for number in range(40):
        await play_counted_hand(
            database, table, rng, now=NOW + timedelta(days=number // 15), again=number == 5
        )
    async with database.transaction() as session:
        account = int(table.seats[1].player)
        rows = await session.scalar(select(func.count()).select_from(HandResult))
        dealt = await session.scalar(select(func.count()).select_from(HandRecord))
        assert rows == 4 * dealt == 160
        for filters in (
            Filters(),
            Filters(position="BTN"),
            Filters(since=(NOW + timedelta(days=1)).date()),
            Filters(game="NT", big_blind=SPEC.stakes.big_blind),
        ):
            by_rows = await session.run_sync(results_page_sync, account, filters, 7)
            replayed = await session.run_sync(scan_page_sync, account, filters, 7)
            assert by_rows.as_json() == replayed.as_json()
        page = await session.run_sync(results_page_sync, account)
        assert page.cash.overall.hands == 40 and page.tournament.overall.hands == 0
        assert len(page.cash.by_day) == 3
        # Each point's last hand is the player's newest of its run (or day), at this table.
        assert page.cash.by_day[-1].hand == await session.scalar(
            select(func.max(HandResult.hand_id)).where(HandResult.account_id == account)
        )
        assert {p.table for p in (*page.cash.by_hands, *page.cash.by_day)} == {"t1"}
        # The rake each player paid adds up to the rake the hands took (S-AUDIT-2).
        paid = await session.scalar(select(func.sum(HandResult.rake_paid)))
        taken = await session.scalar(select(func.sum(HandRecord.rake)))
        assert paid == taken and taken > 0
        report = await audit(session)
        assert report.ok, report.problems


async def test_backfill_counts_hands_stored_before_the_rows(database: Database) -> None:
    table = Table(spec=SPEC, house=HOUSE, seats=6, rng=SeededRandomSource(8))
    for k, seat in enumerate((1, 3)):
        await seat_player(database, table, f"player{k}", seat, 20_000)
    rng = random.Random(4)
    for _ in range(6):
        await play_counted_hand(database, table, rng, now=NOW)
    account = int(table.seats[1].player)
    async with database.transaction() as session:
        before = (await session.run_sync(results_page_sync, account)).as_json()
        await session.execute(HandResult.__table__.delete())
        assert await session.run_sync(lambda s: backfill_sync(s, batch=4)) == 4
        assert await session.run_sync(lambda s: backfill_sync(s, batch=4)) == 2
        assert await session.run_sync(lambda s: backfill_sync(s, batch=4)) == 0
        assert (await session.run_sync(results_page_sync, account)).as_json() == before
