"""Tournaments on a room of several nodes: each event's coordinator, and with it
all of its tables, is run by the one node holding its lease, a row of ``table_leases`` keyed
``tournament:<id>`` (the table leases' epoch fencing, ``store/fence.py``, unchanged).

- ``tournaments_sync``: every event with its lease, as each node's renewal pass reads them
  (the lobby of every node lists them all; a free one is adopted); ``tournament_sync`` one
  of them, for a node asked about an event its last pass did not see.
- ``adopt_tournament_sync``: the lease taken under the next epoch (its row locked: a write
  of the old owner committed before, or is refused after), and the hands its tables had in
  progress marked cancelled; the caller rebuilds the coordinator from the state read here,
  with those hands back to their start (R-DECK-5), and stores it fenced on the new lease.
- ``create_leased_sync``: an event stored with its first lease in one transaction, its id
  picked under a lock so that two nodes never take the same (and a repeating sit & go is
  kept open once, by whichever node comes first).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from pokerroom.store.account_ids import player_key
from pokerroom.store.fence import Lease
from pokerroom.store.models import Account, HandRecord, TableLease, TournamentEntry
from pokerroom.store.models import TournamentRecord as Record
from pokerroom.store.nodes.leases import _aware, acquire_sync
from pokerroom.store.tables.hands import cancel_running_sync
from pokerroom.store.tournaments.statements import (
    create_tournament_sync,
    last_hands_sync,
)

COORDINATOR = "tournament:"  # a tournament's lease key: COORDINATOR + its id
CREATE_LOCK = 15_0013  # advisory lock: tournaments' ids picked one node at a time
OPEN = ("registering", "running")  # an event that needs an owner


def lease_key(tournament_id: str) -> str:
    return f"{COORDINATOR}{tournament_id}"


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """An event as every node sees it: its stored state, names and who holds its lease."""

    id: str
    status: str
    config: str
    snapshot: str
    paid: str
    updated_at: datetime
    names: dict[str, str]  # display names by account id
    owner: str | None  # the lease's node (None: never leased)
    expires_at: datetime | None

    def free(self, now: datetime) -> bool:
        """Open (registering or running) and nobody holds it: never leased, or expired."""
        if self.status not in OPEN:
            return False
        return self.expires_at is None or _aware(self.expires_at) <= now


def _names(session: Session, ids: Collection[str]) -> dict[str, dict[str, str]]:
    """Each event's players' display names by account id (the events ``ids``)."""
    query = (
        select(TournamentEntry.tournament_id, Account.id, Account.display_name)
        .join(Account, Account.id == TournamentEntry.account_id)
        .where(TournamentEntry.tournament_id.in_(ids))
    )
    names: dict[str, dict[str, str]] = {}
    for tid, account, name in session.execute(query):
        names.setdefault(tid, {})[player_key(account)] = name
    return names


def _row(record: Record, names: dict[str, str], lease: TableLease | None) -> TournamentRow:
    return TournamentRow(
        record.id,
        record.status,
        record.config,
        record.snapshot,
        record.paid,
        record.updated_at,
        names,
        None if lease is None else lease.node,
        None if lease is None else lease.expires_at,
    )


def tournaments_sync(
    session: Session, known: Mapping[str, TournamentRow] | None = None
) -> list[TournamentRow]:
    """Every tournament (finished ones too: the lobby lists them) with its lease. The state
    of one ``known`` as it is now (its ``updated_at`` unchanged) is not read again: a pass
    reads the states that changed since the last, not every event's every few seconds."""
    known = known or {}
    leases = {
        lease.table_id: lease
        for lease in session.scalars(
            select(TableLease).where(TableLease.table_id.startswith(COORDINATOR))
        )
    }
    heads = session.execute(select(Record.id, Record.updated_at).order_by(Record.created_at))
    order = [(tid, at) for tid, at in heads]
    changed = [tid for tid, at in order if tid not in known or known[tid].updated_at != at]
    fresh = {r.id: r for r in session.scalars(select(Record).where(Record.id.in_(changed)))}
    names = _names(session, changed) if changed else {}
    rows = []
    for tid, _ in order:
        lease = leases.get(lease_key(tid))
        if tid in fresh:
            rows.append(_row(fresh[tid], names.get(tid, {}), lease))
        else:
            owner, expires = (None, None) if lease is None else (lease.node, lease.expires_at)
            rows.append(replace(known[tid], owner=owner, expires_at=expires))
    return rows


def tournament_sync(session: Session, tournament_id: str) -> TournamentRow | None:
    """One event with its lease, as a pass would read it (None: no such event): a node
    asked for an event created since its last pass finds it at once."""
    record = session.get(Record, tournament_id)
    if record is None:
        return None
    names = _names(session, [tournament_id]).get(tournament_id, {})
    return _row(record, names, session.get(TableLease, lease_key(tournament_id)))


@dataclass(frozen=True, slots=True)
class AdoptedTournament:
    lease: Lease
    row: TournamentRow
    last_hands: dict[str, int]  # the highest hand number stored per table


def adopt_tournament_sync(
    session: Session,
    tournament_id: str,
    node: str,
    *,
    now: datetime,
    ttl: timedelta,
    reason: str,
) -> AdoptedTournament | None:
    """Take the event's lease (next epoch; LeaseHeldError if another holds it) and read its
    state after the lease's lock (the old owner's last write is in it); its tables' hands
    left running are cancelled. None: not open any more (nothing is taken)."""
    record = session.get(Record, tournament_id)
    if record is None or record.status not in OPEN:
        return None
    lease = acquire_sync(session, lease_key(tournament_id), node, now=now, ttl=ttl)
    session.refresh(record)
    prefix = f"{tournament_id}-"
    cancel_running_sync(
        session, HandRecord.table_id.startswith(prefix, autoescape=True), reason, now
    )
    names = _names(session, [tournament_id]).get(tournament_id, {})
    row = _row(record, names, None)
    return AdoptedTournament(lease, row, last_hands_sync(session, prefix))


def create_leased_sync(
    session: Session,
    *,
    prefix: str,
    make: Callable[[str], tuple[str, dict[str, Any], str]],
    node: str,
    now: datetime,
    ttl: timedelta,
    repeat: str | None = None,
) -> tuple[str, Lease] | None:
    """A new event ``<prefix><n>`` (the next free ``n``; ``make(id)`` gives its name, config
    and snapshot) stored with its first lease, held by ``node``. ``repeat``: a sit & go of
    that structure kept open, so None if one is registering already (another node's)."""
    session.execute(text(f"SELECT pg_advisory_xact_lock({CREATE_LOCK})"))
    if repeat is not None:
        for record in session.scalars(select(Record).where(Record.status == "registering")):
            config = json.loads(record.config)
            if config.get("repeat") and config.get("structure") == repeat:
                return None
    taken = session.scalars(select(Record.id).where(Record.id.startswith(prefix))).all()
    numbers = [int(i[len(prefix) :]) for i in taken if i[len(prefix) :].isdigit()]
    tournament_id = f"{prefix}{max(numbers, default=0) + 1}"
    name, config, snapshot = make(tournament_id)
    create_tournament_sync(
        session, tournament_id, name=name, config=config, snapshot=snapshot, now=now
    )
    lease = acquire_sync(session, lease_key(tournament_id), node, now=now, ttl=ttl)
    return tournament_id, lease


def create_and_read_sync(
    session: Session, **fields: Any
) -> tuple[Lease, TournamentRow | None] | None:
    """``create_leased_sync(session, **fields)``, and the event as a pass reads it (a node
    lists it at once, even if it loses it before its next pass)."""
    got = create_leased_sync(session, **fields)
    return None if got is None else (got[1], tournament_sync(session, got[0]))
