"""Satellite tickets in the ledger: a seat won in a satellite is a ticket, the seat's value
(the target event's buy-in and fee) moved from the satellite's prize pool to the winner's
ticket account for that event (``ticket:<target>:<account>``), under the prize's key. A
registration in the target is paid from the ticket when the player holds one (the buy-in to
the target's pool, the fee to the house), not from their balance; taking it back refunds
the ticket. Nothing else moves a ticket: the audit holds each to its issues, uses and
refunds."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from pokerroom.store.models import LedgerAccount, Posting, Transfer
from pokerroom.store.money.ledger import transfer_sync

TICKET = "ticket"  # the ledger kind of a player's tickets to one event
TICKET_MOVES = ("t_ticket", "t_register", "t_unregister", "t_cancel")  # what moves a ticket


def ticket_account(target_id: str, account: int) -> tuple[str, str]:
    return (TICKET, f"{target_id}:{account}")


def target_of(owner: str) -> str:
    """The event a ticket account's tickets are for."""
    return owner.rsplit(":", 1)[0]


def issue_ticket_sync(
    session: Session,
    pool: tuple[str, str],
    target_id: str,
    account: int,
    amount: int,
    *,
    key: str,
    memo: str,
    now: datetime,
) -> None:
    """A seat won: its value from the satellite's pool to the winner's ticket (once)."""
    transfer_sync(
        session,
        "t_ticket",
        {pool: -amount, ticket_account(target_id, account): amount},
        now=now,
        key=key,
        memo=memo,
    )


def ticket_held_sync(session: Session, target_id: str, account: int) -> int:
    kind, owner = ticket_account(target_id, account)
    held = session.scalar(
        select(LedgerAccount.balance).where(
            LedgerAccount.kind == kind, LedgerAccount.owner == owner
        )
    )
    return int(held or 0)


def paid_by_ticket_sync(session: Session, key: str) -> bool:
    """Was the registration whose transfer has ``key`` paid from a ticket?"""
    found = session.scalar(
        select(Posting.id)
        .join(Transfer, Transfer.id == Posting.transfer_id)
        .join(LedgerAccount, LedgerAccount.id == Posting.ledger_account_id)
        .where(Transfer.idempotency_key == key, LedgerAccount.kind == TICKET)
    )
    return found is not None
