"""My results in tournaments, from the store: each finished event the player had an entry
in, its money read from the ledger (the postings on the player's balance and tickets of
the transfers keyed by the event, ``t:<id>:...``) and their finish from the event's places
(the coordinator restored from its stored state, as ``tournament.results.places`` gives
them). ``history.tournament_results`` defines what each number is.

Three queries whatever the number of events: the events, the postings, the last hands."""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import UTC, datetime

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from pokerroom.history.tournament_results import (
    BOUNTIES,
    COSTS,
    PRIZES,
    TICKETS,
    EventResult,
    money_of,
)
from pokerroom.rng import SeededRandomSource
from pokerroom.rules.tournament import structure_of
from pokerroom.store.account_ids import player_key
from pokerroom.store.models import (
    HandResult,
    LedgerAccount,
    Posting,
    TournamentEntry,
    TournamentRecord,
    Transfer,
)
from pokerroom.store.money.ledger import player_account
from pokerroom.store.tournaments.tickets import TICKET
from pokerroom.tournament.results import places
from pokerroom.tournament.snapshot import tournament_from_json

KINDS = sorted(COSTS | PRIZES | TICKETS | BOUNTIES)


def _aware(at: datetime) -> datetime:
    """SQLite gives its times back without their zone: they were written in UTC."""
    return at.astimezone(UTC) if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _finish(record: TournamentRecord, account: int) -> tuple[int | None, int]:
    """The player's best place in a finished event and the field (entries)."""
    structure = structure_of(json.loads(record.config))
    # Only read: nothing is dealt from this source.
    t = tournament_from_json(record.snapshot, rng=SeededRandomSource(0), structure=structure)
    mine = {entry for entry, e in t.entries.items() if e.player == player_key(account)}
    found = [p.place for p in places(t) if p.entry in mine]
    return min(found, default=None), len(t.entries)


def _postings(session: Session, account: int) -> list[tuple[str, str, int]]:
    """(key, kind, amount) of every tournament transfer's posting on the player's balance
    or on one of their tickets."""
    kind, owner = player_account(account)
    tickets = LedgerAccount.owner.endswith(f":{account}", autoescape=True)
    mine = or_(
        (LedgerAccount.kind == kind) & (LedgerAccount.owner == owner),
        (LedgerAccount.kind == TICKET) & tickets,
    )
    rows = session.execute(
        select(Transfer.idempotency_key, Transfer.kind, Posting.amount)
        .join(Posting, Posting.transfer_id == Transfer.id)
        .join(LedgerAccount, LedgerAccount.id == Posting.ledger_account_id)
        .where(mine, Transfer.kind.in_(KINDS))
    )
    return [(str(key), str(k), int(amount)) for key, k, amount in rows]


def _last_hands(session: Session, account: int) -> dict[str, tuple[int, str]]:
    """The player's last hand at each event (its tables are ``<event>-<number>``)."""
    rows = session.execute(
        select(HandResult.table_id, func.max(HandResult.hand_id))
        .where(HandResult.account_id == account, HandResult.tournament.is_(True))
        .group_by(HandResult.table_id)
    )
    last: dict[str, tuple[int, str]] = {}
    for table, hand in rows:
        event = str(table).rsplit("-", 1)[0]
        if event not in last or int(hand) > last[event][0]:
            last[event] = (int(hand), str(table))
    return last


def event_results_sync(session: Session, account: int) -> list[EventResult]:
    """Every finished event ``account`` had an entry in, with their finish and money."""
    records = list(
        session.scalars(
            select(TournamentRecord)
            .where(
                TournamentRecord.status == "finished",
                TournamentRecord.id.in_(
                    select(TournamentEntry.tournament_id).where(
                        TournamentEntry.account_id == account
                    )
                ),
            )
            .order_by(TournamentRecord.id)
        )
    )
    if not records:
        return []
    # A key names its event first: ``t:<id>:`` (the longest id that fits, should one id
    # begin another's with a colon).
    ids = sorted((r.id for r in records), key=len, reverse=True)
    by_event: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for key, kind, amount in _postings(session, account):
        event = next((i for i in ids if key.startswith(f"t:{i}:")), None)
        if event is not None:
            by_event[event].append((kind, amount))
    last = _last_hands(session, account)
    results = []
    for record in records:
        place, entries = _finish(record, account)
        money = money_of(by_event[record.id])
        hand, table = last.get(record.id, (None, None))
        results.append(
            EventResult(
                tournament_id=record.id,
                name=record.name,
                finished_at=_aware(record.updated_at),
                entries=entries,
                place=place,
                cost=money.cost,
                prize=money.prize,
                ticket=money.ticket,
                bounties=money.bounties,
                hand=hand,
                table=table,
            )
        )
    return results
