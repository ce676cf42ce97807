"""One hand of a table played through the store, as the server plays it (optionally cut off
mid-hand, as a crash would leave it)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from pokerroom.engine import Action, ActionKind
from pokerroom.history.record import hand_record
from pokerroom.store.accounts.accounts import new_password
from pokerroom.store.db import Database
from pokerroom.store.tables.results import HandToCount
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


def _choose(table: Table, rng: random.Random) -> Action:
    legal = table.hand.legal_actions()
    roll = rng.random()
    if roll < 0.2 and legal.call_amount:
        return Action(ActionKind.FOLD)
    if roll < 0.4 and legal.min_raise_to is not None:
        return Action(ActionKind.BET_OR_RAISE, legal.min_raise_to)
    return Action(ActionKind.CHECK_OR_CALL)


async def play_counted_hand(
    db: Database, table: Table, rng: random.Random, *, now: datetime, again: bool = False
) -> None:
    """One hand of table t1 through the store as the server plays it (folds, calls and
    raises drawn from ``rng``), its players and their facts (``hand_results``) included;
    ``again``: its end run twice, as a retried batch would."""
    store = RoomStore(db)
    before = table.to_json()
    table.start_hand(0.0)
    hand = table.hand
    players = [
        (int(table.seats[n].player), n, position, hand.starting_stacks[position])
        for position, n in enumerate(table.hand_seats)
    ]
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
