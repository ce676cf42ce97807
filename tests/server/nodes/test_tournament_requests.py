"""A player's tournament requests through a node that does not run the event:
found at once though created since that node's last pass, and forwarded to the owner over
the bus, which applies them once (a command read twice under its idempotency key is
applied once): a rebuy, the add-on and a deal that succeed, with the ledger, the event's
pool and the prizes right and the books balanced (S-AUDIT-2). Without Redis, a node asked
about an event it does not run says which node does and changes nothing. Two nodes in one
process (the fixture of test_nodes_tournaments.py, its Redis database 6)."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from pokerroom.server.nodes import messages
from pokerroom.store.accounts.accounts import STARTING_GRANT
from pokerroom.store.db import Database
from pokerroom.store.models import Transfer
from pokerroom.store.nodes.tournament_leases import lease_key
from tests.helpers.node_tournaments import (
    STEADY,
    books,
    play,
    register,
    steady,
    two_nodes,
    watch_through,
)
from tests.helpers.nodes import Node
from tests.helpers.waiting import WAIT, eventually
from tests.server.conftest import Person, person

pytestmark = pytest.mark.postgres
__all__ = ["steady"]  # the fixture


def auth(someone: Person) -> dict[str, str]:
    return {"Authorization": f"Bearer {someone.token}"}


async def transfers(url: str, prefix: str) -> list[tuple[str, int]]:
    """The transfers whose key starts with ``prefix``: (key, count)."""
    db = Database(url)
    try:
        async with db.transaction() as session:
            rows = await session.execute(
                select(Transfer.idempotency_key, func.count())
                .where(Transfer.idempotency_key.startswith(prefix))
                .group_by(Transfer.idempotency_key)
            )
            return sorted((str(k), int(n)) for k, n in rows)
    finally:
        await db.close()


async def balance(node: Node, someone: Person) -> int:
    async with httpx.AsyncClient(base_url=node.base) as http:
        me = await http.get("/api/me", headers=auth(someone))
    return int(me.json()["balance"])


async def test_an_event_created_on_another_node_is_found_at_once(steady: tuple[Node, Node]) -> None:
    """b makes no pass after a creates the event: its page, a registration through b and
    the player's own entry are there at once (they were 404 until b's next pass)."""
    a, b = steady
    await b.room.placement.leases.stop()  # from here only a request can tell b of the event
    runner = await a.app.state.tournaments.create("sng_heads_up")
    assert runner.id not in {e["id"] for e in b.app.state.tournaments.lobby()}
    ann = await person(b.base, "ann")
    async with httpx.AsyncClient(base_url=b.base) as http:
        page = await http.get(f"/api/tournaments/{runner.id}")
        assert page.status_code == 200, page.text
        assert page.json()["id"] == runner.id and page.json()["status"] == "registering"
        done = await register(b, ann, runner.id)  # forwarded to a, the owner
        assert done.status_code == 200, done.text
        assert list(runner.t.entries) == [done.json()["entry"]]
        assert (await http.get("/api/tournaments/no-such-1")).status_code == 404
    assert await balance(b, ann) == STARTING_GRANT - 1100
    await books(a.database, runner.id, f"{runner.id}-1")


async def started_rebuy_event(a: Node, b: Node) -> tuple[Any, Person, Person]:
    """A rebuy event run by a, ann and bob registered through b, started with its tables
    dealing no hand (so that nothing but the requests moves a chip)."""
    hall = a.app.state.tournaments
    runner = await hall.create("mtt_rebuy")
    await eventually(lambda: b.app.state.tournaments.events.shadow(runner.id), "b knows it")
    ann, bob = await person(b.base, "ann"), await person(b.base, "bob")
    for someone in (ann, bob):
        assert (await register(b, someone, runner.id)).status_code == 200
    runner.starts_at = hall.clock()
    await runner.maybe_start()
    for actor in runner.actors.values():  # no hand: the stacks move by the requests only
        actor.next_hand_at = float("inf")
    assert all(actor.table.hand is None for actor in runner.actors.values())
    return runner, ann, bob


async def test_a_rebuy_and_the_add_on_through_another_node_are_applied_once(
    steady: tuple[Node, Node],
) -> None:
    a, b = steady
    runner, ann, bob = await started_rebuy_event(a, b)
    s = runner.t.structure
    assert s.rebuy is not None and s.addon is not None
    entry = runner.entry_of(ann.account_id)
    seat = runner.t.tables[1].seat_of(entry)
    shadow = lambda: b.app.state.tournaments.events.shadow(runner.id)  # noqa: E731
    await eventually(lambda: shadow() is not None and shadow().t.started, "b reads it started")
    # b reads the event no more: its view of it goes out of date
    await b.room.placement.leases.stop()
    path = f"/api/tournaments/{runner.id}/rebuy"
    async with httpx.AsyncClient(base_url=b.base, headers=auth(ann)) as http:
        done = await http.post(path, json={"number": 1, "request": "ann-1"})
        assert done.status_code == 200, done.text
        assert done.json()["number"] == 1 and done.json()["entry"] == entry
        assert seat.stack == s.starting_stack + s.rebuy.chips
        # Its answer lost, the client sends it again (the same key): the same answer.
        again = await http.post(path, json={"number": 1, "request": "ann-1"})
        assert again.status_code == 200 and again.json() == done.json()
        # b's view still shows no rebuy made: a click there names rebuy 1 again. Not a
        # retry (a new key): refused, not answered "done" for chips she was not given.
        view = (await http.get(f"/api/tournaments/{runner.id}/me")).json()
        assert view["rebuys"] == 0 and view["can_rebuy"], view
        stale = await http.post(path, json={"number": 1, "request": "ann-2"})
        assert stale.status_code == 400, stale.text
        assert stale.json()["code"] == "tournament.rebuy_not_next"
        again = await http.post(path)  # the next one: the owner's reason
        assert again.status_code == 400 and "cannot rebuy" in again.text  # above the limit
    assert seat.stack == s.starting_stack + s.rebuy.chips
    # The same call read twice (a redelivery: its idempotency key the same) applies once.
    bus = b.room.links.bus
    applied = a.room.links.bus.duplicates
    corr = secrets.token_hex(8)
    answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    bus.replies[corr] = answer
    rebuy = messages.EventCall(
        key=f"{bus.name}:floor:{corr}",
        node=bus.name,
        at=time.time(),
        call=corr,
        kind="rebuy",
        account=bob.account_id,
    )
    fields = messages.encode_command(rebuy)
    for _ in range(2):
        await bus.xadd(lease_key(runner.id), fields)
    assert (await asyncio.wait_for(answer, WAIT))["number"] == 1  # bob's first rebuy
    await eventually(lambda: a.room.links.bus.duplicates > applied, "the copy is read and dropped")
    async with httpx.AsyncClient(base_url=b.base) as http:
        skipped = await http.post(path, json={"number": 3}, headers=auth(bob))
        assert skipped.status_code == 400
        assert skipped.json()["code"] == "tournament.rebuy_not_next"
    rebuys = await transfers(a.database, f"t:{runner.id}:rebuy:")
    assert [n for _, n in rebuys] == [1, 1]  # ann's and bob's, one each
    assert runner.t.prize_pool == 2 * s.buy_in + 2 * s.rebuy.price

    # The add-on at the break after its level, asked through b.
    start = runner.t.clock.start
    on_break = start + sum(level.minutes for level in s.levels[: s.addon.after_level]) * 60 + 1
    offset = on_break - time.time()
    a.app.state.tournaments.clock = lambda: time.time() + offset
    async with httpx.AsyncClient(base_url=b.base, headers=auth(ann)) as http:
        path = f"/api/tournaments/{runner.id}/addon"
        done = await http.post(path, json={"request": "ann-addon"})
        assert done.status_code == 200, done.text
        again = await http.post(path, json={"request": "ann-addon"})  # a retry: the same
        assert again.status_code == 200 and again.json() == done.json()
        second = await http.post(path, json={"request": "ann-addon-2"})
        assert second.status_code == 400  # one per entry
        assert second.json()["code"] == "tournament.addon_taken", second.text
    assert seat.stack == s.starting_stack + s.rebuy.chips + s.addon.chips
    assert await transfers(a.database, f"t:{runner.id}:addon:") == [
        (f"t:{runner.id}:addon:{entry}", 1)
    ]
    pool = 2 * s.buy_in + 2 * s.rebuy.price + s.addon.price
    assert runner.t.prize_pool == pool
    cost = s.buy_in + s.fee + s.rebuy.price
    assert await balance(b, ann) == STARTING_GRANT - cost - s.addon.price
    assert await balance(b, bob) == STARTING_GRANT - cost
    await books(a.database, runner.id, f"{runner.id}-1")


async def test_a_deal_through_another_node_is_made_and_paid_once(
    steady: tuple[Node, Node],
) -> None:
    """Heads-up: ann proposes a chip chop through b while hand 1 runs; the hand ends with a
    fold (no new hand while it is open), bob accepts through b, and play goes on to the end:
    each is paid the deal's amount, once, and the pool is paid out exactly."""
    a, b = steady
    runner = await a.app.state.tournaments.create("sng_heads_up")
    tid, table = runner.id, f"{runner.id}-1"
    await eventually(lambda: b.app.state.tournaments.events.shadow(tid), "b knows it")
    ann, bob = await person(b.base, "ann"), await person(b.base, "bob")
    for someone in (ann, bob):
        assert (await register(b, someone, tid)).status_code == 200
    for someone in (ann, bob):
        await watch_through(b, someone, table)
    frame = await ann.until(lambda f: f.get("table") == table and f.get("hand"), WAIT)
    number = frame["hand"]["number"]
    async with httpx.AsyncClient(base_url=b.base) as http:
        path = f"/api/tournaments/{tid}/deal"
        proposed = await http.post(path, json={"kind": "chip"}, headers=auth(ann))
        assert proposed.status_code == 200, proposed.text
        assert proposed.json()["proposal"]["by"] == runner.entry_of(ann.account_id)
        early = await http.post(f"{path}/accept", headers=auth(bob))
        assert early.status_code == 400 and "hand ends" in early.text  # hand 1 still runs
        turn = await ann.until(
            lambda f: (
                f.get("table") == table
                and f.get("hand")
                and f["hand"]["number"] == number
                and f["hand"]["actor"] is not None
            ),
            WAIT,
        )
        first = ann if turn["hand"]["actor"] == turn["you"] else bob
        await first.send(type="act", table=table, hand=number, action="fold")
        await eventually(lambda: runner.t.tables[1].hand is None, "hand 1 ends, no hand 2")
        made = await http.post(f"{path}/accept", headers=auth(bob))
        assert made.status_code == 200, made.text
        assert made.json()["made"] is True
        amounts = made.json()["amounts"]
        again = await http.post(f"{path}/accept", headers=auth(bob))
        assert again.status_code == 400  # made: nothing to accept
    assert sum(amounts.values()) == runner.t.prize_pool == 2 * runner.t.structure.buy_in
    finished = lambda: runner.t.finished  # noqa: E731
    await asyncio.gather(
        play(ann, table, finished, shove=True), play(bob, table, finished, shove=True)
    )
    await eventually(lambda: runner.paid == set(amounts), "both deal amounts paid")
    prizes = await transfers(a.database, f"t:{tid}:prize:")
    assert [n for _, n in prizes] == [1, 1]
    got = {someone.name: await balance(b, someone) for someone in (ann, bob)}
    expected = {
        who.name: STARTING_GRANT - 1100 + amounts[runner.entry_of(who.account_id)]
        for who in (ann, bob)
    }
    assert got == expected
    await books(a.database, tid, table)


async def test_without_redis_a_node_names_the_events_owner_and_changes_nothing() -> None:
    """Two nodes on one PostgreSQL and no Redis (``--node-id`` without ``--redis``): each
    runs its own events, and nothing carries a request from one to the other. Asked to
    register in the other's event, a node answers 409 with the code
    ``tournament.elsewhere`` naming the node that runs it, and nothing is paid; through
    the owner the same request succeeds. A watch of that event's table through the other
    node is answered ``table.elsewhere`` with the node, not "no table"."""
    async with two_nodes(STEADY, bus=False) as (a, b):
        runner = await a.app.state.tournaments.create("sng_heads_up")
        ann, bob = await person(b.base, "ann"), await person(a.base, "bob")
        refused = await register(b, ann, runner.id)
        assert refused.status_code == 409
        assert refused.json()["code"] == "tournament.elsewhere"
        assert refused.json()["params"] == {"tournament": runner.id, "node": "ta"}
        assert await balance(b, ann) == STARTING_GRANT and not runner.t.entries
        for someone in (ann, bob):
            assert (await register(a, someone, runner.id)).status_code == 200
        table = f"{runner.id}-1"
        await eventually(
            lambda: b.room.placement.leases.owner_of(table) == "ta", "b reads it started"
        )
        await ann.send(type="watch", table=table)
        error = await ann.next("error")
        assert error["code"] == "table.elsewhere", error
        assert error["params"] == {"table": table, "node": "ta"}
        await books(a.database, runner.id, table)


async def test_an_event_taken_over_before_its_creators_next_pass_stays_in_its_lobby(
    steady: tuple[Node, Node],
) -> None:
    """a creates an event and makes no pass after (paused): b adopts it, a's registration
    is refused by the epoch and a stops running it, and a's lobby still lists it (it was
    listed by a's runner alone, gone until a's next pass)."""
    a, b = steady
    hall_a, hall_b = a.app.state.tournaments, b.app.state.tournaments
    await a.room.placement.leases.stop()  # a makes no pass from here
    runner = await hall_a.create("sng_heads_up")
    await eventually(lambda: runner.id in hall_b.runners, "b adopts the event", seconds=60)
    ann = await person(a.base, "ann")
    assert (await register(a, ann, runner.id)).status_code == 409  # a's epoch is stale
    await eventually(lambda: runner.id not in hall_a.runners, "a stops the event")
    async with httpx.AsyncClient(base_url=a.base) as http:
        listed = (await http.get("/api/tournaments")).json()
    assert [e["id"] for e in listed] == [runner.id]
    assert (await register(b, ann, runner.id)).status_code == 200
    await books(a.database, runner.id, f"{runner.id}-1")


async def test_a_node_holding_sockets_only_lists_forwards_and_plays_every_event() -> None:
    """A ``--sockets-only`` node runs no event and makes no lease pass: its lobby lists
    the event another node runs (read when asked), it forwards the players' registrations
    to the owner, and they play the event to its end through it; the prize is paid once
    (it listed nothing, and answered 404 to all of it)."""
    async with two_nodes(STEADY, sockets_only=True) as (a, s):
        runner = await a.app.state.tournaments.create("sng_heads_up")
        tid, table = runner.id, f"{runner.id}-1"
        async with httpx.AsyncClient(base_url=s.base) as http:
            listed = (await http.get("/api/tournaments")).json()
        assert [e["id"] for e in listed] == [tid]
        ann, bob = await person(s.base, "ann"), await person(s.base, "bob")
        for someone in (ann, bob):
            assert (await register(s, someone, tid)).status_code == 200
        for someone in (ann, bob):
            await watch_through(s, someone, table)
        finished = lambda: runner.t.finished  # noqa: E731
        await asyncio.gather(
            play(ann, table, finished, shove=True), play(bob, table, finished, shove=True)
        )
        await eventually(lambda: runner.paid, "the prize is paid")
        assert [n for _, n in await transfers(a.database, f"t:{tid}:prize:")] == [1]
        await asyncio.sleep(1.0)  # (the sockets-only node reads the events once a second)
        async with httpx.AsyncClient(base_url=s.base) as http:
            page = (await http.get(f"/api/tournaments/{tid}")).json()
        assert page["status"] == "finished"
        got = sorted([await balance(s, ann), await balance(s, bob)])
        assert got == [STARTING_GRANT - 1100, STARTING_GRANT + 900]
        await books(a.database, tid, table)
