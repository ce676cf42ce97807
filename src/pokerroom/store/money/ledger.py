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
from typing import Any

from sqlalchemy import Connection, Row, bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from pokerroom.errors import CodedError
from pokerroom.store.account_ids import player_key
from pokerroom.store.compiled import Compiled
from pokerroom.store.db import on_async_session
from pokerroom.store.models import LedgerAccount, Posting, Sitting, Transfer
from pokerroom.store.money.transfers import (
    NEW_TRANSFER,
    accounts_query,
    known_accounts,
    new_transfer_pg,
)

BANK = ("bank", "play")  # issues play money: its balance is minus all chips in circulation
HOUSE = ("house", "rake")
Account = tuple[str, str]  # a ledger account's (kind, owner)
Held = Row[Any]  # a ledger account's row as read for a transfer: id, kind, owner, balance
NON_NEGATIVE = frozenset(
    {"player", "table", "tournament", "bounty", "ticket"}
)  # the house may owe after a correction


class LedgerError(CodedError, ValueError):
    """A transfer that cannot be made. The ledger is unchanged. Those a player is sent carry
    their ``code`` (pokerroom/errors.py)."""


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
    accounts = _locked_accounts(session, amounts)
    _check_funds(accounts, amounts)
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
    _post(session.connection(), kind, record.id, accounts, amounts)
    return record


def _check_funds(accounts: Mapping[Account, Held], amounts: Mapping[Account, int]) -> None:
    """No player, table or tournament account may go below zero (read locked)."""
    for account, amount in amounts.items():
        row = accounts[account]
        if row.kind in NON_NEGATIVE and row.balance + amount < 0:
            if row.kind == "player":
                raise InsufficientChipsError(
                    code="chips.insufficient",
                    account=row.owner,
                    balance=row.balance,
                    amount=-amount,
                )
            raise InsufficientChipsError(
                f"{row.kind} {row.owner} has {row.balance} chips, cannot pay {-amount}"
            )


def _post(
    connection: Connection,
    kind: str,
    transfer_id: int,
    accounts: Mapping[Account, Held],
    amounts: Mapping[Account, int],
) -> None:
    """The transfer's postings in one statement and the balances in another (executemany),
    not a round trip per account: a hand's end is on every table's path."""
    if not amounts:  # nothing moves (a zero transfer): the record alone
        return
    try:
        _NEW_POSTINGS.executemany(
            connection,
            [
                {"transfer_id": transfer_id, "ledger_account_id": accounts[a].id, "amount": n}
                for a, n in amounts.items()
            ],
        )
        _ADD_TO_BALANCE.executemany(
            connection, [{"row": accounts[a].id, "amount": n} for a, n in amounts.items()]
        )
    except IntegrityError as error:  # a concurrent debit got there first: the check holds
        raise InsufficientChipsError(f"{kind}: not enough chips ({error.orig})") from None


_NEW_POSTINGS = Compiled(  # built and compiled once
    insert(Posting).values(
        {column: bindparam(column) for column in ("transfer_id", "ledger_account_id", "amount")}
    )
)
_ADD_TO_BALANCE = Compiled(  # run on the connection: one executemany
    update(LedgerAccount)
    .where(LedgerAccount.id == bindparam("row"))
    .values(balance=LedgerAccount.balance + bindparam("amount"))
)


def _locked_accounts(session: Session, amounts: Mapping[Account, int]) -> dict[Account, Held]:
    """The ledger accounts of ``amounts`` (id, kind, owner, balance), created empty on first
    use, read with their balances and locked (PostgreSQL: FOR UPDATE, in id order, so no
    lock cycles). Rows, not ORM objects: the session keeps no copy of a balance that the
    transfer's statements then change behind its back.

    No lock is held while an account is created: creating one can wait for another
    transaction creating the same one, which may itself wait for a lock held here (a
    deadlock). So on PostgreSQL they are read unlocked first; SQLite's one writer holds
    the whole database, and one statement does."""
    if not amounts:
        return {}
    connection = session.connection()
    wanted: dict[str, str] = {}
    for n, (kind, owner) in enumerate(amounts):
        wanted[f"kind{n}"], wanted[f"owner{n}"] = kind, owner
    sqlite = connection.dialect.name == "sqlite"
    query = accounts_query(len(amounts), locked=not sqlite)
    if not sqlite:
        # Accounts this connection has seen exist are not read unlocked again: a table's
        # and the house's accounts at every hand's rake were a round trip each.
        known = known_accounts(connection)
        if not known.issuperset(amounts):
            named = accounts_query(len(amounts), locked=False, named=True)
            existing = {(r.kind, r.owner) for r in named.execute(connection, wanted)}
            for account in amounts:
                if account not in existing:  # created first, then locked with the rest
                    ledger_account_sync(session, *account)
            known.update(existing)
    found = {(r.kind, r.owner): r for r in query.execute(connection, wanted)}
    # SQLite, a first use: created, then read with the rest. PostgreSQL: an account known
    # from a transaction that was rolled back after creating it, created again the same way.
    if len(found) < len(amounts):
        for account in amounts:
            if account not in found:
                ledger_account_sync(session, *account)
        found = {(r.kind, r.owner): r for r in query.execute(connection, wanted)}
    return found


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
    return ("player", player_key(account_id))


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
) -> int | None:
    """The house's rake of a hand, from the table's chips: the transfer's id (None for no
    rake). Inside a hand's end, which runs once per hand (its status moves from running
    in the same transaction), so the key ``rake:<hand>`` is new: it is not looked up first
    (its unique index still refuses a second one)."""
    if amount == 0:
        return None
    moves = {table_account(table_id): -amount, HOUSE: amount}
    if hand_id is None:  # no hand to name it: the general, idempotent path
        return transfer_sync(session, "rake", moves, now=now, memo=f"rake at {table_id}").id
    return _post_sync(
        session,
        "rake",
        moves,
        now=now,
        key=f"rake:{hand_id}",
        hand_id=hand_id,
        memo=f"rake at {table_id}",
    )


def _post_sync(
    session: Session,
    kind: str,
    moves: Mapping[tuple[str, str], int],
    *,
    now: datetime,
    key: str,
    hand_id: int,
    memo: str,
) -> int:
    """``transfer_sync`` for a transfer whose key is new by construction: four statements,
    the transfer's row written without an ORM object (a hand's end)."""
    if sum(moves.values()) != 0:
        raise LedgerError(f"a {kind} transfer must balance, not add up to {sum(moves.values())}")
    accounts = _locked_accounts(session, moves)
    _check_funds(accounts, moves)
    values = {"kind": kind, "key": key, "memo": memo, "hand_id": hand_id, "created_at": now}
    connection = session.connection()
    if connection.dialect.name != "postgresql":
        transfer_id = NEW_TRANSFER.execute(connection, values).scalar_one()
        _post(connection, kind, transfer_id, accounts, moves)
        return int(transfer_id)
    # funds checked above: the rows hold enough (and are locked)
    return new_transfer_pg(connection, values, {accounts[a].id: n for a, n in moves.items()})


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
        raise KeyUsedError(code="chips.key_used", key=key)
    posted = _table_posting(session, existing)
    if posted != amount:
        raise IdempotencyConflictError(
            code="chips.key_amount", key=key, posted=posted, amount=amount
        )
    if seat is not None and sitting is not None and sitting.seat != seat:
        raise IdempotencyConflictError(
            code="chips.key_seat", key=key, seated=sitting.seat, seat=seat
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
    taken before sittings were recorded has none: its cash-out carries no key. No sitting
    open but one that ended: this leave is that sitting's, run again (a unit of work that
    committed though its batch reported an error, run again by group commit): its
    cash-out is done, nothing moves again."""
    sitting = open_sitting_sync(session, table_id, account_id)
    if sitting is None:
        ended = session.scalars(
            select(Sitting.id)
            .where(Sitting.table_id == table_id, Sitting.account_id == account_id)
            .order_by(Sitting.id.desc())
            .limit(1)
        ).first()
        if ended is not None:
            return session.scalar(
                select(Transfer).where(Transfer.idempotency_key == f"leave:{table_id}:{ended}")
            )
    else:
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
