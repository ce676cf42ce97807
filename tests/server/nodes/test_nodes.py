"""Several nodes on one PostgreSQL, in one process: two rooms share the database,
each table run by the node holding its lease. A node that stops renewing loses its tables to
the other, which adopts them from the last committed state with the hand in progress
cancelled (R-DECK-5, every chip back); a stale owner's writes are refused by the epoch, it
stops the table at once and tells its clients to reconnect; nothing is settled twice and
the books balance (S-AUDIT-2)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from pokerroom.server.tables.room import DEMO_TABLES
from tests.helpers.accounts import closed_with, person_again
from tests.helpers.leased_nodes import TABLE, fresh_database, hands, node, renewal_pass
from tests.helpers.room_tables import first_turn
from tests.helpers.waiting import eventually
from tests.server.conftest import Person, Server, person

DEMO = len(DEMO_TABLES)  # every demo table; the node that joins takes the smaller half
B_SHARE = DEMO // 2

pytestmark = pytest.mark.postgres
WAIT = 30.0  # bounded waits: far above the lease's time on a busy machine


@pytest.fixture
async def url() -> AsyncIterator[str]:
    async with fresh_database() as address:
        yield address


async def seated_pair(a: Server, table: str = TABLE) -> tuple[Person, Person, Person, int]:
    """Two people at ``table`` (the heads-up one) on node ``a``, a hand running: both, the
    one to act, and the hand's number."""
    ann, bob = await person(a.base, "ann"), await person(a.base, "bob")
    for seat, someone in enumerate((ann, bob), start=1):
        await someone.send(type="watch", table=table)
        await someone.send(type="join", table=table, seat=seat, buy_in=10_000, request="j")
    first, frame, _ = await first_turn(ann, bob)
    return ann, bob, first, int(frame["hand"]["number"])


async def back_on(b: Server, someone: Person, table: str = TABLE) -> Person:
    """The same account on node ``b``: its seat is there (R-TIME-3)."""
    again = await person_again(b.base, someone)
    await again.send(type="watch", table=table)
    return again


async def kept_by(a: Server, b: Server) -> str:
    """Once b runs its share (which tables a hands over varies from run to run), a table
    that a kept and that two people are enough to deal at."""
    await eventually(lambda: len(b.room.actors) == B_SHARE, "b runs its share")
    return next(t for t, x in sorted(a.room.actors.items()) if x.table.house.min_players <= 2)


def changes(server: Server, change: str) -> float:
    metrics = server.room.metrics
    return float(metrics.lease_changes.labels(change=change)._value.get())


async def test_a_stale_owners_write_is_refused_and_its_table_adopted(
    url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Node a stops renewing (as if paused) with a hand running; node b adopts the table
    under the next epoch and cancels that hand (every chip back). Node a's next write (the
    fold that ends the hand) is refused by the epoch: a stops the table at once and closes
    its clients' sockets with 1012 (reconnect); the hand stays cancelled, never settled."""
    async with node(url, "a") as a:
        await eventually(lambda: len(a.room.actors) == DEMO, "a holds every table")
        async with node(url, "b") as b:
            table_id = await kept_by(a, b)
            ann, bob, first, number = await seated_pair(a, table_id)
            assert table_id in a.room.actors and table_id not in b.room.actors
            await a.room.placement.leases.stop()  # a pauses: no renewal, its table still deals
            await eventually(lambda: table_id in b.room.actors, "b adopts the table")
            assert changes(b, "adopted") >= 1
            statuses = await hands(url, table_id)
            assert statuses[number][1] == "cancelled"  # R-DECK-5 under b's epoch
            failover = [  # the failover's line names the hand it cancelled, as a warning
                r
                for r in caplog.records
                if r.getMessage().startswith(f"node b adopted table {table_id} ")
            ]
            assert len(failover) == 1 and failover[0].levelname == "WARNING"
            assert failover[0].getMessage().endswith(f"every chip back: {number}")
            table = b.room.actors[table_id].table  # every chip back: the blinds too
            assert sorted(s.stack for s in table.seats.values()) == [10_000, 10_000]
            # a, not knowing, lets the player to act fold: the hand's end is refused.
            await first.send(type="act", table=table_id, hand=number, action="fold")
            assert await closed_with(ann) == 1012 and await closed_with(bob) == 1012
            assert table_id not in a.room.actors and changes(a, "lost") >= 1
            assert (await hands(url, table_id))[number][1] == "cancelled"  # never settled twice
            ann, bob = await back_on(b, ann, table_id), await back_on(b, bob, table_id)
            frame = await ann.until(
                lambda f: f.get("hand") is not None and f["hand"]["number"] > number
            )
            assert frame["hand"]["number"] == number + 1  # b deals on, numbering on
    await hands(url, table_id)  # the books balance after both stopped


async def test_a_dead_owners_tables_are_all_adopted_and_the_lobby_lists_every_table(
    url: str,
) -> None:
    """Node a dies (nothing renewed, every table's task gone) mid-hand: b adopts all its
    tables once the leases run out, the hand cut off is refunded, and the players who
    reconnect to b get their seats back and play on. Both lobbies list every table with
    its node."""
    async with node(url, "a") as a:
        await eventually(lambda: len(a.room.actors) == DEMO, "a holds every table")
        async with node(url, "b") as b:
            await eventually(lambda: len(b.room.lobby()) == DEMO, "b lists every table")
            for lobby in (a.room.lobby(), b.room.lobby()):  # local or remote, with its node
                assert len({e["id"] for e in lobby}) == DEMO
                assert {e["node"] for e in lobby} <= {"a", "b"}
            # a hands tables over to b until each runs its share (between hands)
            table_id = await kept_by(a, b)
            # Its surplus, net: on a busy machine a pass of b can fail (its transaction past
            # the lease's time) and a take a released table back, then release it again.
            assert changes(a, "released") - changes(a, "adopted") == B_SHARE
            ann, bob, _, number = await seated_pair(a, table_id)
            await a.room.placement.leases.stop()  # a dies: no renewal, no table runs
            for actor in a.room.actors.values():
                assert actor.task is not None
                actor.task.cancel()
            await eventually(lambda: len(b.room.actors) == DEMO, "b adopts every table")
            assert {e["node"] for e in b.room.lobby()} == {"b"}
            assert (await hands(url, table_id))[number][1] == "cancelled"
            table = b.room.actors[table_id].table
            assert sorted(s.stack for s in table.seats.values()) == [10_000, 10_000]
            ann, bob = await back_on(b, ann, table_id), await back_on(b, bob, table_id)
            await ann.until(
                lambda f: f.get("hand") is not None and f["hand"]["number"] == number + 1
            )
            a.room.actors.clear()  # gone with the node
    statuses = await hands(url, table_id)
    assert statuses[number][1] == "cancelled"


async def test_the_lobby_lists_every_table_from_a_nodes_start_and_through_hand_overs(
    url: str,
) -> None:
    """A node lists the others' tables from its first answer (not from its first pass,
    half a lease later); while a hands tables over to b, each between two hands, both list
    all six at every moment, each handed-over table on the old node's lobby too."""
    async with node(url, "a") as a:
        await eventually(lambda: len(a.room.actors) == DEMO, "a holds every table")
        async with node(url, "b") as b:
            assert {e["node"] for e in b.room.lobby()} == {"a"} and len(b.room.lobby()) == DEMO
            counts = set()
            async with asyncio.timeout(WAIT):
                while len(b.room.actors) < B_SHARE or len(a.room.actors) > DEMO - B_SHARE:
                    counts.add(tuple(len({e["id"] for e in n.room.lobby()}) for n in (a, b)))
                    await asyncio.sleep(0.01)
            # Its surplus, net (as above: a pass of b failing on a busy machine lets a take a
            # released table back and release it again).
            assert counts == {(DEMO, DEMO)}
            assert changes(a, "released") - changes(a, "adopted") == B_SHARE
            await renewal_pass(a)  # the next pass: the handed-over ones are b's
            mine = {e["id"] for e in a.room.lobby() if e["node"] == "b"}
            assert mine == set(b.room.actors)
