"""A write that committed though the table was told it failed (the connection lost during
the COMMIT): the table must go on from what the store really holds, never from what it
assumed (S-AUDIT-2, S-MONEY-3). A hand's start run again (group commit re-runs a failed
batch's units one by one) is the same hand, not a second; a join or chips added whose
COMMIT reported an error are kept when their key's transfer is there; a cash-out so is
read back by the table's recovery."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from pokerroom.server.tables.room import TableConfig
from pokerroom.store.db import Database
from pokerroom.store.models import HandRecord
from pokerroom.store.tables.hands import begin_hand_sync
from tests.helpers.audit import assert_books_balance
from tests.helpers.database import rows
from tests.helpers.room_tables import first_turn
from tests.helpers.store_faults import CLOCK, DbWith, StoreDownError
from tests.helpers.waiting import eventually
from tests.server.conftest import Person, Server, person


class CommitLost:
    """The table's database, whose next ``armed`` transactions commit and then report an
    error, as a connection lost during the COMMIT does."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self.armed = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Any]:
        async with self._db.transaction() as session:
            yield session
        if self.armed:
            self.armed -= 1
            raise OperationalError("COMMIT", {}, ConnectionResetError("connection lost"))


async def open_heads_up(server: Server, table: str) -> Any:
    await server.room.open_table(
        TableConfig(table, table, "titan", "holdem", "no_limit", 200, 2, CLOCK)
    )
    return server.room.actors[table]


async def sit(someone: Person, table: str, seat: int, request: str = "r1") -> None:
    await someone.send(type="watch", table=table)
    await someone.send(type="join", table=table, seat=seat, buy_in=10_000, request=request)


async def hands_of(server: Server, table: str) -> list[tuple[int, str]]:
    found = await rows(
        server, select(HandRecord).where(HandRecord.table_id == table).order_by(HandRecord.number)
    )
    return [(h.number, h.status) for h in found]


async def first_hand_with(
    server: Server, table: str, again: Callable[[Any, Any], Awaitable[Any]]
) -> tuple[Any, Person, dict[str, Any], list[Any]]:
    """Ann and Bob heads-up at a new ``table`` whose first hand's start, once committed,
    is followed by ``again(work, result)`` (what its caller is then told); the actor, who
    acts first in the first hand dealt, its frame, and the first start's results."""
    actor = await open_heads_up(server, table)
    grouped, seen = actor.db.grouped, []

    async def start_then(work: Any) -> Any:
        result = await grouped(work)
        if getattr(work, "func", None) is begin_hand_sync and not seen:
            seen.append(result)
            return await again(work, grouped)
        return result

    actor.db = DbWith(actor.db, actor.db.run, start_then)
    ann, bob = await person(server.base, "ann"), await person(server.base, "bob")
    await sit(ann, table, 1)
    await sit(bob, table, 2)
    to_act, frame, _ = await first_turn(ann, bob)
    return actor, to_act, frame, seen


async def test_S_AUDIT_2_a_hand_start_run_again_after_its_batch_committed_is_one_hand(
    server: Server,
) -> None:
    """The batch holding the hand's start committed but reported an error: group commit
    runs each unit again alone. The start run again finds its own row (same deck
    commitment) and the hand goes on: no second row, no fault, the table never wedged."""

    async def run_again(work: Any, grouped: Any) -> Any:
        return await grouped(work)

    actor, to_act, frame, seen = await first_hand_with(server, "lost1", run_again)
    assert seen and seen[0].hand_id == actor.started.hand_id
    await to_act.send(type="act", table="lost1", hand=frame["hand"]["number"], action="fold")
    await eventually(
        lambda: actor.table.hand_number >= 2 and actor.hand_ends.ending is None, "hand 1 stored"
    )
    assert actor.faults == 0
    assert (await hands_of(server, "lost1"))[0] == (1, "complete")
    await assert_books_balance(server)


async def test_R_DECK_5_a_hand_start_committed_though_reported_lost_is_cancelled_and_numbered_past(
    server: Server,
) -> None:
    """A batch of one (the hand's start) committed, its caller told it failed: the table's
    fault. Its recovery cancels the hand the store holds as running and deals the next
    under the next number (before, every later start hit the first one's number)."""

    async def lost(work: Any, grouped: Any) -> Any:
        raise StoreDownError("the connection was lost during the COMMIT")

    actor, to_act, frame, seen = await first_hand_with(server, "lost2", lost)
    assert seen and frame["hand"]["number"] == 2 and actor.faults == 1
    await to_act.send(type="act", table="lost2", hand=2, action="fold")
    await eventually(
        lambda: actor.table.hand_number >= 3 and actor.hand_ends.ending is None, "hand 2 stored"
    )
    assert (await hands_of(server, "lost2"))[:2] == [(1, "cancelled"), (2, "complete")]
    await assert_books_balance(server)


async def test_S_MONEY_3_a_join_whose_commit_reported_an_error_but_landed_keeps_the_seat(
    server: Server,
) -> None:
    """The join's transaction committed (buy-in, sitting, table) but the COMMIT reported an
    error: its key's transfer is there, so the table keeps the seat. Before, the table put
    itself back without ann, her buy-in stuck in the table's account and her retry refused
    (the key of a sitting that 'ended')."""
    actor = await open_heads_up(server, "lost3")
    actor.db = lost = CommitLost(actor.db)
    ann, bob = await person(server.base, "ann"), await person(server.base, "bob")
    start = await server.room.store.balance(ann.account_id)
    lost.armed = 1
    await sit(ann, "lost3", 1)
    await ann.until(lambda f: f.get("you") == 1)
    assert lost.armed == 0 and actor.faults == 0
    await ann.send(type="join", table="lost3", seat=1, buy_in=10_000, request="r1")  # a retry
    await sit(bob, "lost3", 2)  # the table written again: with ann
    await bob.until(lambda f: f["seats"][0].get("name") == "ann" and f.get("you") == 2)
    assert not [f for f in ann.frames if f.get("type") == "error"]
    assert await server.room.store.balance(ann.account_id) == start - 10_000
    await assert_books_balance(server)


async def alone_at(server: Server, table: str) -> tuple[Any, CommitLost, Person, int]:
    """Ann alone at a new ``table`` (no hand dealt), its next transaction's COMMIT to be
    reported lost; her balance before she sat."""
    actor = await open_heads_up(server, table)
    actor.db = lost = CommitLost(actor.db)
    ann = await person(server.base, "ann")
    start = await server.room.store.balance(ann.account_id)
    await sit(ann, table, 1)
    await ann.until(lambda f: f.get("you") == 1)
    lost.armed = 1
    return actor, lost, ann, start


async def test_S_MONEY_3_chips_added_whose_commit_reported_an_error_but_landed_stay_added(
    server: Server,
) -> None:
    actor, lost, ann, start = await alone_at(server, "lost4")
    await ann.send(type="add_chips", table="lost4", amount=5_000, request="a1")
    await ann.until(lambda f: f["seats"][0].get("stack") == 15_000)
    await ann.send(type="add_chips", table="lost4", amount=5_000, request="a1")  # a retry
    bob = await person(server.base, "bob")
    await sit(bob, "lost4", 2)
    await bob.until(lambda f: f.get("you") == 2)
    assert lost.armed == 0 and actor.faults == 0
    assert actor.table.seat_of(str(ann.account_id)).stack == 15_000
    assert await server.room.store.balance(ann.account_id) == start - 15_000
    assert not [f for f in ann.frames if f.get("type") == "error"]
    await assert_books_balance(server)


async def test_S_AUDIT_2_a_cash_out_whose_commit_reported_an_error_but_landed_is_kept(
    server: Server,
) -> None:
    """A cash-out between hands committed, its caller told it failed: the table's fault,
    whose recovery reads back the table the store holds (ann gone, her chips home)."""
    actor, _, ann, start = await alone_at(server, "lost5")
    await ann.send(type="leave", table="lost5")
    await eventually(
        lambda: actor.faults == 1 and actor.recovery.pending is None, "the table recovered"
    )
    assert actor.table.seat_number(str(ann.account_id)) is None
    assert await server.room.store.balance(ann.account_id) == start
    await assert_books_balance(server)


async def test_S_AUDIT_2_a_join_whose_outcome_cannot_be_read_back_is_recovered_from_the_store(
    server: Server,
) -> None:
    """The join's COMMIT reported an error and the look-up of its key failed too: the table
    cannot know, so it is the table's fault, and its recovery reads the table the store
    holds (ann seated: the join had landed)."""
    actor = await open_heads_up(server, "lost6")
    actor.db = lost = CommitLost(actor.db)
    ann = await person(server.base, "ann")
    start = await server.room.store.balance(ann.account_id)
    lost.armed = 2  # the join's transaction, then the look-up's
    await sit(ann, "lost6", 1)
    await eventually(
        lambda: actor.faults == 1 and actor.recovery.pending is None, "the table recovered"
    )
    assert actor.table.seat_of(str(ann.account_id)).stack == 10_000
    assert await server.room.store.balance(ann.account_id) == start - 10_000
    await assert_books_balance(server)
