"""Tournaments' leases in the store (``store/nodes/tournament_leases.py``): an event is
created with its first lease and the next free id, a repeating sit & go once; a pass reads
again only the events whose state changed, but every event's lease as it is now; adopting
takes the next epoch, cancels the event's running hands only, and is refused while the
lease holds."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from pokerroom.store.db import Database
from pokerroom.store.models import HandRecord
from pokerroom.store.nodes.leases import LeaseHeldError
from pokerroom.store.nodes.tournament_leases import (
    adopt_tournament_sync,
    create_leased_sync,
    tournaments_sync,
)
from pokerroom.store.tables.hands import begin_hand_sync
from pokerroom.store.tournaments.statements import save_state_sync
from tests.helpers.leases import NOW, TTL, db

pytestmark = pytest.mark.postgres
CONFIG = {"structure": "sng_heads_up", "repeat": True, "prices": {}}
__all__ = ["db"]  # the PostgreSQL database fixture, as the node store's tests have it


def create(session: Session, node: str, *, repeat: str | None = None) -> Any:
    def make(tournament_id: str) -> tuple[str, dict[str, Any], str]:
        return tournament_id, CONFIG, "{}"

    return create_leased_sync(
        session, prefix="sng-", make=make, node=node, now=NOW, ttl=TTL, repeat=repeat
    )


async def test_ids_are_picked_in_turn_and_a_repeating_event_is_opened_once(db: Database) -> None:
    first = await db.run(partial(create, node="a", repeat="sng_heads_up"))
    assert first[0] == "sng-1" and first[1].epoch == 1 and first[1].node == "a"
    assert await db.run(partial(create, node="b", repeat="sng_heads_up")) is None
    second = await db.run(partial(create, node="b"))
    assert second[0] == "sng-2" and second[1].node == "b"


async def test_a_pass_reads_again_only_what_changed_and_every_lease(db: Database) -> None:
    await db.run(partial(create, node="a"))
    rows = await db.run(tournaments_sync)
    assert [(r.id, r.owner) for r in rows] == [("sng-1", "a")]
    held = {"sng-1": replace(rows[0], snapshot="as read before", owner=None)}
    again = await db.run(partial(tournaments_sync, known=held))
    assert again[0].snapshot == "as read before"  # unchanged: its state not read again
    assert again[0].owner == "a"  # but its lease is
    later = NOW + timedelta(seconds=1)
    await db.run(
        partial(save_state_sync, tournament_id="sng-1", snapshot="{}", status="running", now=later)
    )
    changed = await db.run(partial(tournaments_sync, known={r.id: r for r in again}))
    assert changed[0].status == "running"  # its state read again
    assert not changed[0].free(NOW) and changed[0].free(NOW + TTL)


async def test_adopting_takes_the_next_epoch_and_cancels_the_events_hands_only(
    db: Database,
) -> None:
    await db.run(partial(create, node="a"))
    await db.run(partial(create, node="a"))
    for table in ("sng-1-1", "sng-2-1"):
        await db.run(
            partial(
                begin_hand_sync,
                table_id=table,
                number=1,
                deck=range(52),
                snapshot_before=None,
                now=NOW,
            )
        )
    adopt = partial(adopt_tournament_sync, tournament_id="sng-1", node="b", reason="failover")
    with pytest.raises(LeaseHeldError):  # a's lease holds
        await db.run(partial(adopt, now=NOW, ttl=TTL))
    got = await db.run(partial(adopt, now=NOW + TTL, ttl=TTL))
    assert got is not None and got.lease.epoch == 2 and got.lease.node == "b"
    assert got.last_hands == {"sng-1-1": 1}
    async with db.transaction() as session:
        rows = await session.execute(select(HandRecord.table_id, HandRecord.status))
        assert dict(rows.all()) == {"sng-1-1": "cancelled", "sng-2-1": "running"}
