"""The double-entry chip ledger (S-MONEY-1, S-MONEY-2).

Every movement of chips is one ``Transfer`` whose postings add up to zero, in
integer units. Player and table balances never go below zero: a buy-in larger
than the balance is refused and changes nothing. A request that carries an
idempotency key moves chips once, however often it is retried.

A player's buy-in, top-ups and cash-out at a table belong to one ``Sitting``; the
request keys of a join and of a top-up are bound to it (S-MONEY-3): the same request
while the sitting lasts is answered again without moving chips, and the key is
refused once the sitting has ended. Each cash-out ends its own sitting, under a key
that names it, so no two cash-outs share a key.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from enum import StrEnum

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from pokerroom.store.db import on_async_session
from pokerroom.store.models import LedgerAccount, Posting, Sitting, Transfer

BANK = ("bank", "play")  # issues play money: its balance is minus all chips in circulation
HOUSE = ("house", "rake")
NON_NEGATIVE = frozenset({"player", "table", "tournament"})  # the house may owe after a correction


class LedgerError(ValueError):
    """A transfer that cannot be made. The ledger is unchanged."""


class InsufficientChipsError(LedgerError):
    pass


class IdempotencyConflictError(LedgerError):
    """The same idempotency key was used for a different transfer."""


class KeyUsedError(IdempotencyConflictError):
    """A request key whose operation is over (its sitting ended): it cannot act again."""


# Each operation is written once, on a synchronous Session, so that the room can run a
# whole transaction in one step on the database's thread (``Database.run``); the async
# functions below run the same code inside an AsyncSession.


def ledger_account_sync(session: Session, kind: str, owner: str) -> LedgerAccount:
    """The ledger account of (kind, owner), created empty on first use."""
    found = session.scalar(
        select(LedgerAccount).where(LedgerAccount.kind == kind, LedgerAccount.owner == owner)
    )
    if found is not None:
        return found
    created = LedgerAccount(kind=kind, owner=owner, balance=0)
    try:
        with session.begin_nested():  # another transaction may create it at the same time
            session.add(created)
    except IntegrityError:
        found = session.scalar(
            select(LedgerAccount).where(LedgerAccount.kind == kind, LedgerAccount.owner == owner)
        )
        if found is None:  # pragma: no cover - the conflict was about something else
            raise
        return found
    return created


async def balance(session: AsyncSession, kind: str, owner: str) -> int:
    value = await session.scalar(
        select(LedgerAccount.balance).where(
            LedgerAccount.kind == kind, LedgerAccount.owner == owner
        )
    )
    return int(value or 0)


def transfer_sync(
    session: Session,
    kind: str,
    moves: Mapping[tuple[str, str], int],
    *,
    now: datetime,
    key: str | None = None,
    memo: str = "",
    hand_id: int | None = None,
    sitting_id: int | None = None,
) -> Transfer:
    """Move chips: ``moves`` maps (kind, owner) accounts to signed amounts summing to zero."""
    amounts = {account: amount for account, amount in moves.items() if amount != 0}
    for account, amount in amounts.items():
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise LedgerError(f"{account}: {amount!r} is not a whole number of chips")
    if sum(amounts.values()) != 0:
        raise LedgerError(f"a {kind} transfer must balance, not add up to {sum(amounts.values())}")
    if key is not None:
        existing = session.scalar(select(Transfer).where(Transfer.idempotency_key == key))
        if existing is not None:
            _same_transfer(session, existing, kind, amounts)
            return existing  # already done: chips move once (S-MONEY-1)
    accounts = {account: ledger_account_sync(session, *account) for account in amounts}
    for account, amount in sorted(amounts.items()):  # a fixed order: no lock cycles
        row = accounts[account]
        locked = session.scalar(
            select(LedgerAccount.balance).where(LedgerAccount.id == row.id).with_for_update()
        )
        if row.kind in NON_NEGATIVE and int(locked or 0) + amount < 0:
            raise InsufficientChipsError(
                f"{row.kind} {row.owner} has {locked} chips, cannot pay {-amount}"
            )
    record = Transfer(
        kind=kind,
        idempotency_key=key,
        memo=memo,
        hand_id=hand_id,
        created_at=now,
        sitting_id=sitting_id,
    )
    session.add(record)
    session.flush()
    try:
        for account, amount in amounts.items():
            row = accounts[account]
            session.add(Posting(transfer_id=record.id, ledger_account_id=row.id, amount=amount))
            session.execute(
                update(LedgerAccount)
                .where(LedgerAccount.id == row.id)
                .values(balance=LedgerAccount.balance + amount)
            )
        session.flush()
    except IntegrityError as error:  # a concurrent debit got there first: the check holds
        raise InsufficientChipsError(f"{kind}: not enough chips ({error.orig})") from None
    for row in accounts.values():
        session.refresh(row)
    return record


def _same_transfer(
    session: Session, existing: Transfer, kind: str, amounts: Mapping[tuple[str, str], int]
) -> None:
    rows = session.execute(
        select(LedgerAccount.kind, LedgerAccount.owner, Posting.amount)
        .join(Posting, Posting.ledger_account_id == LedgerAccount.id)
        .where(Posting.transfer_id == existing.id)
    )
    recorded = {(k, o): a for k, o, a in rows}
    if existing.kind != kind or recorded != dict(amounts):
        raise IdempotencyConflictError(
            f"idempotency key {existing.idempotency_key!r} was used for another transfer"
        )


def player_account(account_id: int) -> tuple[str, str]:
    return ("player", str(account_id))


def table_account(table_id: str) -> tuple[str, str]:
    return ("table", table_id)


class TableMove(StrEnum):
    """Chips crossing between a player's balance and a table (the value is the transfer's kind)."""

    BUY_IN = "buy_in"  # balance -> table: a join's buy-in or added chips
    CASH_OUT = "cash_out"  # table -> balance: the player leaves


def move_chips_sync(
    session: Session,
    move: TableMove,
    account_id: int,
    table_id: str,
    amount: int,
    *,
    now: datetime,
    key: str | None = None,
    sitting_id: int | None = None,
) -> Transfer:
    """Chips from the player's balance to the table (a buy-in: positive, never more than the
    balance), or from the table back to the balance when they leave (never negative)."""
    player, table = player_account(account_id), table_account(table_id)
    if move is TableMove.BUY_IN:
        if amount <= 0:
            raise LedgerError(f"a buy-in must be positive, got {amount}")
        moves, memo = {player: -amount, table: amount}, f"buy-in at {table_id}"
    else:
        if amount < 0:
            raise LedgerError(f"a cash-out cannot be negative, got {amount}")
        moves, memo = {table: -amount, player: amount}, f"left {table_id}"
    return transfer_sync(
        session, move.value, moves, now=now, key=key, memo=memo, sitting_id=sitting_id
    )


def take_rake_sync(
    session: Session, table_id: str, amount: int, *, now: datetime, hand_id: int | None
) -> Transfer | None:
    """The house's rake of a hand, from the table's chips."""
    if amount == 0:
        return None
    return transfer_sync(
        session,
        "rake",
        {table_account(table_id): -amount, HOUSE: amount},
        now=now,
        key=None if hand_id is None else f"rake:{hand_id}",
        hand_id=hand_id,
        memo=f"rake at {table_id}",
    )


def open_sitting_sync(
    session: Session, table_id: str, account_id: int, *, number: int | None = None
) -> Sitting | None:
    """The player's sitting at the table that has not ended (the one numbered ``number``)."""
    query = select(Sitting).where(
        Sitting.table_id == table_id, Sitting.account_id == account_id, Sitting.ended_at.is_(None)
    )
    if number is not None:
        query = query.where(Sitting.number == number)
    return session.scalars(query.order_by(Sitting.id.desc()).limit(1)).first()


def repeated_request_sync(
    session: Session,
    key: str,
    *,
    sitting: Sitting | None,
    seated: bool,
    amount: int,
    seat: int | None = None,
) -> bool:
    """Whether ``key`` names an operation already done in the current sitting (a retry:
    answer it again, move nothing). False for a new key. Raises ``KeyUsedError`` when the
    key belongs to a sitting that has ended (or to another one), and
    ``IdempotencyConflictError`` when the retry asks for another amount or seat."""
    existing = session.scalar(select(Transfer).where(Transfer.idempotency_key == key))
    if existing is None:
        return False
    if not seated or existing.sitting_id != (None if sitting is None else sitting.id):
        raise KeyUsedError(
            f"request key {key!r} was already used in a sitting that has ended:"
            " it cannot buy in or seat again (send a new request key)"
        )
    posted = _table_posting(session, existing)
    if posted != amount:
        raise IdempotencyConflictError(
            f"request key {key!r} moved {posted} chips, not {amount}: a key names one request"
        )
    if seat is not None and sitting is not None and sitting.seat != seat:
        raise IdempotencyConflictError(
            f"request key {key!r} seated you at seat {sitting.seat}, not seat {seat}"
        )
    return True


def _table_posting(session: Session, existing: Transfer) -> int:
    value = session.scalar(
        select(Posting.amount)
        .join(LedgerAccount, Posting.ledger_account_id == LedgerAccount.id)
        .where(Posting.transfer_id == existing.id, LedgerAccount.kind == "table")
    )
    return int(value or 0)


def join_sync(
    session: Session,
    account_id: int,
    table_id: str,
    amount: int,
    *,
    seat: int,
    number: int,
    now: datetime,
    key: str,
) -> Sitting:
    """Open sitting ``number`` (the table's next ``Seat.joined``) with its buy-in."""
    sitting = Sitting(
        table_id=table_id, account_id=account_id, seat=seat, number=number, started_at=now
    )
    session.add(sitting)
    session.flush()
    move_chips_sync(
        session,
        TableMove.BUY_IN,
        account_id,
        table_id,
        amount,
        now=now,
        key=key,
        sitting_id=sitting.id,
    )
    return sitting


def leave_sync(
    session: Session, account_id: int, table_id: str, amount: int, *, now: datetime
) -> Transfer | None:
    """End the player's sitting at the table and cash out its ``amount`` (none if zero).

    The cash-out's key names the sitting, so every cash-out is its own operation. A seat
    taken before sittings were recorded has none: its cash-out carries no key."""
    sitting = open_sitting_sync(session, table_id, account_id)
    if sitting is not None:
        sitting.ended_at = now
        session.flush()
    if amount == 0:
        return None
    return move_chips_sync(
        session,
        TableMove.CASH_OUT,
        account_id,
        table_id,
        amount,
        now=now,
        key=None if sitting is None else f"leave:{table_id}:{sitting.id}",
        sitting_id=None if sitting is None else sitting.id,
    )


def top_up_sync(
    session: Session, account_id: int, *, at_least: int, to: int, now: datetime
) -> Transfer | None:
    """Play money from the bank to an account whose balance is below ``at_least``, bringing
    it to ``to`` (a ``top_up`` transfer, balanced like any other); None when it has enough.
    The room does this only for its own bots (``RoomStore.top_up_bot``)."""
    if to < at_least:
        raise LedgerError(f"a top-up to {to} would stay below {at_least}")
    player = player_account(account_id)
    row = ledger_account_sync(session, *player)
    held = int(
        session.scalar(
            select(LedgerAccount.balance).where(LedgerAccount.id == row.id).with_for_update()
        )
        or 0
    )
    if held >= at_least:
        return None
    return transfer_sync(
        session, "top_up", {BANK: held - to, player: to - held}, now=now, memo="bot top-up"
    )


transfer = on_async_session(transfer_sync)
top_up = on_async_session(top_up_sync)
move_chips = on_async_session(move_chips_sync)
open_sitting = on_async_session(open_sitting_sync)
repeated_request = on_async_session(repeated_request_sync)
join = on_async_session(join_sync)
leave = on_async_session(leave_sync)
