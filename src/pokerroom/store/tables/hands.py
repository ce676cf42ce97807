"""A table's hands in the store: committed whole when they end, cancelled after a crash.

Chips at a table sit in the table's ledger account (bought in, cashed out); the
split between seats lives in the table's snapshot. A hand begins by recording
the table as it was before the hand (and a commitment to the deck); it ends by
committing, in one transaction, the hand's record (its setup, actions and result,
from which its full event log and every export are replayed: ``history.record``), its
rake and the table after it (S-AUDIT-1, DESIGN 8). A hand cut off by a crash is still
"running" on restart: it is marked cancelled and the table resumes from the
snapshot taken before it, so every chip the hand held is back with its owner
(S-CRASH-1, R-DECK-5). The players who leave when a hand ends are cashed out in
the hand's own transaction: a crash can never store the hand without them.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Connection, bindparam, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from pokerroom.fairness import deck_commitment
from pokerroom.history.record import interrupted_record
from pokerroom.store.compiled import Compiled
from pokerroom.store.db import on_async_session
from pokerroom.store.models import HandPlayer, HandRecord, TableRecord
from pokerroom.store.money.ledger import leave_sync, take_rake_sync
from pokerroom.store.tables.hand_end_pg import ended_before, finish_on_postgresql
from pokerroom.table.snapshot import json_text


@dataclass(frozen=True, slots=True)
class StartedHand:
    hand_id: int
    salt: bytes  # kept by the server until the hand ends, then revealed
    number: int = 0  # the hand's number at its table
    client_seeds: tuple[str, ...] | None = None  # mixed into a seeded shuffle (fairness.py)


def save_table_sync(
    session: Session,
    table_id: str,
    *,
    name: str,
    config: dict[str, Any],
    snapshot: str,
    now: datetime,
) -> TableRecord:
    record = session.get(TableRecord, table_id)
    if record is None:
        record = TableRecord(
            id=table_id,
            name=name,
            config=json.dumps(config),
            snapshot=snapshot,
            closed=False,
            updated_at=now,
        )
        session.add(record)
    else:
        record.name, record.config, record.snapshot = name, json.dumps(config), snapshot
        record.updated_at = now
    session.flush()
    return record


async def open_tables(session: AsyncSession) -> list[TableRecord]:
    return list(
        (await session.scalars(select(TableRecord).where(TableRecord.closed.is_(False)))).all()
    )


def begin_hand_sync(
    session: Session,
    table_id: str,
    *,
    number: int,
    deck: Sequence[int],
    snapshot_before: str | None,
    now: datetime,
    salt: bytes | None = None,
    client_seeds: Sequence[str] | None = None,
) -> StartedHand:
    """Record a hand as running, with the table as it was before it and a deck commitment.
    ``snapshot_before`` None: the store already holds that table (the last hand's end
    wrote it, nothing changed since), so it is not written again.

    ``salt`` is the server seed of a seeded shuffle (fairness.py) and ``client_seeds`` the
    seeds mixed into it; without them the salt is random and the deck was not seeded."""
    salt = secrets.token_bytes(16) if salt is None else salt
    commitment = deck_commitment(deck, salt)
    hand_id = insert_running_sync(session, table_id, number, commitment, now)
    if snapshot_before is not None:
        _write_snapshot(session.connection(), table_id, snapshot_before, now)
    seeds = None if client_seeds is None else tuple(client_seeds)
    return StartedHand(hand_id=hand_id, salt=salt, number=number, client_seeds=seeds)


def insert_running_sync(
    session: Session, table_id: str, number: int, commitment: str, now: datetime
) -> int:
    """The hand's row, running; the same hand begun again (group commit runs a batch's units
    again one by one when the batch failed, and a COMMIT that reported an error may have
    committed) is the row already there, not a second one. Another hand under that number
    is refused (ValueError): the table's fault, whose recovery numbers on past it."""
    # On the session's connection: the Session's ORM-enabled path (a bulk insert, its
    # statement rebuilt and keyed at every call) cost the writer more than the statement.
    connection = session.connection()
    values = {"table": table_id, "hand_number": number, "commitment": commitment, "at": now}
    inserted = _BEGIN_HAND[connection.dialect.name].execute(connection, values).scalar()
    if inserted is not None:
        return int(inserted)
    found = connection.execute(
        select(HandRecord.id, HandRecord.status, HandRecord.deck_commitment).where(
            HandRecord.table_id == table_id, HandRecord.number == number
        )
    ).one()
    if found.status != "running" or found.deck_commitment != commitment:
        raise ValueError(f"hand {number} of table {table_id!r} is recorded ({found.status})")
    return int(found.id)


def finish_hand_sync(
    session: Session,
    started: StartedHand,
    *,
    table_id: str,
    deck: Sequence[int],
    record: str,
    rake: int,
    cancelled: bool,
    snapshot_after: str,
    now: datetime,
    players: Sequence[tuple[int, int, int, int, int]] = (),
    leavers: Sequence[tuple[int, int]] = (),
    and_then: Callable[[Session], None] | None = None,
) -> None:
    """The hand's record (``history.record.hand_record``: setup, actions, result), rake, the
    table after it and the cash-outs of those who leave as it ends, all in the caller's
    transaction (DESIGN 8): all of it or none. ``and_then`` writes more in the same
    transaction (the players' facts for their results).

    ``players``: (account id, seat, position, stack before, stack after) of each player;
    ``leavers``: (account id, chips) of each seat that stood up when the hand ended.
    """
    # A statement per table touched, not an ORM object loaded and flushed for each: this
    # runs for every hand of every table, in the writer's batches.
    ending = hand_ending(started, deck, record, rake, cancelled, now)
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        ended, raked = finish_on_postgresql(connection, ending, table_id, snapshot_after, players)
        if not ended:
            return
        if not raked:
            take_rake_sync(session, table_id, rake, now=now, hand_id=started.hand_id)
        _cash_out_sync(session, table_id, leavers, now=now)
        if and_then is not None:
            and_then(session)
        return
    if not end_hand_sync(connection, ending, players):
        ended_before(connection, started.hand_id, record)
        return
    take_rake_sync(session, table_id, rake, now=now, hand_id=started.hand_id)
    _write_snapshot(connection, table_id, snapshot_after, now)
    _cash_out_sync(session, table_id, leavers, now=now)
    if and_then is not None:
        and_then(session)


def end_hand_sync(
    connection: Connection,
    ending: dict[str, Any],
    players: Sequence[tuple[int, int, int, int, int]],
) -> bool:
    """A running hand's row ended (``ending``: ``hand_ending``'s) and its players recorded, for a
    cash table's hand and a tournament's alike; False: it was not running (nothing written)."""
    if _END_HAND.execute(connection, ending).rowcount != 1:
        return False
    if players:
        hand_id = ending["hand"]
        _NEW_PLAYERS.executemany(
            connection,
            [
                {
                    "hand_id": hand_id,
                    "account_id": account_id,
                    "seat": seat,
                    "position": position,
                    "start_stack": before,
                    "end_stack": after,
                }
                for account_id, seat, position, before, after in players
            ],
        )
    return True


def hand_ending(
    started: StartedHand,
    deck: Sequence[int],
    record: str,
    rake: int,
    cancelled: bool,
    now: datetime,
) -> dict[str, Any]:
    """A hand's end as its row takes it: status, record, rake and the shuffle's reveal."""
    return {
        "hand": started.hand_id,
        "new_status": "cancelled" if cancelled else "complete",
        "new_record": record,
        "new_rake": rake,
        "reveal": hand_reveal(started, deck),
        "at": now,
    }


def hand_reveal(started: StartedHand, deck: Sequence[int]) -> str:
    """A hand's stored reveal: its salt and deck, and for a seeded shuffle (the salt is its
    server seed) the players' seeds mixed in, which ``pokerroom verify`` checks."""
    reveal: dict[str, Any] = {"salt": started.salt.hex(), "deck": list(deck)}
    if started.client_seeds is not None:
        reveal["client_seeds"] = list(started.client_seeds)
    return json_text(reveal)


def _write_snapshot(connection: Connection, table_id: str, snapshot: str, now: datetime) -> None:
    """The table's snapshot, one UPDATE (no row loaded first); an unknown table refused."""
    written = _WRITE_SNAPSHOT.execute(
        connection, {"table": table_id, "new_snapshot": snapshot, "at": now}
    )
    if written.rowcount != 1:
        raise ValueError(f"no table {table_id!r} in the store")


# Built once: a statement built for every hand cost more to build and to key for the
# statement cache than to run; and compiled once (store/compiled.py).
_BEGIN_HAND = {
    dialect.__name__.rsplit(".", 1)[-1]: Compiled(
        dialect.insert(HandRecord)
        .values(
            table_id=bindparam("table"),
            number=bindparam("hand_number"),
            status="running",
            deck_commitment=bindparam("commitment"),
            started_at=bindparam("at"),
            rake=0,
            record="",
            deck_reveal="",
        )
        .on_conflict_do_nothing(index_elements=["table_id", "number"])
        .returning(HandRecord.id)
    )
    for dialect in (postgresql, sqlite)
}
_END_HAND = Compiled(
    update(HandRecord)
    .where(HandRecord.id == bindparam("hand"), HandRecord.status == "running")
    .values(
        status=bindparam("new_status"),
        record=bindparam("new_record"),
        rake=bindparam("new_rake"),
        deck_reveal=bindparam("reveal"),
        ended_at=bindparam("at"),
    )
)
_NEW_PLAYERS = Compiled(
    insert(HandPlayer).values(
        {
            column: bindparam(column)
            for column in ("hand_id", "account_id", "seat", "position", "start_stack", "end_stack")
        }
    )
)
_WRITE_SNAPSHOT = Compiled(
    update(TableRecord)
    .where(TableRecord.id == bindparam("table"))
    .values(snapshot=bindparam("new_snapshot"), updated_at=bindparam("at"))
)


def _cash_out_sync(
    session: Session, table_id: str, leavers: Sequence[tuple[int, int]], *, now: datetime
) -> None:
    for account_id, chips in leavers:
        leave_sync(session, account_id, table_id, chips, now=now)


def _mark_cancelled(record: HandRecord, reason: str, now: datetime) -> None:
    record.status = "cancelled"
    record.ended_at = now
    record.record = interrupted_record(reason)


def cancel_hand_sync(
    session: Session,
    hand_id: int | None,
    *,
    table_id: str,
    reason: str,
    snapshot: str | None,
    now: datetime,
    leavers: Sequence[tuple[int, int]] = (),
) -> bool:
    """A table gone back to what the store held after a fault (R-DECK-5): its running hand
    cancelled as a restart would, the leavers that cancel stood up cashed out, and the
    table's snapshot (None: a tournament's table, kept in its event's state), in one
    transaction. Every hand of the table still running goes, not only ``hand_id``: a hand
    whose start committed though the table saw its write fail is one the table never knew
    it had begun. True: the hand ``hand_id`` was running and is cancelled (False: none, or
    it had ended in the store already)."""
    cancelled = hand_id in cancel_running_sync(
        session, HandRecord.table_id == table_id, reason or "server fault", now
    )
    if snapshot is not None:
        table = session.get(TableRecord, table_id)
        if table is None:
            raise ValueError(f"no table {table_id!r} in the store")
        table.snapshot = snapshot
        table.updated_at = now
    _cash_out_sync(session, table_id, leavers, now=now)
    session.flush()
    return cancelled


def cancel_running_sync(
    session: Session, where: ColumnElement[bool], reason: str, now: datetime
) -> list[int]:
    """The hands still running of the tables ``where`` selects, cancelled (R-DECK-5); their
    ids."""
    running = session.scalars(select(HandRecord).where(where, HandRecord.status == "running"))
    ids = []
    for record in running.all():
        _mark_cancelled(record, reason, now)
        ids.append(record.id)
    session.flush()
    return ids


save_table = on_async_session(save_table_sync)


async def player_hands(
    session: AsyncSession,
    account_id: int,
    *,
    table_id: str | None = None,
    limit: int = 50,
    ids: Collection[int] | None = None,
) -> list[tuple[HandRecord, HandPlayer]]:
    """A player's hands, newest first (of ``ids`` only, when given)."""
    query = (
        select(HandRecord, HandPlayer)
        .join(HandPlayer, HandPlayer.hand_id == HandRecord.id)
        .where(HandPlayer.account_id == account_id, HandRecord.status != "running")
        .order_by(HandRecord.id.desc())
        .limit(limit)
    )
    if table_id is not None:
        query = query.where(HandRecord.table_id == table_id)
    if ids is not None:
        query = query.where(HandRecord.id.in_(list(ids)))
    return [(hand, player) for hand, player in (await session.execute(query)).all()]


async def last_hand_number(session: AsyncSession, table_id: str) -> int:
    """The highest hand number recorded at a table (a resumed table numbers on from it)."""
    value = await session.scalar(
        select(func.max(HandRecord.number)).where(HandRecord.table_id == table_id)
    )
    return int(value or 0)


async def cancel_interrupted_hands(session: AsyncSession, *, now: datetime) -> list[HandRecord]:
    """After a crash: every hand still running is cancelled (its table resumes from before it)."""
    running = (
        await session.scalars(select(HandRecord).where(HandRecord.status == "running"))
    ).all()
    for record in running:
        _mark_cancelled(record, "server restart", now)
    await session.flush()
    return list(running)
