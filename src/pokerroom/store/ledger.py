"""The double-entry chip ledger (S-MONEY-1, S-MONEY-2).

Every movement of chips is one ``Transfer`` whose postings add up to zero, in
integer units. Player and table balances never go below zero: a buy-in larger
than the balance is refused and changes nothing. A request that carries an
idempotency key moves chips once, however often it is retried.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from pokerroom.store.db import on_async_session
from pokerroom.store.models import LedgerAccount, Posting, Transfer

BANK = ("bank", "play")  # issues play money: its balance is minus all chips in circulation
HOUSE = ("house", "rake")
NON_NEGATIVE = frozenset({"player", "table"})  # the house may owe after a correction


class LedgerError(ValueError):
    """A transfer that cannot be made. The ledger is unchanged."""


class InsufficientChipsError(LedgerError):
    pass


class IdempotencyConflictError(LedgerError):
    """The same idempotency key was used for a different transfer."""


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
    record = Transfer(kind=kind, idempotency_key=key, memo=memo, hand_id=hand_id, created_at=now)
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


def buy_in_sync(
    session: Session,
    account_id: int,
    table_id: str,
    amount: int,
    *,
    now: datetime,
    key: str | None = None,
) -> Transfer:
    """Chips from the player's balance to the table; never more than the balance."""
    if amount <= 0:
        raise LedgerError(f"a buy-in must be positive, got {amount}")
    return transfer_sync(
        session,
        "buy_in",
        {player_account(account_id): -amount, table_account(table_id): amount},
        now=now,
        key=key,
        memo=f"buy-in at {table_id}",
    )


def cash_out_sync(
    session: Session,
    account_id: int,
    table_id: str,
    amount: int,
    *,
    now: datetime,
    key: str | None = None,
) -> Transfer:
    """Chips from the table back to the player's balance when they leave."""
    if amount < 0:
        raise LedgerError(f"a cash-out cannot be negative, got {amount}")
    return transfer_sync(
        session,
        "cash_out",
        {table_account(table_id): -amount, player_account(account_id): amount},
        now=now,
        key=key,
        memo=f"left {table_id}",
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


ledger_account = on_async_session(ledger_account_sync)
transfer = on_async_session(transfer_sync)
buy_in = on_async_session(buy_in_sync)
cash_out = on_async_session(cash_out_sync)
take_rake = on_async_session(take_rake_sync)
