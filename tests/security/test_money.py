"""Attacks on the room's chips, replayed over real sockets against the real server on SQLite
and PostgreSQL: a request key names one operation (S-MONEY-3), every
cash-out is its own operation, and the audit reconciles the books with the tables
(S-AUDIT-2) after each attack, and names what it finds when they do not match."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update
from typer.testing import CliRunner

from pokerroom.bots.client import run_bot
from pokerroom.bots.strategy import RuleBot
from pokerroom.cli.app import app
from pokerroom.server.tables.room import Room, config_json
from pokerroom.store.accounts.accounts import sign_up
from pokerroom.store.db import Database, sqlite_url
from pokerroom.store.models import HandRecord, LedgerAccount, Sitting, TableRecord, Transfer
from pokerroom.store.money.ledger import balance as balance_of
from pokerroom.store.money.ledger import join
from pokerroom.store.tables.hands import save_table
from tests.helpers.attacks import GRANT, balance, handled, refused, sit
from tests.helpers.audit import assert_books_balance, audit_database
from tests.helpers.room_tables import ann_and_bob_seated, table_config
from tests.server.conftest import Person, Server, person

NOW = datetime(2026, 12, 1, tzinfo=UTC)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def room(request: pytest.FixtureRequest) -> Server:
    """The attacked room, on each database."""
    name = "server" if request.param == "sqlite" else "postgres_server"
    running: Server = request.getfixturevalue(name)
    return running


async def stand(someone: Person, table: str) -> None:
    await someone.send(type="leave", table=table)
    await someone.until(lambda f: f.get("you") is None)


async def column(server: Server, query: Any) -> list[Any]:
    """The values of a one-column query on the room's database."""
    db = Database(server.database)
    try:
        async with db.transaction() as session:
            return list(await session.scalars(query))
    finally:
        await db.close()


def seat_of(server: Server, table: str, someone: Person) -> int | None:
    seat: int | None = server.room.actors[table].table.seat_number(str(someone.account_id))
    return seat


async def test_S_MONEY_3_a_join_key_reused_after_leaving_is_refused(room: Server) -> None:
    """The attack: join with key K, leave, join with K again: seated for free. Now the
    retry while seated is the same seat, charged once; after the leave K is refused."""
    await room.room.open_table(table_config("m1"))
    eve = await person(room.base, "eve")
    await eve.send(type="watch", table="m1")
    await sit(eve, "m1", 1, 20_000, "K")
    await eve.send(type="join", table="m1", seat=1, buy_in=20_000, request="K")  # a retry
    await handled(eve, "m1")
    assert seat_of(room, "m1", eve) == 1
    assert await balance(room, eve) == GRANT - 20_000  # charged once
    await stand(eve, "m1")
    assert await balance(room, eve) == GRANT
    for _ in range(3):  # the attack, repeated
        error = await refused(eve, type="join", table="m1", seat=1, buy_in=20_000, request="K")
        assert "already used" in error and "sitting that has ended" in error
    assert seat_of(room, "m1", eve) is None
    assert await balance(room, eve) == GRANT
    await assert_books_balance(room)


async def test_S_MONEY_3_a_retried_join_is_the_same_join_or_refused(room: Server) -> None:
    """A retry gets the same seat and moves no chips; the same key asking for another
    amount or another seat is another operation and is refused."""
    await room.room.open_table(table_config("m2"))
    eve = await person(room.base, "eve")
    await eve.send(type="watch", table="m2")
    await sit(eve, "m2", 2, 10_000, "K")
    error = await refused(eve, type="join", table="m2", seat=2, buy_in=15_000, request="K")
    assert "moved 10000 chips, not 15000" in error
    error = await refused(eve, type="join", table="m2", seat=3, buy_in=10_000, request="K")
    assert "seat 2, not seat 3" in error
    await eve.send(type="join", table="m2", seat=2, buy_in=10_000, request="K")
    await handled(eve, "m2")
    assert len([f for f in eve.frames if f.get("type") == "error"]) == 2  # the retry: none
    assert seat_of(room, "m2", eve) == 2
    assert room.room.actors["m2"].table.seats[2].stack == 10_000
    assert await balance(room, eve) == GRANT - 10_000
    await assert_books_balance(room)


@pytest.mark.parametrize("amounts", [(10_000, 10_000), (10_000, 12_000)])
async def test_S_MONEY_3_join_leave_join_leave_returns_every_chip(
    room: Server, amounts: tuple[int, int]
) -> None:
    """Two sittings at one seat with no hand between: each cash-out is its own operation."""
    await room.room.open_table(table_config("m3"))
    ann = await person(room.base, "ann")
    await ann.send(type="watch", table="m3")
    for n, amount in enumerate(amounts):
        await sit(ann, "m3", 4, amount, f"join-{n}")
        assert await balance(room, ann) == GRANT - amount
        await stand(ann, "m3")
        await handled(ann, "m3")
        assert await balance(room, ann) == GRANT
    assert not [f for f in ann.frames if f.get("type") == "error"]
    keys = await column(room, select(Transfer.idempotency_key).where(Transfer.kind == "cash_out"))
    assert len(keys) == len(set(keys)) == 2
    await assert_books_balance(room)


async def test_S_MONEY_3_a_restarted_bot_does_not_reuse_its_keys(room: Server) -> None:
    """The built-in bots once numbered their keys from 1 on every start: a restarted bot's
    join replayed the old one, seating it with chips nobody paid for."""
    await room.room.open_table(table_config("m4", seats=2))
    for hands in (1, 2, 3):  # three starts of the same two bots
        await asyncio.wait_for(
            asyncio.gather(
                *(
                    run_bot(
                        room.base,
                        f"robot{k}",
                        RuleBot(random.Random(k)),
                        table="m4",
                        password="robot password",  # the same account at every start
                        hands=hands,
                        rng=random.Random(k),
                    )
                    for k in range(2)
                )
            ),
            timeout=60,
        )
    actor = room.room.actors["m4"]
    for _ in range(600):  # bounded (30 s): the last leaves are handled within moments
        # Gone from the seats, and the hand end that cashed them out stored (a leave at a
        # hand's end is written with it, by the writer, a moment after the seat is freed).
        if not actor.table.seats and actor.hand_ends.ending is None:
            break
        await asyncio.sleep(0.05)
    assert not actor.table.seats and actor.hand_ends.ending is None
    # A leave between hands frees the seat, then awaits its cash-out in the same turn: the
    # turn is over once the task has come round again (woken, so that it does).
    turn = actor.turns
    actor.wake()
    for _ in range(600):  # bounded (30 s)
        if actor.turns > turn:
            break
        await asyncio.sleep(0.05)
    assert actor.turns > turn
    keys = await column(
        room, select(Transfer.idempotency_key).where(Transfer.idempotency_key.like("join:%"))
    )
    held = await column(
        room,
        select(LedgerAccount.balance).where(
            LedgerAccount.kind == "table", LedgerAccount.owner == "m4"
        ),
    )
    assert len(keys) == len(set(keys)) >= 6  # a new key, and a new buy-in, for every join
    assert held == [0]  # everyone left with their chips
    await assert_books_balance(room)


async def test_S_MONEY_3_a_reused_add_chips_key_moves_chips_once(room: Server) -> None:
    await room.room.open_table(table_config("m5"))
    ann = await person(room.base, "ann")
    await ann.send(type="watch", table="m5")
    await sit(ann, "m5", 1, 4_000, "j1")
    await ann.send(type="add_chips", table="m5", amount=5_000, request="a1")
    await ann.until(lambda f: f["seats"][0]["stack"] == 9_000)
    await ann.send(type="add_chips", table="m5", amount=5_000, request="a1")  # a retry
    await handled(ann, "m5")
    error = await refused(ann, type="add_chips", table="m5", amount=3_000, request="a1")
    assert "moved 5000 chips, not 3000" in error
    assert room.room.actors["m5"].table.seats[1].stack == 9_000
    assert await balance(room, ann) == GRANT - 9_000
    await stand(ann, "m5")
    await sit(ann, "m5", 1, 4_000, "j2")
    for amount in (5_000, 3_000):  # the old key, in a new sitting: never again
        error = await refused(ann, type="add_chips", table="m5", amount=amount, request="a1")
        assert "already used" in error
    assert room.room.actors["m5"].table.seats[1].stack == 4_000
    assert await balance(room, ann) == GRANT - 4_000
    await assert_books_balance(room)


async def test_S_AUDIT_2_the_audit_names_every_planted_difference(room: Server) -> None:
    """What the attacks left behind, planted directly: each difference is named."""
    await room.room.open_table(table_config("m6"))
    await room.room.open_table(table_config("m7"))
    ann = await person(room.base, "ann")
    bob = await person(room.base, "bob")
    for someone, table in ((ann, "m6"), (bob, "m7")):
        await someone.send(type="watch", table=table)
        await sit(someone, table, 1, 10_000, "j")
    await assert_books_balance(room)
    result = await asyncio.to_thread(
        CliRunner().invoke, app, ["audit", "--database", room.database]
    )
    assert result.exit_code == 0 and "every chip is accounted for" in result.output
    assert "tables reconciled: 2 (20,000 chips seated)" in result.output
    db = Database(room.database)
    try:
        async with db.transaction() as session:
            # Chips seated that the ledger never received (a free seat).
            record = await session.get(TableRecord, "m6")
            assert record is not None
            snapshot = json.loads(record.snapshot)
            snapshot["seats"][0]["stack"] += 20_000
            record.snapshot = json.dumps(snapshot)
            # A balance that is not the sum of its postings.
            await session.execute(
                update(LedgerAccount)
                .where(LedgerAccount.kind == "player", LedgerAccount.owner == str(bob.account_id))
                .values(balance=LedgerAccount.balance + 777)
            )
            # A seat gone from its table's snapshot without its cash-out.
            other = await session.get(TableRecord, "m7")
            assert other is not None
            emptied = json.loads(other.snapshot)
            emptied["seats"] = []
            other.snapshot = json.dumps(emptied)
            # A hand whose rake the house never got.
            started = (await session.scalars(select(HandRecord).limit(1))).first()
            assert started is None
            sitting = (await session.scalars(select(Sitting).limit(1))).first()
            assert sitting is not None
            session.add(
                HandRecord(
                    table_id="m6",
                    number=99,
                    status="complete",
                    deck_commitment="0" * 64,
                    rake=300,
                    started_at=sitting.started_at,
                )
            )
    finally:
        await db.close()
    report = await audit_database(room.database)
    problems = "\n".join(report.problems)
    assert "table m6: the ledger holds 10000 chips but 30000 are seated there" in problems
    assert "table m7: the ledger holds 10000 chips but 0 are seated there" in problems
    assert f"player {bob.account_id}: balance" in problems and "add up to" in problems
    assert f"of player {bob.account_id} is open but the player has no such seat" in problems
    assert "house rake: balance 0 but the hands' rake is 300" in problems
    assert "(table m6 #99): rake 300 but 0 was booked" in problems
    assert len(report.problems) == 6 + 1, problems  # and the ledger no longer sums to zero
    result = await asyncio.to_thread(
        CliRunner().invoke, app, ["audit", "--database", room.database]
    )
    assert result.exit_code == 1
    for line in ("table m6", "table m7", f"player {bob.account_id}", "house rake"):
        assert line in result.output


async def test_S_AUDIT_2_chips_in_a_hand_in_progress_are_the_tables(room: Server) -> None:
    """A join during a hand stores the table with the hand in it: the blinds in its pot
    are still the table's chips, and the audit reconciles them."""
    ann, _bob = await ann_and_bob_seated(room, "m8", (1, 2))
    await ann.until(lambda f: f["hand"] is not None)
    carol = await person(room.base, "carol")
    await carol.send(type="watch", table="m8")
    await sit(carol, "m8", 3, 10_000, "j")
    snapshots = await column(room, select(TableRecord.snapshot).where(TableRecord.id == "m8"))
    assert json.loads(snapshots[0])["hand"] is not None  # stored mid-hand
    report = await assert_books_balance(room)
    assert report.seated == 30_000


async def test_S_CRASH_1_a_player_leaving_during_a_hand_cut_off_by_a_crash_is_paid(
    tmp_path: Path,
) -> None:
    """Ann asks to leave during a hand and the server dies: on restart the hand is
    cancelled and she stands up, and her chips must follow her to her balance, not stay
    behind in the table's account with her seat gone."""
    url = sqlite_url(tmp_path / "room.db")
    db = Database(url)
    await db.migrate()
    config = table_config("m9")
    table = config.build()
    async with db.transaction() as session:
        people = [await sign_up(session, name, "correct horse", now=NOW) for name in ("ann", "bob")]
        for seat, someone in enumerate(people, start=1):
            number = table.joined + 1
            key = f"join:m9:{someone.id}:k"
            await join(
                session, someone.id, "m9", 10_000, seat=seat, number=number, now=NOW, key=key
            )
            table.sit(str(someone.id), seat, 10_000, name=someone.username)
        table.start_hand(0.0)
        waiting = next(n for n in (1, 2) if n != table.actor_seat())
        leaver = people[waiting - 1]
        assert table.leave(str(leaver.id), 0.0) == []  # not their turn: they go after the hand
        await save_table(
            session, "m9", name="m9", config=config_json(config), snapshot=table.to_json(), now=NOW
        )
    await db.close()
    room = Room(Database(url))
    await room.start(demo=False)
    await room.stop()
    report = await audit_database(url)
    assert report.ok, report.problems
    db = Database(url)
    try:
        async with db.transaction() as session:
            assert await balance_of(session, "player", str(leaver.id)) == GRANT
    finally:
        await db.close()
