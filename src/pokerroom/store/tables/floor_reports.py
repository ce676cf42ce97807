"""The floor's integrity reports from the store: the hands of a period read back from
their records (every card: the room's own view), the addresses and devices accounts were
seen from, and the three reports of ``history.integrity`` over them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from pokerroom.history.integrity import (
    FloorHand,
    Report,
    Seen,
    chip_dumping,
    shared_connections,
    soft_play,
)
from pokerroom.history.record import RecordError, read_record
from pokerroom.store.models import ConnectionSeen, HandPlayer, HandRecord


def record_connection_sync(
    session: Session, account: int, *, address: str, device: str, now: datetime
) -> None:
    """An account seen from ``address`` (canonical) and ``device`` (a hash of what the
    client says it is): its first and last time."""
    seen = (
        ConnectionSeen.account_id == account,
        ConnectionSeen.address == address,
        ConnectionSeen.device == device,
    )
    touched = session.connection().execute(
        update(ConnectionSeen).where(*seen).values(last_seen=now)
    )
    if touched.rowcount:
        return
    session.add(
        ConnectionSeen(
            account_id=account, address=address, device=device, first_seen=now, last_seen=now
        )
    )
    session.flush()


@dataclass(frozen=True, slots=True)
class StoredHands:
    """What the reports are made from, as read from the store (no replay yet): each
    complete hand of the period as (id, table, record) with its accounts by position, and
    every address and device accounts were seen from."""

    records: list[tuple[int, str, str]]
    players: dict[int, dict[int, int]]
    seen: list[Seen]


def stored_hands_sync(session: Session, *, since: datetime, until: datetime) -> StoredHands:
    """The complete hands that ended in [since, until), read only: replaying them is
    ``floor_reports``' work, which a caller runs outside the transaction (off the event
    loop, without holding the store's connection)."""
    rows = session.execute(
        select(
            HandRecord.id,
            HandRecord.table_id,
            HandRecord.record,
            HandPlayer.account_id,
            HandPlayer.position,
        )
        .join(HandPlayer, HandPlayer.hand_id == HandRecord.id)
        .where(
            HandRecord.status == "complete",
            HandRecord.ended_at >= since,
            HandRecord.ended_at < until,
        )
        .order_by(HandRecord.id)
    )
    players: dict[int, dict[int, int]] = {}
    records: dict[int, tuple[int, str, str]] = {}
    for hand_id, table_id, record, account, position in rows:
        records[hand_id] = (hand_id, table_id, record)
        players.setdefault(hand_id, {})[position] = account
    return StoredHands(list(records.values()), players, seen_sync(session))


def floor_hands(stored: StoredHands) -> list[FloorHand]:
    """The stored hands replayed, each with its accounts by position (CPU work)."""
    out = []
    for hand_id, table_id, record in stored.records:
        try:
            hand = read_record(record)
        except RecordError:
            continue
        by_position = stored.players[hand_id]
        if set(by_position) != set(range(hand.n)):
            continue  # not every seat's account stored: nothing to pair up
        accounts = tuple(by_position[p] for p in range(hand.n))
        out.append(FloorHand(hand_id, hand, accounts, table_id))
    return out


def floor_hands_sync(session: Session, *, since: datetime, until: datetime) -> list[FloorHand]:
    """The complete hands that ended in [since, until), each with its accounts by position."""
    return floor_hands(stored_hands_sync(session, since=since, until=until))


def seen_sync(session: Session) -> list[Seen]:
    return [
        Seen(account, address, device)
        for account, address, device in session.execute(
            select(ConnectionSeen.account_id, ConnectionSeen.address, ConnectionSeen.device)
        )
    ]


def floor_reports(stored: StoredHands) -> dict[str, Report]:
    """The three reports over hands read by ``stored_hands_sync``. Replays each hand: CPU
    work, for a worker thread."""
    hands = floor_hands(stored)
    return {
        "chip_dumping": chip_dumping(hands),
        "soft_play": soft_play(hands),
        "shared_connections": shared_connections(hands, stored.seen),
    }


def floor_reports_sync(session: Session, *, since: datetime, until: datetime) -> dict[str, Report]:
    """The three reports over the hands that ended in [since, until), in one call (the
    server reads with ``stored_hands_sync`` and replays with ``floor_reports`` apart)."""
    return floor_reports(stored_hands_sync(session, since=since, until=until))
