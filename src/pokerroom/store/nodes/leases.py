"""Table leases (several nodes): one owner per table, fenced by an epoch.

A node takes a table's lease (``acquire_sync``) when nobody holds it or the holder's lease
has expired; each new owner gets the next epoch. The owner renews it (``renew_sync``)
every few seconds. Every write an owner makes is wrapped by ``fenced``: in the write's own
transaction the lease row is read and locked against a change of owner (``FOR KEY
SHARE`` on PostgreSQL), and if its epoch is no longer the writer's, the write is refused
with ``StaleEpochError`` and nothing of it is stored. Because taking the next epoch locks
the row ``FOR UPDATE``, which waits for those locks, a write under epoch e commits before
epoch e+1 is granted, or is refused: a stale owner (paused, partitioned) can never settle
a hand after another node took its table. A renewal only moves the expiry, so it neither
waits for the owner's writes nor holds them up (under load, renewals that queued behind
the writes' locks, and writes behind the renewal pass's, let leases run out).

Not wired into serving yet: a single node (the default) holds every table without a lease.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import Session

from pokerroom.store.compiled import Compiled
from pokerroom.store.models import TableLease

T = TypeVar("T")


class LeaseError(RuntimeError):
    """A lease could not be taken or kept."""


class LeaseHeldError(LeaseError):
    """Another node holds the table's lease and it has not expired."""


class StaleEpochError(LeaseError):
    """A write under an epoch that is no longer the table's: refused, nothing stored."""


@dataclass(frozen=True, slots=True)
class Lease:
    """A node's hold on a table: the epoch its writes are fenced on, and until when."""

    table_id: str
    node: str
    epoch: int
    expires_at: datetime


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


def check_sync(session: Session, lease: Lease) -> None:
    """In the caller's transaction: the table's lease row locked, and still under the
    lease's epoch and node; else StaleEpochError (the caller's transaction rolls back)."""
    # A row, not an ORM object, by a statement built once: this runs before every write of
    # a table on several nodes, each hand's start and end among them.
    row = _HELD.execute(session.connection(), {"table": lease.table_id}).first()
    if row is None or row.epoch != lease.epoch or row.node != lease.node:
        now_held = "nobody" if row is None else f"node {row.node} under epoch {row.epoch}"
        raise StaleEpochError(
            f"a write of node {lease.node} under epoch {lease.epoch} to table "
            f"{lease.table_id} was refused: the table is held by {now_held}"
        )


_HELD = Compiled(  # check_sync's read: the lease row locked against a change of owner
    select(TableLease.epoch, TableLease.node)
    .where(TableLease.table_id == bindparam("table"))
    .with_for_update(read=True, key_share=True)
)


def hold_locks_sync(session: Session, seconds: float | None) -> None:
    """On PostgreSQL, this transaction is ended (and its locks let go) if it sits idle
    longer than ``seconds``: a node paused in the middle of a fenced write would otherwise
    hold the table's lease row locked, and no node could adopt the table."""
    if seconds is None:
        return
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        milliseconds = max(1, round(seconds * 1000))
        connection.exec_driver_sql(
            f"SET LOCAL idle_in_transaction_session_timeout = {milliseconds}"
        )


def fenced(
    lease: Lease, work: Callable[[Session], T], *, hold: float | None = None
) -> Callable[[Session], T]:
    """``work`` that first checks ``lease`` in its own transaction (``check_sync``): a
    write with a stale epoch is refused and stores nothing. ``hold``: hold_locks_sync."""

    def run(session: Session) -> T:
        hold_locks_sync(session, hold)
        check_sync(session, lease)
        return work(session)

    return run
