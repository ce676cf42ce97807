"""Tournaments in the store: registrations, rebuys and add-ons, prizes, and the
event's state, each with its money in the same transaction.

Money of a tournament: a registration moves the buy-in from the player's balance to the
event's prize pool (ledger account ``tournament:<id>``) and the fee to the house's fees
(``house:fees``); taking it back before the start refunds both. A rebuy or the add-on moves
its price to the pool. Each place's prize goes from the pool to the player when the place is
final, so a finished event's pool is empty. Every movement has an idempotency key named by
what it is (the registration's row, the entry's rebuy number, the entry's prize): a retried
request, or a prize paid again after a restart, moves nothing the second time.

The chips at a tournament's tables are tournament chips, not money: they live in the
event's snapshot (``tournament.snapshot``), never in the ledger."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pokerroom.store.account_ids import player_key
from pokerroom.store.models import (
    Account,
    HandRecord,
    TournamentEntry,
    TournamentRecord,
    Transfer,
)
from pokerroom.store.money.ledger import KeyUsedError, LedgerError, player_account, transfer_sync
from pokerroom.store.tables.hands import StartedHand, end_hand_sync, hand_ending
from pokerroom.store.tournaments.bounties import BountyPayment, bounty_account, pay_bounties_sync
from pokerroom.store.tournaments.guarantees import pay_overlay_sync
from pokerroom.store.tournaments.tickets import (
    issue_ticket_sync,
    paid_by_ticket_sync,
    ticket_account,
    ticket_held_sync,
)

POOL = "tournament"  # the ledger kind of a prize pool
FEES = ("house", "fees")  # the house's tournament fees


class TournamentStoreError(LedgerError):
    """A tournament request the store refuses (nothing changed)."""


def pool_account(tournament_id: str) -> tuple[str, str]:
    return (POOL, tournament_id)


@dataclass(frozen=True, slots=True)
class Prices:
    """What a tournament costs, in the room's smallest unit (from its structure)."""

    buy_in: int
    fee: int
    rebuy: int = 0
    addon: int = 0
    bounty: int = 0  # of the buy-in: the entry's bounty (a knockout event), not prize pool

    def as_json(self) -> dict[str, int]:
        return {
            "buy_in": self.buy_in,
            "fee": self.fee,
            "rebuy": self.rebuy,
            "addon": self.addon,
            "bounty": self.bounty,
        }

    def entry_moves(self, tournament_id: str, sign: int = 1) -> dict[tuple[str, str], int]:
        """Where an entry's buy-in and fee go (``sign`` -1: where a refund comes from)."""
        return {
            pool_account(tournament_id): sign * (self.buy_in - self.bounty),
            bounty_account(tournament_id): sign * self.bounty,
            FEES: sign * self.fee,
        }


@dataclass(frozen=True, slots=True)
class Registration:
    entry: str
    repeated: bool  # a retried request: answered again, nothing moved


@dataclass(frozen=True, slots=True)
class Prize:
    entry: str
    account: int
    amount: int
    ticket: str | None = None  # a satellite's seat: a ticket to this event, not cash


def create_tournament_sync(
    session: Session,
    tournament_id: str,
    *,
    name: str,
    config: dict[str, Any],
    snapshot: str,
    now: datetime,
) -> TournamentRecord:
    if session.get(TournamentRecord, tournament_id) is not None:
        raise TournamentStoreError(f"tournament {tournament_id!r} already exists")
    record = TournamentRecord(
        id=tournament_id,
        name=name,
        status="registering",
        config=json.dumps(config),
        snapshot=snapshot,
        paid="[]",
        created_at=now,
        updated_at=now,
    )
    session.add(record)
    session.flush()
    return record


def _record(session: Session, tournament_id: str) -> TournamentRecord:
    record = session.get(TournamentRecord, tournament_id)
    if record is None:
        raise TournamentStoreError(f"no tournament {tournament_id!r}")
    return record


def prices_of(record: TournamentRecord) -> Prices:
    raw = json.loads(record.config)["prices"]
    return Prices(
        buy_in=raw["buy_in"],
        fee=raw["fee"],
        rebuy=raw["rebuy"],
        addon=raw["addon"],
        bounty=raw.get("bounty", 0),  # (absent before knockout events)
    )


def save_state_sync(
    session: Session, tournament_id: str, snapshot: str, *, status: str, now: datetime
) -> None:
    record = _record(session, tournament_id)
    record.snapshot, record.status, record.updated_at = snapshot, status, now
    session.flush()


def register_sync(
    session: Session,
    tournament_id: str,
    account: int,
    *,
    request: str,
    number: int,
    apply: Callable[[], tuple[str, str, str]],
    now: datetime,
) -> Registration:
    """Entry ``number`` of the player (1, or 2 for a first re-entry...) with its buy-in and
    fee. ``apply`` registers it with the coordinator and gives (entry, snapshot, status).

    The same ``request`` again while the registration holds is answered again; after it was
    taken back, refused. Two different requests for the same entry at once: the second finds
    the first (the unique ``active`` key) and is refused."""
    record = _record(session, tournament_id)
    if record.status == "cancelled":
        raise TournamentStoreError(code="tournament.cancelled", event=record.name)
    prices = prices_of(record)
    done = session.scalar(
        select(TournamentEntry).where(
            TournamentEntry.tournament_id == tournament_id,
            TournamentEntry.account_id == account,
            TournamentEntry.request == request,
        )
    )
    if done is not None:
        if done.status != "registered":
            raise KeyUsedError(code="tournament.key_taken_back", key=request)
        return Registration(done.entry, repeated=True)
    active = f"{tournament_id}:{account}:{number}"
    holder = session.scalar(select(TournamentEntry).where(TournamentEntry.active == active))
    if holder is not None:
        if holder.request == request:
            # The same request, committed by a twin after the look above (PostgreSQL reads
            # what is committed as each statement starts): answered again, as above.
            return Registration(holder.entry, repeated=True)
        raise TournamentStoreError(
            code="tournament.already_registered", number=number, account=account
        )
    # A ticket to this event pays for it (store/tickets.py); else the player's balance.
    cost = prices.buy_in + prices.fee
    payer = ticket_account(tournament_id, account)
    if ticket_held_sync(session, tournament_id, account) < cost:
        payer = player_account(account)
    row = TournamentEntry(
        tournament_id=tournament_id,
        account_id=account,
        number=number,
        entry="",
        request=request,
        active=active,
        status="registered",
        registered_at=now,
    )
    session.add(row)
    session.flush()  # a racing registration of the same entry fails here (IntegrityError)
    transfer_sync(
        session,
        "t_register",
        {payer: -cost, **prices.entry_moves(tournament_id)},
        now=now,
        key=f"t:{tournament_id}:register:{row.id}",
        memo=f"registered in {record.name}",
    )
    entry, snapshot, status = apply()
    row.entry = entry
    save_state_sync(session, tournament_id, snapshot, status=status, now=now)
    return Registration(entry, repeated=False)


def _payer(session: Session, tournament_id: str, row: TournamentEntry) -> tuple[str, str]:
    """Where a registration's refund goes: the ticket that paid it, or the balance."""
    if paid_by_ticket_sync(session, f"t:{tournament_id}:register:{row.id}"):
        return ticket_account(tournament_id, row.account_id)
    return player_account(row.account_id)


def _refund_sync(
    session: Session,
    record: TournamentRecord,
    row: TournamentEntry,
    why: str,
    memo: str,
    now: datetime,
) -> None:
    """An entry's buy-in and fee back from the pool and the fees to whoever paid them (its
    ticket or its balance), once: ``why`` (unregister or cancel) names the transfer."""
    tournament_id = record.id
    prices = prices_of(record)
    transfer_sync(
        session,
        f"t_{why}",
        {
            **prices.entry_moves(tournament_id, -1),
            _payer(session, tournament_id, row): prices.buy_in + prices.fee,
        },
        now=now,
        key=f"t:{tournament_id}:{why}:{row.id}",
        memo=memo,
    )


def registered_entry(session: Session, tournament_id: str, account: int) -> TournamentEntry | None:
    """The player's registration that holds, the latest (re-)entry."""
    return session.scalars(
        select(TournamentEntry)
        .where(
            TournamentEntry.tournament_id == tournament_id,
            TournamentEntry.account_id == account,
            TournamentEntry.status == "registered",
        )
        .order_by(TournamentEntry.number.desc())
        .limit(1)
    ).first()


def unregister_sync(
    session: Session,
    tournament_id: str,
    account: int,
    *,
    apply: Callable[[], str],
    now: datetime,
) -> None:
    """Take the registration back (before the start: ``apply`` checks with the coordinator
    and gives the snapshot after): the buy-in and the fee are refunded."""
    record = _record(session, tournament_id)
    row = registered_entry(session, tournament_id, account)
    if row is None:
        raise TournamentStoreError(
            code="tournament.account_not_registered", account=account, event=record.name
        )
    snapshot = apply()
    row.status, row.active = "unregistered", None
    session.flush()
    _refund_sync(session, record, row, "unregister", f"unregistered from {record.name}", now)
    save_state_sync(session, tournament_id, snapshot, status="registering", now=now)


def cancel_tournament_sync(
    session: Session,
    tournament_id: str,
    *,
    apply: Callable[[], str],
    now: datetime,
) -> list[int]:
    """Cancel an event that did not start (too few entrants at its time): every
    registration's buy-in and fee refunded, in one transaction with the state ``apply``
    gives (the coordinator with no entries). Gives the accounts refunded."""
    record = _record(session, tournament_id)
    rows = list(
        session.scalars(
            select(TournamentEntry)
            .where(
                TournamentEntry.tournament_id == tournament_id,
                TournamentEntry.status == "registered",
            )
            .order_by(TournamentEntry.id)
        )
    )
    snapshot = apply()
    for row in rows:
        row.status, row.active = "refunded", None
    session.flush()
    for row in rows:
        _refund_sync(session, record, row, "cancel", f"{record.name} was cancelled", now)
    save_state_sync(session, tournament_id, snapshot, status="cancelled", now=now)
    return [row.account_id for row in rows]


def buy_chips_sync(
    session: Session,
    tournament_id: str,
    account: int,
    *,
    entry: str,
    addon: bool,
    number: int,
    apply: Callable[[], str],
    now: datetime,
) -> bool:
    """Rebuy ``number`` (or the add-on) of an entry: its price to the pool, ``apply`` gives
    the chips at the table and the snapshot after. False: already done (a retry)."""
    record = _record(session, tournament_id)
    if record.status in ("finished", "cancelled"):  # its pool is paid out, or refunded
        raise TournamentStoreError(f"{record.name} is {record.status}: nothing can be bought")
    prices = prices_of(record)
    what = "addon" if addon else f"rebuy:{number}"
    key = f"t:{tournament_id}:{what}:{entry}"
    price = prices.addon if addon else prices.rebuy
    existing = session.scalar(select(func.count()).where(Transfer.idempotency_key == key))
    if existing:
        return False
    transfer_sync(
        session,
        "t_addon" if addon else "t_rebuy",
        {player_account(account): -price, pool_account(tournament_id): price},
        now=now,
        key=key,
        memo=f"{'add-on' if addon else 'rebuy'} in {record.name}",
    )
    save_state_sync(session, tournament_id, apply(), status="running", now=now)
    return True


def pay_prizes_sync(
    session: Session, tournament_id: str, prizes: Sequence[Prize], *, now: datetime
) -> list[str]:
    """Each final place's prize from the pool to the player (once: its key names the
    entry); the entries now paid are remembered with the event. Gives the entries paid."""
    record = _record(session, tournament_id)
    paid = set(json.loads(record.paid))
    new: list[str] = []
    for prize in prizes:
        if prize.entry in paid:
            continue
        if prize.amount > 0 and prize.ticket is not None:
            issue_ticket_sync(
                session,
                pool_account(tournament_id),
                prize.ticket,
                prize.account,
                prize.amount,
                key=f"t:{tournament_id}:prize:{prize.entry}",
                memo=f"a seat in {prize.ticket} won in {record.name}",
                now=now,
            )
        elif prize.amount > 0:
            transfer_sync(
                session,
                "t_prize",
                {
                    pool_account(tournament_id): -prize.amount,
                    player_account(prize.account): prize.amount,
                },
                now=now,
                key=f"t:{tournament_id}:prize:{prize.entry}",
                memo=f"prize in {record.name}",
            )
        paid.add(prize.entry)
        new.append(prize.entry)
    record.paid = json.dumps(sorted(paid))
    session.flush()
    return new


def settle_sync(
    session: Session,
    tournament_id: str,
    *,
    snapshot: str,
    status: str,
    prizes: Sequence[Prize],
    now: datetime,
    bounties: Sequence[BountyPayment] = (),
    overlay: int = 0,
) -> list[str]:
    """The event's state after a change between hands (a rebuy offer refused or lapsed) and
    the prizes of the places it made final, the bounties won and the guarantee's overlay
    once its field is final, in one transaction."""
    save_state_sync(session, tournament_id, snapshot, status=status, now=now)
    if overlay:
        key, name = f"t:{tournament_id}:overlay", _record(session, tournament_id).name
        memo = f"the house's overlay to the guarantee of {name}"
        pay_overlay_sync(session, pool_account(tournament_id), overlay, key=key, memo=memo, now=now)
    if bounties:
        name = _record(session, tournament_id).name
        pay_bounties_sync(session, tournament_id, bounties, name=name, now=now)
    return pay_prizes_sync(session, tournament_id, prizes, now=now)


def finish_tournament_hand_sync(
    session: Session,
    started: StartedHand,
    tournament_id: str,
    *,
    deck: Sequence[int],
    record: str,
    cancelled: bool,
    players: Sequence[tuple[int, int, int, int, int]],
    snapshot: str,
    status: str,
    prizes: Sequence[Prize],
    now: datetime,
    bounties: Sequence[BountyPayment] = (),
    overlay: int = 0,
) -> list[str]:
    """A tournament hand's end, in one transaction: its record and players, the event's
    state after it (busts, moves, levels), the prizes of the places it made final and the
    bounties it won."""
    ending = hand_ending(started, deck, record, 0, cancelled, now)  # no rake in a tournament
    if not end_hand_sync(session.connection(), ending, players):
        raise ValueError(f"hand {started.hand_id} is not running")
    return settle_sync(
        session,
        tournament_id,
        snapshot=snapshot,
        status=status,
        prizes=prizes,
        now=now,
        bounties=bounties,
        overlay=overlay,
    )


def names_sync(session: Session, tournament_id: str) -> dict[str, str]:
    rows = session.execute(
        select(Account.id, Account.display_name)
        .join(TournamentEntry, TournamentEntry.account_id == Account.id)
        .where(TournamentEntry.tournament_id == tournament_id)
    )
    return {player_key(account): name for account, name in rows}


def last_hands_sync(session: Session, prefix: str) -> dict[str, int]:
    rows = session.execute(
        select(HandRecord.table_id, func.max(HandRecord.number))
        .where(HandRecord.table_id.startswith(prefix, autoescape=True))
        .group_by(HandRecord.table_id)
    )
    return {table: int(number) for table, number in rows}


def open_tournaments_sync(session: Session) -> list[TournamentRecord]:
    """Every event not finished (a restart resumes them) and the finished ones (listed)."""
    return list(session.scalars(select(TournamentRecord).order_by(TournamentRecord.created_at)))


def entries_of_sync(session: Session, tournament_id: str) -> list[TournamentEntry]:
    return list(
        session.scalars(
            select(TournamentEntry)
            .where(TournamentEntry.tournament_id == tournament_id)
            .order_by(TournamentEntry.id)
        )
    )
