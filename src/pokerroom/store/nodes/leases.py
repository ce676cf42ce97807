"""Table leases (several nodes): one owner per table, fenced by an epoch.

A node takes a table's lease (``acquire_sync``) when nobody holds it or the holder's lease
has expired; each new owner gets the next epoch. The owner renews it (``renew_sync``)
every few seconds. Every write an owner makes is wrapped by ``fenced`` (``store/fence.py``,
in the store's base, as the tables' and events' stores use it): in the write's own
transaction the lease row is read and locked against a change of owner (``FOR KEY
SHARE`` on PostgreSQL), and if its epoch is no longer the writer's, the write is refused
with ``StaleEpochError`` and nothing of it is stored. Because taking the next epoch locks
the row ``FOR UPDATE``, which waits for those locks, a write under epoch e commits before
epoch e+1 is granted, or is refused: a stale owner (paused, partitioned) can never settle
a hand after another node took its table. A renewal only moves the expiry, so it neither
waits for the owner's writes nor holds them up (under load, renewals that queued behind
the writes' locks, and writes behind the renewal pass's, let leases run out).

Lease times are the database's clock (``db_now_sync``, ``at_db_now``), so nodes' clocks
need not agree. A single node (the default) holds every table without a lease.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import func, select, text, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session

from pokerroom.store.fence import Lease, LeaseError, StaleEpochError, hold_locks_sync
from pokerroom.store.models import TableLease

T = TypeVar("T")
log = logging.getLogger("pokerroom.leases")


class LeaseHeldError(LeaseError):
    """Another node holds the table's lease and it has not expired."""


@dataclass(frozen=True, slots=True)
class LeaseSettings:
    """``ttl``: how long a renewal holds a table; ``renew``: how often the node renews
    (well under ``ttl``: a renewal may be late by one slow transaction)."""

    ttl: float = 10.0
    renew: float = 3.0

    def __post_init__(self) -> None:
        if not 0 < self.renew < self.ttl:
            raise ValueError(
                f"a lease is renewed more often than it lasts: renew every {self.renew} s,"
                f" lasting {self.ttl} s"
            )

    @property
    def hold(self) -> float:
        """Longest a node's session may sit inside a transaction (then PostgreSQL ends
        it): a node paused mid-write releases its table's lock well within a lease."""
        return max(1.0, self.ttl / 4)

    @property
    def margin(self) -> float:
        """A node stops dealing this long before its last renewal runs out."""
        return min(self.renew, self.ttl / 4)


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive datetimes (stored as UTC): compare them as UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _locked(session: Session, table_id: str, *, owner_only: bool = False) -> TableLease | None:
    """The lease row, locked till the transaction ends. ``owner_only`` (a write's check):
    against a change of owner only, ``FOR KEY SHARE`` on PostgreSQL, which taking the
    lease (``FOR UPDATE``) waits for but a renewal (an UPDATE of the expiry alone) does
    not: a node's renewals never queue behind its own tables' writes, nor they behind it."""
    query = select(TableLease).where(TableLease.table_id == table_id)
    if owner_only:
        return session.scalars(query.with_for_update(read=True, key_share=True)).first()
    return session.scalars(query.with_for_update()).first()


def acquire_sync(
    session: Session, table_id: str, node: str, *, now: datetime, ttl: timedelta
) -> Lease:
    """Take (or keep) the table's lease for ``node`` until ``now + ttl``. A node that
    takes it from another (expired) holder, or takes it for the first time, gets the
    next epoch; the holder renewing keeps its epoch. Held by another: LeaseHeldError."""
    if ttl <= timedelta(0):
        raise ValueError(f"a lease must last a while, not {ttl}")
    row = _locked(session, table_id)
    expires = now + ttl
    if row is None:
        row = TableLease(table_id=table_id, node=node, epoch=1, expires_at=expires)
        session.add(row)
    elif row.node == node and _aware(row.expires_at) > now:
        row.expires_at = expires
    elif _aware(row.expires_at) > now:
        raise LeaseHeldError(
            f"table {table_id} is held by node {row.node} (epoch {row.epoch}) until "
            f"{_aware(row.expires_at).isoformat()}"
        )
    else:  # expired: whoever takes it now (even the old holder) is a new owner
        row.node, row.epoch, row.expires_at = node, row.epoch + 1, expires
    session.flush()
    return Lease(table_id, node, row.epoch, expires)


def renew_sync(session: Session, lease: Lease, *, now: datetime, ttl: timedelta) -> Lease:
    """Extend a lease still held under its epoch; else StaleEpochError (it was lost)."""
    expires = now + ttl
    changed = session.execute(
        update(TableLease)
        .where(
            TableLease.table_id == lease.table_id,
            TableLease.node == lease.node,
            TableLease.epoch == lease.epoch,
            TableLease.expires_at > now,
        )
        .values(expires_at=expires)
    )
    if getattr(changed, "rowcount", 0) != 1:
        raise StaleEpochError(
            f"node {lease.node} lost table {lease.table_id}'s lease (epoch {lease.epoch})"
        )
    return Lease(lease.table_id, lease.node, lease.epoch, expires)


def db_now_sync(session: Session, *, wait: float = 1.0) -> datetime:
    """The database's clock; a lock this transaction waits for longer than ``wait``
    seconds fails it (a paused node's lock never stalls the renewals), and it is ended if
    it sits idle as long (a node paused in it never holds lease rows)."""
    session.execute(text(f"SET LOCAL lock_timeout = {max(1, round(wait * 1000))}"))
    hold_locks_sync(session, max(1.0, wait))
    moment = session.scalar(select(func.now()))
    assert isinstance(moment, datetime)
    return moment


# A one-off write for a caller (a table opened, an event created) is not retried by the next
# pass as renewals and adoptions are, so a busy loop between its statements must not fail
# it: it may sit idle, or wait for a lock, as long as a lease lasts (its ``wait``). Still
# bounded: a paused node's open or create holds nothing longer (the rows are new; creates
# queue on one lock).


def at_db_now(
    work: Callable[..., T], *, wait: float = 1.0, **fields: Any
) -> Callable[[Session], T]:
    """``work(session, now=<the database's clock>, **fields)`` in one transaction (the
    clock read as ``db_now_sync`` reads it, ``wait`` its bound)."""

    def run(session: Session) -> T:
        return work(session, now=db_now_sync(session, wait=wait), **fields)

    return run


async def try_taking(
    run: Callable[[Callable[[Session], T | None]], Awaitable[T | None]],
    key: str,
    node: str,
    work: Callable[[Session], T | None],
) -> T | None:
    """``work`` (which takes the lease ``key``) run by ``run`` (the database's); None if
    another node was quicker (or took it first), or its row is locked by a writer (paused?):
    a later pass tries again."""
    try:
        return await run(work)
    except (LeaseError, IntegrityError):
        return None
    except DBAPIError as error:
        log.info("node %s could not adopt %s: %s", node, key, error)
        return None
