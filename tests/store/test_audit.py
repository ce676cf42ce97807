"""The audit's every reconciliation, sharpened (S-MONEY-2, S-AUDIT-2): a room holding every
kind of ledger account (players, tables, the house's rake and fees, the bank, prize pools of a
running and a finished event) audits clean; then each difference a bug could leave is planted
through the database, one at a time, both ways (too much and too little), and the real audit
must name it. A check deleted, a comparison flipped or a term dropped fails here."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlalchemy import select, text, update
from sqlalchemy.ext.asyncio import AsyncSession
from typer.testing import CliRunner, Result

from pokerroom.cli.app import app
from pokerroom.rng import SeededRandomSource
from pokerroom.rules.tournament import load_tournament_structure
from pokerroom.store.accounts.accounts import STARTING_GRANT, NewPassword, new_password, sign_up
from pokerroom.store.audit import AuditReport, audit
from pokerroom.store.db import Database
from pokerroom.store.models import (
    HandRecord,
    Posting,
    Sitting,
    TableRecord,
    TournamentEntry,
    TournamentRecord,
    Transfer,
)
from pokerroom.store.money.ledger import BANK, HOUSE, balance, ledger_account_sync
from pokerroom.store.tables.floor import correct_hand
from pokerroom.store.tables.store import RoomStore, TableSave
from pokerroom.store.tournaments.bounties import bounty_account
from pokerroom.store.tournaments.guarantees import OVERLAY
from pokerroom.store.tournaments.statements import FEES, Prize, pool_account
from pokerroom.store.tournaments.tickets import ticket_account
from pokerroom.table import Table
from tests.helpers.store_hands import NOW, play_hand
from tests.helpers.store_tournaments import Event, bounty_payments, play_out
from tests.helpers.writer import HOUSE as TITAN
from tests.helpers.writer import SPEC

Account = tuple[str, str]
MTT_FEE = load_tournament_structure("mtt_rebuy").fee


@cache
def password() -> NewPassword:
    return new_password("correct horse")  # hashed once: argon2 is slow on purpose


@dataclass
class Room:
    """What the planted differences refer to."""

    db: Database
    players: dict[str, int]
    raked_hand: int  # a complete hand of t1 whose rake was booked
    rake: int
    running: str  # a running rebuy event: entries, a rebuy and an add-on in its pool
    finished: str  # a finished event whose prizes emptied its pool
    knockout: str = "pko-1"  # a running knockout event: bounties paid and still on heads
    knockout_done: str = "pko-2"  # a finished one: its bounties all paid
    satellite: str = "sat-1"  # a finished satellite: one seat won, its ticket not used yet
    target: str = "target-1"  # the event that ticket is for
    seat_winner: int = 0  # the account holding it

    def player(self, name: str) -> Account:
        return ("player", str(self.players[name]))


async def sit(
    store: RoomStore, table_id: str, table: Table, account: int, seat: int, amount: int
) -> None:
    def taken() -> TableSave:
        table.sit(str(account), seat, amount, name=str(account))
        return TableSave(table_id, {}, table.to_json())

    await store.seat(
        table_id,
        account,
        key=f"sit:{table_id}:{account}",
        buy_in=amount,
        seat=seat,
        joined=None,
        number=table.joined + 1,
        sit=taken,
        now=NOW,
    )


async def build_room(db: Database) -> Room:
    store = RoomStore(db)
    players = {}
    for name in ("ann", "bob", "cat", "dan", "eve", "fay"):
        # dan has just enough for the rebuy event and a seat: he ends with a zero balance.
        async with db.transaction() as session:
            grant = 11_000 + 10_000 if name == "dan" else STARTING_GRANT
            account = await sign_up(session, name, password(), now=NOW, grant=grant)
        players[name] = account.id
    # t1: ann and bob play until a hand is raked; dan sits with all he has (a zero balance).
    t1 = Table(spec=SPEC, house=TITAN, seats=6, rng=SeededRandomSource(3))
    await sit(store, "t1", t1, players["ann"], 1, 20_000)
    await sit(store, "t1", t1, players["bob"], 2, 20_000)
    rng = random.Random(5)
    for _ in range(50):
        await play_hand(db, t1, rng, crash_after=None)
        async with db.transaction() as session:
            raked = (await session.scalars(select(HandRecord).where(HandRecord.rake > 0))).first()
        if raked is not None:
            break
    assert raked is not None, "no hand was raked"
    # t2: eve sits and leaves (an ended sitting, an empty table account).
    t2 = Table(spec=SPEC, house=TITAN, seats=6, rng=SeededRandomSource(4))
    await sit(store, "t2", t2, players["eve"], 1, 5_000)
    t2.leave(str(players["eve"]), 0.0)
    await store.cash_out("t2", players["eve"], 5_000, TableSave("t2", {}, t2.to_json()), now=NOW)
    # A finished heads-up event: cat registered and took it back, ann and bob played it out.
    hu = Event(db, "sng_heads_up", "hu-1")
    await hu.create()
    await hu.register(players["cat"], "c")
    await hu.unregister(players["cat"])
    await hu.register(players["ann"], "a")
    await hu.register(players["bob"], "b")
    hu.t.start(0.0)
    play_out(hu.t)
    await hu.store.save(hu.tid, hu.snapshot(), status="finished", now=NOW)
    await hu.store.pay(
        hu.tid, [Prize(p.entry, int(p.entry), p.prize) for p in hu.t.places()], now=NOW
    )
    # A running rebuy event: six entries, a rebuy and an add-on.
    mtt = Event(db, "mtt_rebuy", "rebuy-1")
    await mtt.create()
    for name, account in players.items():
        await mtt.register(account, f"r-{name}")
    mtt.t.start(0.0)
    await mtt.store.save(mtt.tid, mtt.snapshot(), status="running", now=NOW)
    entry = str(players["cat"])
    for addon, at in ((False, 1.0), (True, 3601.0)):

        def bought(addon: bool = addon, at: float = at) -> str:
            (mtt.t.addon if addon else mtt.t.rebuy)(entry, at)
            return mtt.snapshot()

        assert await mtt.store.buy_chips(
            mtt.tid, players["cat"], entry=entry, addon=addon, number=1, apply=bought, now=NOW
        )
    # Knockout events: one running with a bounty won, one played out (dan stays out of both).
    for tid, names, bounties in (
        ("pko-1", ("ann", "bob", "eve", "fay"), 1),
        ("pko-2", ("ann", "bob", "cat"), None),
    ):
        pko = Event(db, "sng6_pko", tid)
        await pko.create()
        for name in names:
            await pko.register(players[name], f"{tid}-{name}")
        pko.t.guarantee = 0 if bounties else 20_000  # pko-2: the house's overlay of 18,500
        pko.t.start(0.0)
        play_out(pko.t, until_bounties=bounties)
        assert pko.t.bounties and pko.t.finished == (bounties is None)
        status = "finished" if pko.t.finished else "running"
        due = pko.t.places() if pko.t.finished else pko.t.settled_places(0.0)
        await pko.store.settle(
            tid,
            snapshot=pko.snapshot(),
            status=status,
            prizes=[Prize(p.entry, int(p.entry), p.prize) for p in due],
            bounties=bounty_payments(pko.t),
            overlay=pko.t.overlay,
            now=NOW,
        )
    # A satellite to target-1: three entries make one seat (its ticket held) and 800 in cash.
    target = Event(db, "mtt_turbo6", "target-1")
    await target.create()
    sat = Event(db, "satellite_turbo6", "sat-1")
    await sat.create()
    for name in ("ann", "bob", "cat"):
        await sat.register(players[name], f"sat-{name}")
    sat.t.start(0.0)
    play_out(sat.t)
    seat = sat.t.places()[0]
    assert sat.t.seats() == 1 and seat.prize == 2200
    await sat.store.settle(
        "sat-1",
        snapshot=sat.snapshot(),
        status="finished",
        prizes=[
            Prize(p.entry, int(p.entry), p.prize, "target-1" if p.place == 1 else None)
            for p in sat.t.places()
        ],
        now=NOW,
    )
    # dan's whole balance to t1, and a floor correction paid from the house's rake.
    await sit(store, "t1", t1, players["dan"], 3, 10_000)
    async with db.transaction() as session:
        await correct_hand(session, players["fay"], raked.id, players["bob"], 1, "a fix", now=NOW)
        # Accounts opened and left empty, of a table and an event that are not stored.
        for account in (("table", "t9"), pool_account("never")):
            await session.run_sync(lambda s, a=account: ledger_account_sync(s, *a))
    return Room(db, players, raked.id, raked.rake, "rebuy-1", "hu-1", seat_winner=int(seat.entry))


async def checks_lost(session: AsyncSession) -> None:
    """The database's own checks (no player or table below zero) gone, as in a copy restored
    without its constraints: the audit must still see what they would have refused. Until
    the planting's transaction ends (``audit_planted``)."""
    if session.get_bind().dialect.name == "sqlite":
        await session.execute(text("PRAGMA ignore_check_constraints = 1"))
        return
    for kind in ("player", "table"):
        constraint = f"ck_ledger_accounts_{kind}_not_negative"
        drop = f"ALTER TABLE ledger_accounts DROP CONSTRAINT IF EXISTS {constraint}"
        await session.execute(text(drop))


async def stray(
    session: AsyncSession,
    moves: Mapping[Account, int],
    *,
    kind: str = "stray",
    hand_id: int | None = None,
) -> Transfer:
    """Postings written as a bug would write them: no balancing, funds or key checks (nor
    the database's), each account's balance moved with its posting (so only the planted
    difference is wrong)."""
    await checks_lost(session)
    record = Transfer(kind=kind, memo="planted", hand_id=hand_id, created_at=NOW)
    session.add(record)
    await session.flush()
    for (kind_, owner), amount in moves.items():
        account = await session.run_sync(lambda s, k=kind_, o=owner: ledger_account_sync(s, k, o))
        session.add(Posting(transfer_id=record.id, ledger_account_id=account.id, amount=amount))
        account.balance += amount
    await session.flush()
    return record


async def set_balance(session: AsyncSession, account: Account, by: int) -> None:
    """A balance moved with no posting behind it."""
    kind, owner = account
    row = await session.run_sync(lambda s: ledger_account_sync(s, kind, owner))
    row.balance += by
    await session.flush()


async def edit_snapshot(
    session: AsyncSession, model: type[TableRecord] | type[TournamentRecord], key: str, edit: Any
) -> None:
    record = await session.get(model, key)
    assert record is not None
    state = json.loads(record.snapshot)
    edit(state)
    record.snapshot = json.dumps(state)
    await session.flush()


def sign(d: int) -> int:
    """One of a thing (an entry, a rebuy) more or fewer, in the direction of ``d``."""
    return 1 if d > 0 else -1


Plant = Callable[[AsyncSession, Room, int], Awaitable[list[str]]]
# Each planting, and the differences it plants: too much (+100) and too little (-100), or
# one of them where the other is another planting (a table's missing ledger account is an
# orphan account the other way) or cannot be (below zero).
PLANTS: dict[str, tuple[Plant, tuple[int, ...]]] = {}


def plant(name: str, ways: tuple[int, ...] = (100, -100)) -> Callable[[Plant], Plant]:
    def register(function: Plant) -> Plant:
        PLANTS[name] = (function, ways)
        return function

    return register


# ---------------------------------------------------------------- the ledger with itself


@plant("a transfer that does not balance")
async def _unbalanced(session: AsyncSession, room: Room, d: int) -> list[str]:
    done = await stray(session, {room.player("fay"): d})
    return [f"transfer {done.id} does not balance: {d}", f"the books do not balance: {d}"]


def _posting_plant(name: str, account: Callable[[Room], Account]) -> None:
    @plant(f"a balance of {name} with no posting")
    async def planted(session: AsyncSession, room: Room, d: int) -> list[str]:
        kind, owner = account(room)
        held = await balance(session, kind, owner)
        await checks_lost(session)  # (a zero balance less 100)
        await set_balance(session, (kind, owner), d)
        return [
            f"{kind} {owner}: balance {held + d} but postings add up to {held}",
            f"the books do not balance: {d}",
        ]


for _name, _account in (
    ("a player", lambda room: room.player("ann")),
    ("a player at zero", lambda room: room.player("dan")),
    ("a table", lambda room: ("table", "t1")),
    ("an empty table", lambda room: ("table", "t2")),
    ("the house's rake", lambda room: HOUSE),
    ("the house's fees", lambda room: FEES),
    ("the bank", lambda room: BANK),
    ("a running prize pool", lambda room: pool_account(room.running)),
    ("an emptied prize pool", lambda room: pool_account(room.finished)),
):
    _posting_plant(_name, _account)


def _below_zero_plant(name: str, account: Callable[[Room], Account]) -> None:
    @plant(f"{name} below zero", ways=(100,))
    async def planted(session: AsyncSession, room: Room, d: int) -> list[str]:
        kind, owner = account(room)
        held = await balance(session, kind, owner)
        await stray(session, {(kind, owner): -(held + abs(d)), BANK: held + abs(d)})
        return [f"{kind} {owner} is below zero: {-abs(d)}"]


for _name, _account in (
    ("a player", lambda room: room.player("ann")),
    ("a table", lambda room: ("table", "t2")),
    ("a prize pool", lambda room: pool_account(room.finished)),
):
    _below_zero_plant(_name, _account)


# ---------------------------------------------------------------- tables


@plant("chips seated that the ledger never received, or lost from a seat")
async def _seated(session: AsyncSession, room: Room, d: int) -> list[str]:
    held = await balance(session, "table", "t1")

    def edit(state: dict[str, Any]) -> None:
        state["seats"][0]["stack"] += d

    await edit_snapshot(session, TableRecord, "t1", edit)
    why = f"{d} seated that the ledger never received" if d > 0 else f"{-d} in the ledger with no"
    return [f"table t1: the ledger holds {held} chips but {held + d} are seated there ({why}"]


@plant("a table's chips moved in the ledger alone")
async def _table_ledger(session: AsyncSession, room: Room, d: int) -> list[str]:
    held = await balance(session, "table", "t1")
    await stray(session, {("table", "t1"): d, BANK: -d})
    return [f"table t1: the ledger holds {held + d} chips but {held} are seated there"]


@plant("a table stored with seats the ledger never heard of", ways=(100,))
async def _unfunded_table(session: AsyncSession, room: Room, d: int) -> list[str]:
    t1 = await session.get(TableRecord, "t1")
    assert t1 is not None
    seated = Table.from_json(t1.snapshot).chips_on_table()
    session.add(TableRecord(id="t5", name="t5", config="{}", snapshot=t1.snapshot, updated_at=NOW))
    await session.flush()
    return [f"table t5: the ledger holds 0 chips but {seated} are seated there"]


@plant("a table's snapshot that cannot be read")
async def _unreadable(session: AsyncSession, room: Room, d: int) -> list[str]:
    def edit(state: dict[str, Any]) -> None:
        if d > 0:
            del state["seats"]
        else:
            state["seats"] = "garbled"

    await edit_snapshot(session, TableRecord, "t1", edit)
    return ["table t1: its snapshot cannot be read"]


@plant("chips in the ledger for no table")
async def _orphan_table(session: AsyncSession, room: Room, d: int) -> list[str]:
    await stray(session, {("table", "gone"): d, BANK: -d})
    return [f"table gone: the ledger holds {d} chips for no table"]


# ---------------------------------------------------------------- rake


@plant("rake in the house with no hand behind it")
async def _house_rake(session: AsyncSession, room: Room, d: int) -> list[str]:
    held = await balance(session, *HOUSE)
    await stray(session, {HOUSE: d, BANK: -d}, kind="rake")
    return [f"house rake: balance {held + d} but the hands' rake is {room.rake}"]


@plant("a hand's rake changed after it was booked")
async def _hand_rake(session: AsyncSession, room: Room, d: int) -> list[str]:
    await session.execute(
        update(HandRecord).where(HandRecord.id == room.raked_hand).values(rake=room.rake + d)
    )
    return [
        f"house rake: balance {room.rake - 1} but the hands' rake is {room.rake + d}",
        f"hand {room.raked_hand} (table t1 #",
        f"rake {room.rake + d} but {room.rake} was booked to the house",
    ]


@plant("a hand's rake booked twice, or given back")
async def _rake_booked(session: AsyncSession, room: Room, d: int) -> list[str]:
    await stray(session, {HOUSE: d, ("table", "t1"): -d}, kind="rake", hand_id=room.raked_hand)
    return [f"rake {room.rake} but {room.rake + d} was booked to the house"]


@plant("a hand's rake never booked")
async def _rake_missing(session: AsyncSession, room: Room, d: int) -> list[str]:
    hand = HandRecord(
        table_id="t1",
        number=999,
        status="complete",
        deck_commitment="0" * 64,
        rake=abs(d),
        started_at=NOW,
    )
    session.add(hand)
    await session.flush()
    return [f"hand {hand.id} (table t1 #999): rake {abs(d)} but 0 was booked to the house"]


# ---------------------------------------------------------------- sittings


@plant("an open sitting with no seat")
async def _sitting(session: AsyncSession, room: Room, d: int) -> list[str]:
    # A seat gone from a table (its number is ann's there, so only the player differs), or
    # a table gone.
    where = "t1" if d > 0 else "nowhere"
    row = Sitting(table_id=where, account_id=room.players["fay"], seat=1, number=1, started_at=NOW)
    session.add(row)
    await session.flush()
    return [f"table {where}: sitting {row.id} of player {room.players['fay']} is open"]


@plant("an open sitting whose seat is another sitting's")
async def _sitting_number(session: AsyncSession, room: Room, d: int) -> list[str]:
    row = (
        await session.scalars(
            select(Sitting).where(
                Sitting.table_id == "t1",
                Sitting.account_id == room.players["ann"],
                Sitting.ended_at.is_(None),
            )
        )
    ).one()
    row.number += d
    await session.flush()
    return [f"sitting {row.id} of player {room.players['ann']} is open"]


# ---------------------------------------------------------------- tournaments


@plant("a prize pool moved in the ledger alone")
async def _pool(session: AsyncSession, room: Room, d: int) -> list[str]:
    held = await balance(session, *pool_account(room.running))
    await stray(session, {pool_account(room.running): d, BANK: -d})
    return [f"tournament {room.running}: the prize pool holds {held + d} but 6 entries"]


def _count_plant(name: str, index: int) -> None:
    @plant(f"{name} given without its price")
    async def planted(session: AsyncSession, room: Room, d: int) -> list[str]:
        held = await balance(session, *pool_account(room.running))

        def edit(state: dict[str, Any]) -> None:
            state["counts"][index] += sign(d)

        await edit_snapshot(session, TournamentRecord, room.running, edit)
        return [f"tournament {room.running}: the prize pool holds {held} but 6 entries"]


_count_plant("a rebuy", 0)
_count_plant("an add-on", 1)


@plant("an entry with no buy-in, or a buy-in with no entry")
async def _entries(session: AsyncSession, room: Room, d: int) -> list[str]:
    fees = await balance(session, *FEES)

    def edit(state: dict[str, Any]) -> None:
        if d > 0:
            state["entries"].append(state["entries"][0])
        else:
            state["entries"].pop()

    await edit_snapshot(session, TournamentRecord, room.running, edit)
    return [
        f"tournament {room.running}: the prize pool holds",
        f"6 registrations are stored but its state has {6 + sign(d)} entries",
        f"house fees: balance {fees} but the tournaments' entries paid {fees + sign(d) * MTT_FEE}",
    ]


@plant("a registration stored without an entry, or taken back in the store alone")
async def _registrations(session: AsyncSession, room: Room, d: int) -> list[str]:
    if d > 0:
        session.add(
            TournamentEntry(
                tournament_id=room.running,
                account_id=room.players["ann"],
                number=2,
                entry="x",
                request="planted",
                status="registered",
                registered_at=NOW,
            )
        )
    else:
        row = (
            await session.scalars(
                select(TournamentEntry).where(TournamentEntry.tournament_id == room.running)
            )
        ).first()
        assert row is not None
        row.status = "unregistered"
    await session.flush()
    return [
        f"tournament {room.running}: {6 + sign(d)} registrations are stored but its state has 6"
    ]


@plant("an event's state that cannot be read")
async def _unreadable_event(session: AsyncSession, room: Room, d: int) -> list[str]:
    def edit(state: dict[str, Any]) -> None:
        if d > 0:
            del state["counts"]
        else:
            state["entries"] = 7

    await edit_snapshot(session, TournamentRecord, room.running, edit)
    return [f"tournament {room.running}: its state cannot be read"]


@plant("a finished event's pool not empty")
async def _finished(session: AsyncSession, room: Room, d: int) -> list[str]:
    await stray(session, {pool_account(room.finished): d, BANK: -d})
    return [
        f"tournament {room.finished} is finished but its pool holds {d}",
        f"tournament {room.finished}: the prize pool holds {d} but 2 entries",
    ]


@plant("a prize pool for no tournament")
async def _orphan_pool(session: AsyncSession, room: Room, d: int) -> list[str]:
    await stray(session, {pool_account("gone"): d, BANK: -d})
    return [f"tournament gone: a pool of {d} for no tournament"]


@plant("bounties moved in the ledger alone")
async def _bounty_account(session: AsyncSession, room: Room, d: int) -> list[str]:
    held = await balance(session, *bounty_account(room.knockout))
    await stray(session, {bounty_account(room.knockout): d, BANK: -d})
    return [
        f"tournament {room.knockout}: the bounty account holds {held + d} but its entries'"
        f" bounties less those paid make {held}",
        f"tournament {room.knockout}: the bounty account holds {held + d} but its state has"
        f" {held} on the players' heads",
    ]


@plant("a bounty paid with no knockout in the state, or a knockout with none paid")
async def _bounty_paid(session: AsyncSession, room: Room, d: int) -> list[str]:
    held = await balance(session, *bounty_account(room.knockout))
    await stray(
        session, {bounty_account(room.knockout): -d, room.player("ann"): d}, kind="t_bounty"
    )
    return [
        f"tournament {room.knockout}: the bounty account holds {held - d} but its state has"
        f" {held} on the players' heads"
    ]


@plant("a bounty on a head with no money behind it, or money with no head")
async def _bounty_heads(session: AsyncSession, room: Room, d: int) -> list[str]:
    held = await balance(session, *bounty_account(room.knockout))

    def edit(state: dict[str, Any]) -> None:
        state["entries"][0]["bounty"] += d

    await edit_snapshot(session, TournamentRecord, room.knockout, edit)
    return [
        f"tournament {room.knockout}: the bounty account holds {held} but its state has"
        f" {held + d} on the players' heads"
    ]


@plant("a finished knockout event's bounties not all paid")
async def _bounty_finished(session: AsyncSession, room: Room, d: int) -> list[str]:
    await stray(session, {bounty_account(room.knockout_done): d, BANK: -d})
    return [f"tournament {room.knockout_done} is finished but its bounty account holds {d}"]


@plant("bounties for no tournament")
async def _orphan_bounties(session: AsyncSession, room: Room, d: int) -> list[str]:
    await stray(session, {bounty_account("gone"): d, BANK: -d})
    return [f"tournament gone: bounties of {d} for no tournament"]


@plant("a ticket moved in the ledger alone")
async def _ticket(session: AsyncSession, room: Room, d: int) -> list[str]:
    account = ticket_account(room.target, room.seat_winner)
    held = await balance(session, *account)
    await stray(session, {account: d, BANK: -d})
    return [
        f"ticket {account[1]}: holds {held + d} but its tickets issued, used and refunded"
        f" make {held}"
    ]


@plant("a ticket issued that is not worth a seat")
async def _ticket_value(session: AsyncSession, room: Room, d: int) -> list[str]:
    account = ticket_account(room.target, room.players["fay"])
    await stray(session, {account: d, pool_account(room.satellite): -d}, kind="t_ticket")
    return [
        f"ticket {account[1]}: a ticket of {d} issued but a seat there is worth 2200",
        f"tournament {room.satellite} is finished but its pool holds {-d}",
    ]


@plant("tickets to no tournament")
async def _orphan_ticket(session: AsyncSession, room: Room, d: int) -> list[str]:
    await stray(session, {ticket_account("gone", 1): d, BANK: -d})
    return [f"ticket gone:1: {d} in tickets to no tournament"]


@plant("an overlay paid that the event's state does not have")
async def _overlay_paid(session: AsyncSession, room: Room, d: int) -> list[str]:
    pool = pool_account(room.knockout_done)
    await stray(session, {OVERLAY: -d, pool: d}, kind="t_overlay")
    return [
        f"tournament {room.knockout_done}: its state has an overlay of 18500 but the house"
        f" paid {18_500 + d} into its pool",
        f"house overlay: balance {-18_500 - d} but the guaranteed events' overlays make -18500",
        f"tournament {room.knockout_done} is finished but its pool holds {d}",
    ]


@plant("an overlay in an event's state that the house never paid")
async def _overlay_state(session: AsyncSession, room: Room, d: int) -> list[str]:
    def edit(state: dict[str, Any]) -> None:
        state["overlay"] += d

    await edit_snapshot(session, TournamentRecord, room.knockout_done, edit)
    return [
        f"tournament {room.knockout_done}: its state has an overlay of {18_500 + d} but the"
        " house paid 18500 into its pool",
        f"house overlay: balance -18500 but the guaranteed events' overlays make {-18_500 - d}",
    ]


@plant("fees with no entry behind them")
async def _fees(session: AsyncSession, room: Room, d: int) -> list[str]:
    held = await balance(session, *FEES)
    await stray(session, {FEES: d, BANK: -d})
    return [f"house fees: balance {held + d} but the tournaments' entries paid {held}"]


class PlantedError(Exception):
    """Ends a planting's transaction: every planting is rolled back."""


async def audit_planted(room: Room, planting: Plant, d: int) -> tuple[list[str], AuditReport]:
    """Plant, audit and roll back, in one transaction: what should be named, and the report."""
    expected: list[str] = []
    report = AuditReport()
    try:
        async with room.db.transaction() as session:
            expected = await planting(session, room, d)
            report = await audit(session)
            if session.get_bind().dialect.name == "sqlite":  # a pragma is not rolled back
                await session.execute(text("PRAGMA ignore_check_constraints = 0"))
            raise PlantedError
    except PlantedError:
        pass
    return expected, report


async def test_S_AUDIT_2_the_audit_names_every_planted_difference_both_ways(
    database: Database,
) -> None:
    room = await build_room(database)
    async with database.transaction() as session:
        clean = await audit(session)
    assert clean.ok, clean.problems  # every term of every check non-zero, and in balance
    assert set(clean.totals) == {
        *("player", "table", "house", "bank", "tournament", "bounty", "ticket")
    }
    assert clean.totals["ticket"] == 2200  # the satellite's seat, not used yet
    assert clean.totals["bounty"] > 0  # the running knockout event's bounties on heads
    assert (clean.tournaments, clean.tables, clean.hands_rake) == (6, 2, room.rake)
    assert clean.seated == clean.totals["table"] and clean.floor_acts == 1
    missed = []
    for name, (planting, ways) in PLANTS.items():
        for d in ways:
            expected, report = await audit_planted(room, planting, d)
            problems = "\n".join(report.problems)
            missed += [
                f"{name} ({d:+d}): {text!r} is not in:\n{problems}"
                for text in expected
                if text not in problems
            ]
    assert not missed, "\n\n".join(missed)
    async with database.transaction() as session:
        assert (await audit(session)).ok  # every planting was rolled back
    result = await audit_command(database.url)
    assert result.exit_code == 0, result.output
    pools = clean.totals["tournament"]
    assert re.search(rf"tournament\s.*\s{pools:,}\s", result.output), result.output
    assert "tournaments reconciled: 6" in result.output
    async with database.transaction() as session:
        await _fees(session, room, 100)  # committed this time
    result = await audit_command(database.url)
    assert result.exit_code == 1 and "house fees: balance" in result.output, result.output


async def audit_command(url: str) -> Result:
    """``pokerroom audit`` on the database, as an operator runs it."""
    return await asyncio.to_thread(CliRunner().invoke, app, ["audit", "--database", url])
