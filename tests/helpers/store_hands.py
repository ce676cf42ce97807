"""One hand of a table played through the store, as the server plays it (optionally cut off
mid-hand, as a crash would leave it)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from pokerroom.engine import Action, ActionKind
from pokerroom.history.record import hand_record
from pokerroom.store.accounts.accounts import new_password
from pokerroom.store.db import Database
from pokerroom.store.tables.store import RoomStore, TableSave
from pokerroom.table import Table

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


async def play_hand(
    db: Database, table: Table, rng: random.Random, crash_after: int | None
) -> bool:
    """Play one hand through the store; stop without finishing after ``crash_after`` actions."""
    before = table.to_json()
    table.start_hand(0.0)
    if table.hand is None:
        return False
    deck = list(table.hand.deck)
    store = RoomStore(db)
    started = await store.begin_hand(
        "t1", number=table.hand_number, deck=deck, before=before, now=NOW
    )
    acted = 0
    while table.hand is not None:
        if crash_after is not None and acted >= crash_after:
            return True  # the process dies here: nothing more reaches the store
        seat = table.actor_seat()
        legal = table.hand.legal_actions()
        kind = (
            ActionKind.FOLD
            if rng.random() < 0.3 and legal.call_amount
            else ActionKind.CHECK_OR_CALL
        )
        hand = table.hand
        table.act(table.seats[seat].player, Action(kind), 1.0)
        acted += 1
    await store.finish_hand(
        started=started,
        table_id="t1",
        deck=deck,
        record=hand_record(hand),
        rake=hand.rake,
        cancelled=False,
        snapshot_after=table.to_json(),
        now=NOW,
    )
    return False


def saved(table: Table) -> TableSave:
    return TableSave("t1", {}, table.to_json())


async def seat_player(db: Database, table: Table, name: str, seat: int, amount: int) -> None:
    """Sign up and sit down as the server does: the buy-in, the seat and the table together."""
    store = RoomStore(db)
    account, _ = await store.sign_up(
        name, new_password("correct horse"), display_name=name, now=NOW
    )

    def sit() -> TableSave:
        table.sit(str(account.id), seat, amount, name=name)
        return saved(table)

    await store.seat(
        "t1",
        account.id,
        key=f"sit:{name}",
        buy_in=amount,
        seat=seat,
        joined=None,
        number=table.joined + 1,
        sit=sit,
        now=NOW,
    )
