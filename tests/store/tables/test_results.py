"""My results in the store: the rows written with each hand's end add up to the same page
as a replay of every record, filters and all; a hand's end run again writes no row twice;
the rake the players paid adds up to the rake the hands took."""

from __future__ import annotations

import random
from datetime import timedelta

from sqlalchemy import func, select

from pokerroom.engine import Action, ActionKind
from pokerroom.history.record import hand_record
from pokerroom.history.results import Filters
from pokerroom.rng import SeededRandomSource
from pokerroom.store.audit import audit
from pokerroom.store.db import Database
from pokerroom.store.models import HandRecord, HandResult
from pokerroom.store.tables.results import (
    HandToCount,
    backfill_sync,
    results_page_sync,
    scan_page_sync,
)
from pokerroom.store.tables.store import RoomStore
from pokerroom.table import Table
from tests.helpers.store_hands import NOW, seat_player
from tests.helpers.writer import HOUSE, SPEC


def _choose(table: Table, rng: random.Random) -> Action:
    legal = table.hand.legal_actions()
    roll = rng.random()
    if roll < 0.2 and legal.call_amount:
        return Action(ActionKind.FOLD)
    if roll < 0.4 and legal.min_raise_to is not None:
        return Action(ActionKind.BET_OR_RAISE, legal.min_raise_to)
    return Action(ActionKind.CHECK_OR_CALL)


async def _play(db: Database, table: Table, rng: random.Random, day: int, again: bool) -> None:
    """One hand through the store as the server plays it, its players' facts included."""
    store = RoomStore(db)
    before = table.to_json()
    table.start_hand(0.0)
    hand = table.hand
    players = [
        (int(table.seats[n].player), n, position, hand.starting_stacks[position])
        for position, n in enumerate(table.hand_seats)
    ]
    now = NOW + timedelta(days=day)
    started = await store.begin_hand(
        "t1", number=table.hand_number, deck=list(hand.deck), before=before, now=now
    )
    while table.hand is not None:
        seat = table.actor_seat()
        table.act(table.seats[seat].player, _choose(table, rng), 1.0)
    fields = {
        "started": started,
        "table_id": "t1",
        "deck": list(hand.deck),
        "record": hand_record(hand),
        "rake": hand.rake,
        "cancelled": False,
        "snapshot_after": table.to_json(),
        "now": now,
        "players": [(a, s, p, b, hand.stacks[p]) for a, s, p, b in players],
        "to_count": HandToCount(hand, [(a, p) for a, _, p, _ in players], "t1", False),
    }
    for _ in range(2 if again else 1):  # run again: the same end, nothing twice
        await store.finish_hand(**fields)


async def test_the_rows_give_the_page_a_replay_of_the_records_gives(database: Database) -> None:
    table = Table(spec=SPEC, house=HOUSE, seats=6, rng=SeededRandomSource(7))
    for k, seat in enumerate((1, 2, 4, 5)):
        await seat_player(database, table, f"player{k}", seat, 20_000)
    rng = random.Random(3)
    for number in range(40):
        await _play(database, table, rng, day=number // 15, again=number == 5)
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
        await _play(database, table, rng, day=0, again=False)
    account = int(table.seats[1].player)
    async with database.transaction() as session:
        before = (await session.run_sync(results_page_sync, account)).as_json()
        await session.execute(HandResult.__table__.delete())
        assert await session.run_sync(lambda s: backfill_sync(s, batch=4)) == 4
        assert await session.run_sync(lambda s: backfill_sync(s, batch=4)) == 2
        assert await session.run_sync(lambda s: backfill_sync(s, batch=4)) == 0
        assert (await session.run_sync(results_page_sync, account)).as_json() == before
