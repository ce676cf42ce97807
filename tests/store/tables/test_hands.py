"""Hands in the store: committed whole, cancelled and refunded after a crash (S-CRASH-1).

A crash is simulated by dropping the table mid-hand without finishing it; the
real kill -9 of a running server is the server's test. Recovery cancels the hands
still running and resumes each table from its last snapshot, cancelling the hand
in it through the table (R-DECK-5). The ledger must agree with the tables at every
step, and the audit must pass (S-MONEY-2).
"""

import json
import random

from sqlalchemy import select

from pokerroom.history.record import read_record
from pokerroom.rng import SeededRandomSource
from pokerroom.store.audit import audit
from pokerroom.store.db import Database
from pokerroom.store.models import HandRecord
from pokerroom.store.money.ledger import balance
from pokerroom.store.tables.hands import deck_commitment
from pokerroom.store.tables.store import Reopened, RoomStore, TableSave
from pokerroom.table import Table
from pokerroom.table.events import SeatLeft
from tests.helpers.store_hands import NOW, play_hand, saved, seat_player
from tests.helpers.writer import HOUSE, SPEC


async def add_chips(db: Database, table: Table, player: str, amount: int, key: str) -> None:
    """Chips added as the server adds them: the buy-in and the table together."""

    def add() -> TableSave:
        table.add_chips(player, amount)
        return saved(table)

    joined = table.seat_of(player).joined
    await RoomStore(db).add_chips(
        "t1", int(player), key=key, amount=amount, joined=joined, add=add, now=NOW
    )


async def check_books(db: Database, table: Table) -> None:
    async with db.transaction() as session:
        assert await balance(session, "table", "t1") == table.chips_on_table()
        report = await audit(session)
        assert report.ok, report.problems


async def recover(db: Database) -> Table:
    """What the server does on start (``RoomStore.reopen_tables``): cancel interrupted hands,
    resume each table from its snapshot, cancelling the hand in it (R-DECK-5)."""
    tables: list[Table] = []

    def restore(table_id: str, config: dict[str, object], snapshot: str, last: int) -> Reopened:
        table = Table.from_json(snapshot, rng=SeededRandomSource(5))
        events = table.cancel_hand("server restart") if table.hand is not None else []
        table.hand_number = max(table.hand_number, last)
        tables.append(table)
        left = [(int(e.player), e.stack) for e in events if isinstance(e, SeatLeft)]
        return Reopened(saved(table), left)

    await RoomStore(db).reopen_tables(restore, list, now=NOW)
    (table,) = tables
    return table


async def test_S_CRASH_1_hands_cut_off_at_random_moments_are_cancelled_and_refunded(
    database: Database,
) -> None:
    table = Table(spec=SPEC, house=HOUSE, seats=6, rng=SeededRandomSource(3))
    for k, seat in enumerate((1, 3, 5)):
        await seat_player(database, table, f"player{k}", seat, 20_000)
    rng = random.Random(11)
    crashes = 0
    for round_ in range(30):
        stacks_before = {s.number: s.stack for s in table.seats.values()}
        crash_after = rng.randint(0, 6) if rng.random() < 0.5 else None
        crashed = await play_hand(database, table, rng, crash_after)
        if crashed:
            crashes += 1
            table = await recover(database)
            # Every chip the hand held is back with its owner; nothing else changed.
            assert {s.number: s.stack for s in table.seats.values()} == stacks_before
        await check_books(database, table)
        for seat in list(table.seats.values()):  # keep everyone in chips
            if seat.stack < table.min_buy_in:
                key = f"top:{round_}:{seat.number}"
                await add_chips(database, table, seat.player, 20_000 - seat.stack, key)
    assert crashes >= 5
    async with database.transaction() as session:
        statuses = (await session.scalars(select(HandRecord.status))).all()
        assert "running" not in statuses and statuses.count("cancelled") == crashes


async def test_a_player_who_sits_down_during_a_crashed_hand_keeps_the_buy_in(
    database: Database,
) -> None:
    table = Table(spec=SPEC, house=HOUSE, seats=6, rng=SeededRandomSource(3))
    for k, seat in enumerate((1, 3)):
        await seat_player(database, table, f"player{k}", seat, 20_000)
    before = {s.number: s.stack for s in table.seats.values()}
    assert await play_hand(database, table, random.Random(1), crash_after=0)  # blinds are in
    await seat_player(database, table, "latecomer", 5, 15_000)  # saved with the hand in it
    table = await recover(database)
    assert {s.number: s.stack for s in table.seats.values()} == {**before, 5: 15_000}
    await check_books(database, table)


async def test_S_AUDIT_1_a_finished_hand_is_stored_whole(database: Database) -> None:
    table = Table(spec=SPEC, house=HOUSE, seats=6, rng=SeededRandomSource(4))
    for k, seat in enumerate((1, 2, 3)):
        await seat_player(database, table, f"player{k}", seat, 20_000)
    assert not await play_hand(database, table, random.Random(2), crash_after=None)
    async with database.transaction() as session:
        record = (await session.scalars(select(HandRecord))).one()
        reveal = json.loads(record.deck_reveal)
        assert record.status == "complete" and json.loads(record.record)["version"] == 1
        assert (
            deck_commitment(reveal["deck"], bytes.fromhex(reveal["salt"])) == record.deck_commitment
        )
        # The record replays to the hand's full event log and the same final stacks.
        hand = read_record(record.record)
        kinds = [e.kind for e in hand.events]
        assert kinds[0] == "hand_started" and "hand_ended" in kinds
        assert list(hand.deck) == reveal["deck"]
        assert dict(zip(hand.seats, hand.stacks, strict=True)) == {
            s.number: s.stack for s in table.seats.values()
        }
