"""Conservation checks on a live database (S-MONEY-2, S-AUDIT-2, ``pokerroom audit``).

The ledger must agree with itself: every transfer balances; every ledger account's
balance (a player's included) equals the sum of its postings; no player or table is
below zero; all balances together are zero (the bank's negative balance is exactly
the play money in circulation). And it must agree with the room (S-AUDIT-2): every
table's ledger account holds exactly the chips seated in its stored snapshot (stacks
plus a hand in progress); the house's rake account equals the stored hands' rake
plus the floor's corrections; every hand's rake was booked; every sitting still open
has its seat; every tournament's prize pool holds its buy-ins, rebuys and add-ons less the
prizes paid (empty once it is finished), its registrations are the entries of its stored
state, and the house's fees are the fees of those entries. A knockout event's bounty account
holds its entries' bounties less the bounties paid, which is the bounties on the heads of its
stored state (empty once it is finished); a guaranteed event's pool holds the house's overlay
its state has, and the house's overlay account minus all of them. A satellite's seats are
paid from its pool as tickets, each worth a seat of its target event, and each ticket
account holds its tickets issued less those used to register (plus those refunded), for an
event that exists. A private game's table is reconciled as any table's, and an ended game's
table is closed and holds no chip. Each
difference is named with its table, hand, tournament or account; so is a stored state the
audit cannot read (it goes on with the rest, never stopping at it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from sqlalchemy import and_, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pokerroom.store.account_ids import player_key
from pokerroom.store.db import Database
from pokerroom.store.models import (
    FloorAct,
    HandRecord,
    LedgerAccount,
    Posting,
    PrivateGame,
    Sitting,
    TableRecord,
    TournamentEntry,
    TournamentRecord,
    Transfer,
)
from pokerroom.store.money.ledger import HOUSE, NON_NEGATIVE
from pokerroom.store.tournaments.bounties import BOUNTY
from pokerroom.store.tournaments.guarantees import OVERLAY
from pokerroom.store.tournaments.statements import FEES, POOL
from pokerroom.store.tournaments.tickets import TICKET, TICKET_MOVES, target_of
from pokerroom.table import Table, TableError


@dataclass
class AuditReport:
    totals: dict[str, int] = field(default_factory=dict)  # by ledger account kind
    transfers: int = 0
    floor_acts: int = 0
    tables: int = 0  # tables reconciled with their snapshots
    seated: int = 0  # chips seated at them, by the snapshots
    hands_rake: int = 0  # rake of the stored hands
    tournaments: int = 0  # tournaments reconciled with their prize pools
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def in_circulation(self) -> int:
        return -self.totals.get("bank", 0)


async def audit(session: AsyncSession, *, reconcile: bool = True) -> AuditReport:
    """Each check is one query, so it reads one consistent state even while the room goes
    on committing hands (and, on SQLite, the whole transaction is one snapshot).

    ``reconcile=False`` checks only that the ledger agrees with itself: for the ledger's
    own tests, which move chips to tables and the house with no table or hand behind them."""
    report = AuditReport()
    report.transfers = int(await session.scalar(select(func.count(Transfer.id))) or 0)
    report.floor_acts = int(await session.scalar(select(func.count(FloorAct.id))) or 0)
    unbalanced = await session.execute(
        select(Posting.transfer_id, func.sum(Posting.amount))
        .group_by(Posting.transfer_id)
        .having(func.sum(Posting.amount) != 0)
    )
    for transfer_id, total in unbalanced:
        report.problems.append(f"transfer {transfer_id} does not balance: {total}")
    accounts = await session.execute(
        select(
            LedgerAccount.kind,
            LedgerAccount.owner,
            LedgerAccount.balance,
            func.coalesce(func.sum(Posting.amount), 0),
        )
        .outerjoin(Posting, Posting.ledger_account_id == LedgerAccount.id)
        .group_by(LedgerAccount.id, LedgerAccount.kind, LedgerAccount.owner, LedgerAccount.balance)
    )
    for kind, owner, balance, posted in accounts:
        if int(posted) != balance:
            report.problems.append(
                f"{kind} {owner}: balance {balance} but postings add up to {int(posted)}"
            )
        if kind in NON_NEGATIVE and balance < 0:
            report.problems.append(f"{kind} {owner} is below zero: {balance}")
        report.totals[kind] = report.totals.get(kind, 0) + balance
    if sum(report.totals.values()) != 0:
        report.problems.append(f"the books do not balance: {sum(report.totals.values())}")
    if reconcile:
        await _reconcile_tables(session, report)
        await _reconcile_rake(session, report)
        await _reconcile_sittings(session, report)
        await _reconcile_tournaments(session, report)
        await _reconcile_tickets(session, report)
        await _reconcile_private_games(session, report)
    return report


async def audit_database(db: Database) -> AuditReport:
    """The whole audit in one transaction of ``db`` (what ``pokerroom audit`` and the
    floor's back office run)."""
    async with db.transaction() as session:
        return await audit(session)


def _seated(snapshot: str) -> int:
    """Chips at a table by its snapshot: stacks, plus the pots of a hand in progress."""
    return Table.from_json(snapshot).chips_on_table()


def _seats(snapshot: str) -> list[tuple[str, int]] | None:
    """Who sits at a table by its snapshot, and since which sitting; None if unreadable."""
    try:
        return [(str(s["player"]), s["joined"]) for s in json.loads(snapshot)["seats"]]
    except (ValueError, KeyError, TypeError):
        return None


async def _reconcile_tables(session: AsyncSession, report: AuditReport) -> None:
    """Each table's ledger account against its snapshot, read together in one query."""
    rows = await session.execute(
        select(TableRecord.id, TableRecord.snapshot, LedgerAccount.balance).outerjoin(
            LedgerAccount,
            and_(LedgerAccount.kind == "table", LedgerAccount.owner == TableRecord.id),
        )
    )
    for table_id, snapshot, balance in rows:
        report.tables += 1
        try:
            seated = _seated(snapshot)
        except (TableError, ValueError, KeyError, TypeError) as error:
            report.problems.append(f"table {table_id}: its snapshot cannot be read ({error})")
            continue
        report.seated += seated
        held = int(balance or 0)
        if held != seated:
            why = (
                f"{seated - held} seated that the ledger never received"
                if seated > held
                else f"{held - seated} in the ledger with no seat"
            )
            report.problems.append(
                f"table {table_id}: the ledger holds {held} chips but {seated} are seated there"
                f" ({why})"
            )
    orphans = await session.execute(
        select(LedgerAccount.owner, LedgerAccount.balance).where(
            LedgerAccount.kind == "table",
            LedgerAccount.balance != 0,
            LedgerAccount.owner.not_in(select(TableRecord.id)),
        )
    )
    for owner, balance in orphans:
        report.problems.append(f"table {owner}: the ledger holds {balance} chips for no table")


async def _reconcile_private_games(session: AsyncSession, report: AuditReport) -> None:
    """A private game's table is reconciled as any table (above); an ended game's is also
    closed, and every chip of it cashed out (R-PRIV-1)."""
    rows = await session.execute(
        select(PrivateGame.table_id, TableRecord.closed, LedgerAccount.balance)
        .outerjoin(TableRecord, TableRecord.id == PrivateGame.table_id)
        .outerjoin(
            LedgerAccount,
            and_(LedgerAccount.kind == "table", LedgerAccount.owner == PrivateGame.table_id),
        )
        .where(PrivateGame.ended_at.is_not(None))
    )
    for table_id, closed, balance in rows:
        if closed is False:
            report.problems.append(f"private game {table_id}: ended, but its table is open")
        if balance:
            report.problems.append(
                f"private game {table_id}: ended, but its table holds {balance} chips"
            )


async def _reconcile_rake(session: AsyncSession, report: AuditReport) -> None:
    """The house's rake account: the hands' rake plus the floor's corrections (paid from
    it, or taken back into it), all read in one query; then each hand's rake transfer."""
    kind, owner = HOUSE
    house = (
        select(LedgerAccount.id)
        .where(LedgerAccount.kind == kind, LedgerAccount.owner == owner)
        .scalar_subquery()
    )
    corrections = (
        select(func.coalesce(func.sum(Posting.amount), 0))
        .join(Transfer, Transfer.id == Posting.transfer_id)
        .where(Posting.ledger_account_id == house, Transfer.kind == "correction")
        .scalar_subquery()
    )
    row = (
        await session.execute(
            select(
                select(func.coalesce(func.sum(HandRecord.rake), 0)).scalar_subquery(),
                corrections,
                select(LedgerAccount.balance).where(LedgerAccount.id == house).scalar_subquery(),
            )
        )
    ).one()
    rake, corrected, balance = int(row[0]), int(row[1]), int(row[2] or 0)
    report.hands_rake = rake
    if balance != rake + corrected:
        report.problems.append(
            f"{kind} {owner}: balance {balance} but the hands' rake is {rake}"
            f" and the floor's corrections {corrected:+d}"
        )
    booked = (
        select(Transfer.hand_id, func.sum(Posting.amount).label("amount"))
        .join(Posting, Posting.transfer_id == Transfer.id)
        .where(Transfer.kind == "rake", Posting.ledger_account_id == house)
        .group_by(Transfer.hand_id)
        .subquery()
    )
    wrong = await session.execute(
        select(
            HandRecord.id, HandRecord.table_id, HandRecord.number, HandRecord.rake, booked.c.amount
        )
        .outerjoin(booked, booked.c.hand_id == HandRecord.id)
        .where(HandRecord.rake != func.coalesce(booked.c.amount, 0))
    )
    for hand_id, table_id, number, hand_rake, amount in wrong:
        report.problems.append(
            f"hand {hand_id} (table {table_id} #{number}): rake {hand_rake}"
            f" but {int(amount or 0)} was booked to the house"
        )


async def _reconcile_sittings(session: AsyncSession, report: AuditReport) -> None:
    """Every sitting not ended still has its seat in its table's snapshot (else its
    cash-out was missed), read with the snapshots in one query."""
    rows = await session.execute(
        select(
            Sitting.id, Sitting.table_id, Sitting.account_id, Sitting.number, TableRecord.snapshot
        )
        .outerjoin(TableRecord, TableRecord.id == Sitting.table_id)
        .where(Sitting.ended_at.is_(None))
    )
    for sitting_id, table_id, account_id, number, snapshot in rows:
        seats = [] if snapshot is None else _seats(snapshot)
        if seats is None:
            continue  # the tables' check names the snapshot it cannot read
        if (player_key(account_id), number) not in seats:
            report.problems.append(
                f"table {table_id}: sitting {sitting_id} of player {account_id} is open"
                " but the player has no such seat there (not cashed out)"
            )


async def _reconcile_tournaments(session: AsyncSession, report: AuditReport) -> None:
    """Each prize pool against its event's stored state (entries, rebuys, add-ons) and the
    prizes paid from it; the registrations against the entries; the fees against both."""
    pools = select(LedgerAccount.owner, LedgerAccount.balance).where(LedgerAccount.kind == POOL)
    pool_of = {owner: int(held) for owner, held in (await session.execute(pools)).all()}
    paid_rows = await session.execute(
        select(LedgerAccount.owner, func.sum(Posting.amount))
        .join(Posting, Posting.ledger_account_id == LedgerAccount.id)
        .join(Transfer, Transfer.id == Posting.transfer_id)
        .where(LedgerAccount.kind == POOL, Transfer.kind.in_(("t_prize", "t_ticket")))
        .group_by(LedgerAccount.owner)
    )
    paid = {owner: -int(total) for owner, total in paid_rows}
    overlays_paid = await _by_owner(session, POOL, "t_overlay")
    overlays = 0
    held_bounties = await _by_owner(session, BOUNTY, None)
    bounties_paid = await _by_owner(session, BOUNTY, "t_bounty")
    registered = dict(
        (
            await session.execute(
                select(TournamentEntry.tournament_id, func.count(TournamentEntry.id))
                .where(TournamentEntry.status == "registered")
                .group_by(TournamentEntry.tournament_id)
            )
        ).all()
    )
    fees = 0
    records = (await session.scalars(select(TournamentRecord))).all()
    for record in records:
        report.tournaments += 1
        tid = record.id
        held = int(pool_of.pop(tid, 0))
        try:
            prices = json.loads(record.config)["prices"]
            buy_in, fee = int(prices["buy_in"]), int(prices["fee"])
            rebuy, addon = int(prices["rebuy"]), int(prices["addon"])
            bounty = int(prices.get("bounty", 0))  # (absent before knockout events)
            state = json.loads(record.snapshot)
            entries = len(state["entries"])
            on_heads = sum(int(e.get("bounty", 0)) for e in state["entries"])
            overlay = int(state.get("overlay", 0))  # (absent before guarantees)
            rebuys, addons = int(state["counts"][0]), int(state["counts"][1])
        except (ValueError, KeyError, TypeError, IndexError) as error:
            report.problems.append(f"tournament {tid}: its state cannot be read ({error!r})")
            continue
        fees += fee * entries
        _reconcile_bounties(
            report,
            tid,
            held=held_bounties.pop(tid, 0),
            expected=bounty * entries + bounties_paid.get(tid, 0),
            on_heads=on_heads,
            finished=record.status == "finished",
        )
        overlays += overlay
        if overlays_paid.get(tid, 0) != overlay:
            report.problems.append(
                f"tournament {tid}: its state has an overlay of {overlay} but the house paid"
                f" {overlays_paid.get(tid, 0)} into its pool"
            )
        expected = (buy_in - bounty) * entries + rebuy * rebuys + addon * addons + overlay
        expected -= paid.get(tid, 0)
        if held != expected:
            report.problems.append(
                f"tournament {tid}: the prize pool holds {held} but {entries} entries,"
                f" {rebuys} rebuys and {addons} add-ons less {paid.get(tid, 0)} paid"
                f" make {expected}"
            )
        if record.status == "finished" and held != 0:
            report.problems.append(f"tournament {tid} is finished but its pool holds {held}")
        if int(registered.get(tid, 0)) != entries:
            report.problems.append(
                f"tournament {tid}: {registered.get(tid, 0)} registrations are stored"
                f" but its state has {entries} entries"
            )
    for owner, balance in pool_of.items():
        if balance != 0:
            report.problems.append(f"tournament {owner}: a pool of {balance} for no tournament")
    for owner, balance in held_bounties.items():
        if balance != 0:
            report.problems.append(f"tournament {owner}: bounties of {balance} for no tournament")
    house_overlay = int(
        await session.scalar(
            select(LedgerAccount.balance).where(
                LedgerAccount.kind == OVERLAY[0], LedgerAccount.owner == OVERLAY[1]
            )
        )
        or 0
    )
    if house_overlay != -overlays:
        report.problems.append(
            f"house overlay: balance {house_overlay} but the guaranteed events' overlays make"
            f" {-overlays}"
        )
    kind, owner = FEES
    held_fees = int(
        await session.scalar(
            select(LedgerAccount.balance).where(
                LedgerAccount.kind == kind, LedgerAccount.owner == owner
            )
        )
        or 0
    )
    if held_fees != fees:
        report.problems.append(
            f"{kind} {owner}: balance {held_fees} but the tournaments' entries paid {fees}"
        )


async def _by_owner(session: AsyncSession, kind: str, transfers: str | None) -> dict[str, int]:
    """Each ``kind`` account's balance by owner; with ``transfers``, the sum of its postings
    in transfers of that kind instead."""
    if transfers is None:
        query = select(LedgerAccount.owner, LedgerAccount.balance).where(LedgerAccount.kind == kind)
    else:
        query = (
            select(LedgerAccount.owner, func.sum(Posting.amount))
            .join(Posting, Posting.ledger_account_id == LedgerAccount.id)
            .join(Transfer, Transfer.id == Posting.transfer_id)
            .where(LedgerAccount.kind == kind, Transfer.kind == transfers)
            .group_by(LedgerAccount.owner)
        )
    return {owner: int(total) for owner, total in (await session.execute(query)).all()}


def _reconcile_bounties(
    report: AuditReport, tid: str, *, held: int, expected: int, on_heads: int, finished: bool
) -> None:
    """A knockout event's bounty account: its entries' bounties less those paid (``expected``,
    the payments being negative postings), and the bounties on the heads of its state."""
    if held != expected:
        report.problems.append(
            f"tournament {tid}: the bounty account holds {held} but its entries' bounties"
            f" less those paid make {expected}"
        )
    if held != on_heads:
        report.problems.append(
            f"tournament {tid}: the bounty account holds {held} but its state has {on_heads}"
            " on the players' heads"
        )
    if finished and held != 0:
        report.problems.append(f"tournament {tid} is finished but its bounty account holds {held}")


async def _reconcile_tickets(session: AsyncSession, report: AuditReport) -> None:
    """Each ticket account against the transfers that may move a ticket; each ticket issued
    worth one seat of an event that exists."""
    held = await _by_owner(session, TICKET, None)
    moved: dict[str, int] = {}
    for kind in TICKET_MOVES:
        for owner, total in (await _by_owner(session, TICKET, kind)).items():
            moved[owner] = moved.get(owner, 0) + total
    seats = {}
    configs = await session.execute(select(TournamentRecord.id, TournamentRecord.config))
    for tid, config in configs.all():
        try:
            prices = json.loads(config)["prices"]
            seats[tid] = int(prices["buy_in"]) + int(prices["fee"])
        except (ValueError, KeyError, TypeError):
            continue  # the tournaments' check names a config it cannot read
    issued = await session.execute(
        select(LedgerAccount.owner, Posting.amount)
        .join(Posting, Posting.ledger_account_id == LedgerAccount.id)
        .join(Transfer, Transfer.id == Posting.transfer_id)
        .where(LedgerAccount.kind == TICKET, Transfer.kind == "t_ticket")
    )
    for owner, amount in issued:
        seat = seats.get(target_of(owner))
        if seat is not None and amount != seat:
            report.problems.append(
                f"ticket {owner}: a ticket of {amount} issued but a seat there is worth {seat}"
            )
    for owner, balance in held.items():
        if target_of(owner) not in seats and balance != 0:
            report.problems.append(f"ticket {owner}: {balance} in tickets to no tournament")
        if balance != moved.get(owner, 0):
            report.problems.append(
                f"ticket {owner}: holds {balance} but its tickets issued, used and refunded"
                f" make {moved.get(owner, 0)}"
            )
