"""A node's share of the room's tables on PostgreSQL: its heartbeat, the tables
with their leases as every node sees them, and adopting a table whose owner is gone.

Adopting is one transaction: the lease taken under the next epoch (its row locked, so a
write of the old owner either committed before it or is refused after it), the table's
hand cut off by the old owner cancelled (R-DECK-5: the table goes back to the snapshot from
before it, every chip back with its owner), the table restored by the caller and saved, and
the leavers of that cancel cashed out. Until it commits, nothing of it is seen.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import delete, func, or_, select, text, tuple_, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from pokerroom.store.fence import Lease, check_sync
from pokerroom.store.models import HandRecord, NodeRecord, TableLease, TableRecord
from pokerroom.store.nodes.leases import _aware, acquire_sync, db_now_sync
from pokerroom.store.nodes.tournament_leases import TournamentRow, tournaments_sync
from pokerroom.store.tables.hands import _cash_out_sync, _mark_cancelled, save_table_sync

T = TypeVar("T")
FIRST_TABLES_LOCK = 15_0012  # advisory lock: one node stores the first tables


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table as every node sees it: its stored state and who holds its lease."""

    id: str
    name: str
    snapshot: str
    owner: str | None  # the lease's node (None: never leased)
    epoch: int
    expires_at: datetime | None
    updated_at: datetime  # when its snapshot was written: unchanged, the same snapshot
    # When every table was last read whole (tables_sync): a pass in between reads only the
    # tables written since and the leases run out; a row not read again then keeps its
    # owner, and as its lease was held at that pass's ``now``, ``expires_at`` is at least then.
    read_at: datetime | None = None

    def free(self, now: datetime) -> bool:
        """Nobody holds it: never leased, or its lease expired."""
        return self.expires_at is None or _aware(self.expires_at) <= now


@dataclass(frozen=True, slots=True)
class Adopted:
    """What a restore gave back: the table to run (whatever the caller built), what to save
    (name, config, snapshot) and who stood up as its hand was cancelled (account, stack)."""

    table: Any
    name: str
    config: dict[str, Any]
    snapshot: str
    leavers: list[tuple[int, int]]
    cancelled: tuple[int, ...] = ()  # the numbers of the hands cut off there, cancelled


Restore = Callable[[str, dict[str, Any], str, int], Adopted]


def heartbeat_sync(
    session: Session, node: str, *, now: datetime, ttl: timedelta, alive: bool = True
) -> int:
    """The node says it is alive; answers how many nodes are (seen within ``ttl``). Not
    ``alive`` (draining): it is no longer counted, as if it had left."""
    if not alive:
        leave_sync(session, node)
    else:
        statement = insert(NodeRecord).values(id=node, started_at=now, seen_at=now)
        update = statement.on_conflict_do_update(index_elements=["id"], set_={"seen_at": now})
        session.execute(update)
    live = session.scalar(select(func.count()).where(NodeRecord.seen_at > now - ttl))
    return max(1, int(live or 0))


def leave_sync(session: Session, node: str) -> None:
    """A node stopping cleanly is no longer counted live (the others' shares grow now)."""
    session.execute(delete(NodeRecord).where(NodeRecord.id == node))


def tables_sync(
    session: Session, known: Sequence[TableRow] = (), *, now: datetime | None = None
) -> list[TableRow]:
    """Every open cash table with its lease (tournament tables are their events'). Each
    pass of every node reads this, so with ``known`` (the last pass's rows) and ``now``
    (the pass's database time) only what changed since is read: the tables written since
    (a hand ended, a lease taken: an adoption or an opening saves its table) and the leases
    run out by ``now``, not every table; every table is read whole at least every
    ``FULL_READ_SECONDS`` (and when a table was closed meanwhile: the count differs).
    Either way a snapshot (the bulk) unchanged since ``known`` is taken from there."""
    now = None if now is None else _aware(now)
    if now is not None and known:
        oldest = min((row.read_at for row in known), default=None, key=_none_first)
        if oldest is not None and _aware(oldest) > now - FULL_READ:
            rows = _changed_since(session, known, now)
            if rows is not None:
                return rows
    return _all_tables(session, known, now)


FULL_READ = timedelta(seconds=30)  # every table read whole at least this often
# A table written up to this long before the newest write seen is read again: a write
# committed a while after its time was taken (and nodes' clocks a little apart).
CHANGED_MARGIN = timedelta(seconds=5)
_LIGHT = (  # a table and its lease, without the snapshot
    TableRecord.id,
    TableRecord.name,
    TableRecord.updated_at,
    TableLease.node,
    TableLease.epoch,
    TableLease.expires_at,
)


def _none_first(moment: datetime | None) -> tuple[bool, datetime | None]:
    return (moment is not None, None if moment is None else _aware(moment))


def _all_tables(
    session: Session, known: Sequence[TableRow], now: datetime | None
) -> list[TableRow]:
    rows = session.execute(
        select(*_LIGHT)
        .outerjoin(TableLease, TableLease.table_id == TableRecord.id)
        .where(TableRecord.closed.is_(False))
        .order_by(TableRecord.id)
    ).all()
    snapshots = _snapshots(session, rows, {row.id: row for row in known})
    return [
        TableRow(table_id, name, snapshots[table_id], node, epoch or 0, expires, updated, now)
        for table_id, name, updated, node, epoch, expires in rows
    ]


def _changed_since(
    session: Session, known: Sequence[TableRow], now: datetime
) -> list[TableRow] | None:
    """``known`` brought up to date from the tables written since and the leases run
    out; None if a table was closed meanwhile (then every table is read again)."""
    # Since the newest write seen or the last read of every table, whichever is later:
    # anything committed before that read was in it.
    newest = max(max(_aware(r.updated_at), _aware(r.read_at or r.updated_at)) for r in known)
    since = newest - CHANGED_MARGIN
    rows = session.execute(
        select(*_LIGHT)
        .outerjoin(TableLease, TableLease.table_id == TableRecord.id)
        .where(
            TableRecord.closed.is_(False),
            or_(
                TableRecord.updated_at > since,
                TableLease.expires_at.is_(None),
                TableLease.expires_at <= now,
            ),
        )
    ).all()
    before = {row.id: row for row in known}
    snapshots = _snapshots(session, rows, before)
    merged = dict(before)
    held = now + timedelta(microseconds=1)  # not run out at ``now`` (else read again)
    for table_id, name, updated, node, epoch, expires in rows:
        read = before[table_id].read_at if table_id in before else now
        snapshot = snapshots[table_id]
        merged[table_id] = TableRow(
            table_id, name, snapshot, node, epoch or 0, expires, updated, read
        )
    again = {row[0] for row in rows}
    for table_id, r in before.items():
        if table_id not in again and r.expires_at is not None and _aware(r.expires_at) < held:
            merged[table_id] = TableRow(  # (not ``replace``: a few times quicker, per table)
                r.id, r.name, r.snapshot, r.owner, r.epoch, held, r.updated_at, r.read_at
            )
    count = session.scalar(select(func.count()).where(TableRecord.closed.is_(False)))
    if count != len(merged):
        return None
    return [merged[table_id] for table_id in sorted(merged)]


def _snapshots(
    session: Session, rows: Sequence[Any], before: dict[str, TableRow]
) -> dict[str, str]:
    """The snapshots of ``rows``: those unchanged since ``before`` from there, the others
    read (only they)."""
    snapshots: dict[str, str] = {}
    for table_id, _, updated_at, *_ in rows:
        last = before.get(table_id)
        if last is not None and last.updated_at == updated_at:
            snapshots[table_id] = last.snapshot
    wanted = [r[0] for r in rows if r[0] not in snapshots]
    if wanted:
        read = session.execute(
            select(TableRecord.id, TableRecord.snapshot).where(TableRecord.id.in_(wanted))
        )
        snapshots.update({str(t): str(snapshot) for t, snapshot in read})
    return snapshots


def renew_all_sync(
    session: Session, leases: list[Lease], *, now: datetime, ttl: timedelta
) -> tuple[list[Lease], list[Lease]]:
    """Every lease still held under its epoch extended to ``now + ttl``, in one statement
    (a pass's every round trip waits for a turn of a busy node's event loop): (kept, lost).
    Only a node taking a row (``FOR UPDATE``: an adoption) makes it wait, never the
    owner's own writes (``check_sync``); if that lasts past the transaction's lock_timeout,
    none is renewed this time (in neither list: the next pass tries again)."""
    if not leases:
        return [], []
    expires = now + ttl
    mine = {(lease.table_id, lease.node, lease.epoch): lease for lease in leases}
    try:
        with session.begin_nested():
            if session.connection().dialect.name == "postgresql":
                # Three arrays, not a parameter a lease: the statement for thousands of
                # leases is as short to build, send and plan as for one.
                tables, nodes, epochs = (list(column) for column in zip(*mine, strict=True))
                values = {"t": tables, "n": nodes, "e": epochs, "now": now, "until": expires}
                rows = session.execute(_RENEW, values).all()
            else:
                held = tuple_(TableLease.table_id, TableLease.node, TableLease.epoch)
                rows = session.execute(
                    update(TableLease)
                    .where(held.in_(list(mine)), TableLease.expires_at > now)
                    .values(expires_at=expires)
                    .returning(TableLease.table_id, TableLease.node, TableLease.epoch)
                ).all()
    except DBAPIError:  # a lock wait cut short
        return [], []
    renewed = {(str(t), str(n), int(e)) for t, n, e in rows}
    kept = [Lease(*key, expires) for key in mine if key in renewed]
    return kept, [lease for key, lease in mine.items() if key not in renewed]


_RENEW = text(
    """UPDATE table_leases AS lease SET expires_at = :until
    FROM unnest(CAST(:t AS varchar[]), CAST(:n AS varchar[]), CAST(:e AS bigint[]))
        AS mine(table_id, node, epoch)
    WHERE lease.table_id = mine.table_id AND lease.node = mine.node
        AND lease.epoch = mine.epoch AND lease.expires_at > :now
    RETURNING lease.table_id, lease.node, lease.epoch"""
)


def release_sync(session: Session, lease: Lease, *, now: datetime) -> None:
    """A node stopping gives its table up at once (another node need not wait the TTL)."""
    session.execute(
        update(TableLease)
        .where(
            TableLease.table_id == lease.table_id,
            TableLease.node == lease.node,
            TableLease.epoch == lease.epoch,
        )
        .values(expires_at=now)
    )


def adopt_sync(
    session: Session,
    table_id: str,
    node: str,
    restore: Restore,
    *,
    now: datetime,
    ttl: timedelta,
    reason: str,
) -> tuple[Lease, Adopted] | None:
    """Take the table's lease (next epoch; LeaseHeldError if another holds it) and restore
    the table as the store holds it: its running hand cancelled (``reason``), the table
    ``restore``d from its snapshot, saved, and the cancel's leavers cashed out. None: the
    table was closed meanwhile (the lease is not taken)."""
    record = session.get(TableRecord, table_id)
    if record is None or record.closed:
        return None
    lease = acquire_sync(session, table_id, node, now=now, ttl=ttl)
    session.refresh(record)  # read after the lease's lock: the old owner's last write
    running = session.scalars(
        select(HandRecord).where(HandRecord.table_id == table_id, HandRecord.status == "running")
    ).all()
    for hand in running:
        _mark_cancelled(hand, reason, now)
    last = session.scalar(
        select(func.max(HandRecord.number)).where(HandRecord.table_id == table_id)
    )
    adopted = restore(table_id, json.loads(record.config), record.snapshot, int(last or 0))
    adopted = replace(adopted, cancelled=tuple(int(hand.number) for hand in running))
    _cash_out_sync(session, table_id, adopted.leavers, now=now)
    save_table_sync(
        session,
        table_id,
        name=adopted.name,
        config=adopted.config,
        snapshot=adopted.snapshot,
        now=now,
    )
    check_sync(session, lease)
    return lease, adopted


def open_sync(
    session: Session,
    table_id: str,
    node: str,
    *,
    name: str,
    config: dict[str, Any],
    snapshot: str,
    now: datetime,
    ttl: timedelta,
) -> Lease:
    """A new table stored with its first lease, held by ``node``, in one transaction (no
    other node sees it free meanwhile); a table of that id already stored: ValueError."""
    if session.get(TableRecord, table_id) is not None:
        raise ValueError(f"table {table_id!r} is already open")
    save_table_sync(session, table_id, name=name, config=config, snapshot=snapshot, now=now)
    return acquire_sync(session, table_id, node, now=now, ttl=ttl)


def first_tables_sync(
    session: Session,
    tables: Callable[[], list[tuple[str, str, dict[str, Any], str]]],
    now: datetime,
) -> bool:
    """With no table stored yet, store ``tables()`` (id, name, config, snapshot): one node
    does it, the others wait for its transaction and find them there. True if stored."""
    session.execute(text(f"SELECT pg_advisory_xact_lock({FIRST_TABLES_LOCK})"))
    if session.scalar(select(func.count()).select_from(TableRecord)):
        return False
    for table_id, name, config, snapshot in tables():
        save_table_sync(session, table_id, name=name, config=config, snapshot=snapshot, now=now)
    return True


@dataclass(frozen=True, slots=True)
class Pass:
    """What one renewal pass read and did, in its one transaction."""

    now: datetime
    live: int
    kept: list[Lease]
    lost: list[Lease]
    tables: list[TableRow]
    began: float  # monotonic: when its transaction began (after waiting for a connection)
    tournaments: list[TournamentRow] = field(default_factory=list)  # with their leases


def pass_sync(
    session: Session,
    *,
    node: str,
    leases: list[Lease],
    known: list[TableRow],
    events: Mapping[str, TournamentRow],
    ttl: timedelta,
    wait: float,
    alive: bool,
) -> Pass:
    """A node's renewal pass: every table and every event with its lease (``known``,
    ``events``: as the last pass read them, only the changed ones read again), the node's
    heartbeat (``alive`` False: a draining node is not counted live, so the others' shares
    grow to take its tables), and its leases renewed."""
    began = time.monotonic()
    now = db_now_sync(session, wait=wait)
    # The tables first (those written since the last pass and the leases run out; every
    # table now and then): the renewals lock this node's lease rows, which its tables' writes wait
    # for, so they come last, just before the commit.
    tables = tables_sync(session, known, now=now)
    rows = tournaments_sync(session, events)
    live = heartbeat_sync(session, node, now=now, ttl=ttl, alive=alive)
    kept, lost = renew_all_sync(session, leases, now=now, ttl=ttl)
    return Pass(now, live, kept, lost, tables, began, rows)


def first_read_sync(session: Session) -> tuple[list[TableRow], list[TournamentRow]]:
    """Every table and every event, as a starting node reads them."""
    return tables_sync(session), tournaments_sync(session)
