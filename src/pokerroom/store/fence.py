"""The fence: every write of a table's (or an event's) owner on several nodes is checked,
in its own transaction, against the lease it is made under (``fenced``): the lease row is
read and locked against a change of owner (``FOR KEY SHARE`` on PostgreSQL), and a write
whose epoch is no longer the row's is refused with ``StaleEpochError``, nothing of it
stored. Taking the next epoch locks the row ``FOR UPDATE``, which waits for those locks, so
a write under epoch e commits before epoch e+1 is granted, or is refused.

Part of the base: the tables' and the tournaments' stores fence their writes with it; the
lease transactions themselves (taking, renewing, adopting) are store/nodes/.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from pokerroom.store.compiled import Compiled
from pokerroom.store.models import TableLease

T = TypeVar("T")


class LeaseError(RuntimeError):
    """A lease could not be taken or kept."""


class StaleEpochError(LeaseError):
    """A write under an epoch that is no longer the table's: refused, nothing stored."""


@dataclass(frozen=True, slots=True)
class Lease:
    """A node's hold on a table: the epoch its writes are fenced on, and until when."""

    table_id: str
    node: str
    epoch: int
    expires_at: datetime


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
