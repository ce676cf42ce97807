"""Hands at many tables written by the database writer: tables with a hand over, the hands
stored, the writer's statements watched."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from pokerroom.engine import Action, ActionKind
from pokerroom.history.record import hand_record
from pokerroom.rng import SeededRandomSource
from pokerroom.rules import load_preset
from pokerroom.rules.game import Structure, Variant
from pokerroom.store.accounts.accounts import new_password
from pokerroom.store.db import Database
from pokerroom.store.group_commit import Committed
from pokerroom.store.models import HandRecord
from pokerroom.store.tables.hands import StartedHand
from pokerroom.store.tables.store import RoomStore, TableSave
from pokerroom.table import Table

HOUSE = load_preset("titan")
SPEC = HOUSE.game(Variant.HOLDEM, Structure.NO_LIMIT, 200)


TABLES = 12

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


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


def watch(db: Database) -> list[Committed]:
    seen: list[Committed] = []
    db.writer.observe = seen.append
    return seen
