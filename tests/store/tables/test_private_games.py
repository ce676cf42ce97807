"""R-PRIV-1 in the store, on SQLite and PostgreSQL: a private game with its unique code and
invite, the requests and the host's decisions, its acts, its ledger read from the room's own
ledger transfers (buy-in, top-up, cash-out per sitting), and its end closing its table."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from pokerroom.rng import SeededRandomSource
from pokerroom.rules import load_preset
from pokerroom.rules.game import Structure, Variant
from pokerroom.store.accounts.accounts import new_password
from pokerroom.store.audit import audit
from pokerroom.store.db import Database
from pokerroom.store.models import TableRecord
from pokerroom.store.tables.private_games import (
    CodeTakenError,
    PrivateGamesStore,
    PrivateSettings,
)
from pokerroom.store.tables.store import RoomStore, TableSave
from pokerroom.table import Table

NOW = datetime(2026, 12, 5, 15, 0, tzinfo=UTC)
TABLE = "p_0123456789ab"
SETTINGS = PrivateSettings(
    name="Friday", preset="titan", variant="holdem", structure="no_limit", seats=6, big_blind=200
)


async def account(store: RoomStore, name: str) -> int:
    created, _ = await store.sign_up(
        name, new_password("correct horse"), display_name=name, now=NOW
    )
    return created.id


def a_table() -> Table:
    house = load_preset("titan")
    spec = house.game(Variant.HOLDEM, Structure.NO_LIMIT, 200)
    return Table(spec=spec, house=house, seats=6, rng=SeededRandomSource(1), name="Friday")


async def test_R_PRIV_1_a_game_its_code_its_requests_and_its_acts(database: Database) -> None:
    room, games = RoomStore(database), PrivateGamesStore(database)
    ann, bob = await account(room, "ann"), await account(room, "bob")
    made = await games.create(
        TABLE, host=ann, code="K7QM2XP", invite="i" * 43, settings=SETTINGS, big_blind=200, now=NOW
    )
    assert made.host_name == "ann" and made.big_blind == 200 and not made.paused
    with pytest.raises(CodeTakenError):  # the code is another game's: nothing is stored
        await games.create(
            "p_other",
            host=bob,
            code="K7QM2XP",
            invite="j" * 43,
            settings=SETTINGS,
            big_blind=200,
            now=NOW,
        )
    assert await games.game("p_other") is None
    assert await games.find(code="K7QM2XP") == TABLE
    assert await games.find(invite="i" * 43) == TABLE
    assert await games.find(code="K7QM2XQ") is None
    assert await games.ask(TABLE, bob, "pending", now=NOW) == "pending"
    assert await games.ask(TABLE, bob, "pending", now=NOW) == "pending"  # asked once
    later = NOW + timedelta(minutes=1)
    assert await games.decide(TABLE, bob, "denied", host=ann, act="deny", now=later)
    assert await games.ask(TABLE, bob, "pending", now=later) == "pending"  # asks again
    assert await games.decide(TABLE, bob, "approved", host=ann, act="approve", now=later)
    assert not await games.decide(TABLE, 999, "approved", host=ann, act="approve", now=later)
    members = {m.account: m.status for m in await games.members(TABLE)}
    assert members == {ann: "approved", bob: "approved"}
    await games.change(
        TABLE,
        host=ann,
        act="stakes",
        detail={"big_blind": 400},
        now=later,
        big_blind=400,
        paused=True,
        bomb_pot_next=2,
    )
    stored = await games.game(TABLE)
    assert stored is not None and stored.big_blind == 400 and stored.paused
    assert stored.bomb_pot_next == 2
    await games.dealt_bomb_pot(TABLE)
    stored = await games.game(TABLE)
    assert stored is not None and stored.bomb_pot_next == 0
    acts = await games.acts(TABLE)
    assert [(a.act, a.host, a.target) for a in acts] == [
        ("create", ann, None),
        ("deny", ann, bob),
        ("approve", ann, bob),
        ("stakes", ann, None),
    ]
    assert acts[1].target_name == "bob" and acts[3].detail == {"big_blind": 400}
    assert [g.table_id for g, status in await games.games_of(bob)] == [TABLE]


async def test_R_PRIV_1_the_game_ledger_is_the_rooms_ledger_and_the_end_closes_the_table(
    database: Database,
) -> None:
    room, games = RoomStore(database), PrivateGamesStore(database)
    ann = await account(room, "ann")
    await games.create(
        TABLE, host=ann, code="ABCDEFG", invite="k" * 43, settings=SETTINGS, big_blind=200, now=NOW
    )
    table = a_table()
    await room.save_table(TABLE, TableSave("Friday", {}, table.to_json()), now=NOW)

    def sit() -> TableSave:
        table.sit(str(ann), 1, 10_000, name="ann")
        return TableSave("Friday", {}, table.to_json())

    await room.seat(
        TABLE, ann, key="sit", buy_in=10_000, seat=1, joined=None, number=1, sit=sit, now=NOW
    )

    def add() -> TableSave:
        table.add_chips(str(ann), 1_000)
        return TableSave("Friday", {}, table.to_json())

    await room.add_chips(TABLE, ann, key="more", amount=1_000, joined=1, add=add, now=NOW)
    entries, on_table = await games.ledger(TABLE)
    assert [(e.kind, e.amount, e.name) for e in entries] == [
        ("buy_in", 10_000, "ann"),
        ("top_up", 1_000, "ann"),
    ]
    assert on_table == 11_000
    table.leave(str(ann), 0.0)
    await room.cash_out(TABLE, ann, 11_000, TableSave("Friday", {}, table.to_json()), now=NOW)
    entries, on_table = await games.ledger(TABLE)
    assert [(e.kind, e.amount) for e in entries][-1] == ("cash_out", 11_000)
    assert on_table == 0
    await games.end(TABLE, host=None, act="idle_close", now=NOW + timedelta(hours=1))
    assert await games.open_games() == []
    assert await games.find(code="ABCDEFG") is None  # an ended game's code finds nothing
    async with database.transaction() as session:
        closed = await session.scalar(select(TableRecord.closed).where(TableRecord.id == TABLE))
        report = await audit(session)
    assert closed is True
    assert report.ok, report.problems
    async with database.transaction() as session:  # an ended game whose table is open
        record = await session.get(TableRecord, TABLE)
        assert record is not None
        record.closed = False
    async with database.transaction() as session:
        report = await audit(session)
    assert report.problems == [f"private game {TABLE}: ended, but its table is open"]
    acts = await games.acts(TABLE)
    assert (acts[-1].act, acts[-1].host) == ("idle_close", None)
