"""Several nodes over Redis: a node that owns the tables and nodes that only hold
sockets, in this process, on one PostgreSQL database and one Redis (a database number of its
own per test, flushed by the test: never the 0 other tests use). Under CI=true both servers
are required; elsewhere the tests skip, saying why."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from pokerroom.server.app import create_app
from tests.helpers.accounts import operator_headers
from tests.helpers.audit import assert_books_balance
from tests.helpers.frames import leaked
from tests.helpers.nodes import (
    REDIS,
    Node,
    both,
    connection,
    kill,
    log_in_again,
    nodes,
    play,
    redis_db,
    room_prefix,
    seated_on,
    start_node,
    stop_node,
)
from tests.helpers.room_tables import table_config
from tests.server.conftest import Person, person, start_uvicorn
from tests.store.conftest import drop_postgres, fresh_postgres

__all__ = ["nodes"]  # the fixture: the owner node and two socket-only nodes

pytestmark = pytest.mark.postgres


def own_cards_seen(someone: Person) -> bool:
    return any(
        f.get("type") == "table" and f.get("you") and f["seats"][f["you"] - 1].get("cards")
        for f in someone.frames
    )


async def test_a_player_on_a_socket_node_sits_acts_and_sees_only_her_own_cards(nodes) -> None:  # type: ignore[no-untyped-def]
    owner, first, second = await nodes(11)
    await owner.room.open_table(table_config("n1"))
    assert not first.room.actors and not second.room.actors  # they only hold sockets
    carl = await person(second.base, "carl")  # a spectator on another socket node
    dave = await person(owner.base, "dave")  # and one on the owner
    # Each watch answered (carl's by the owner, over the bus) before anyone sits: sign-ups
    # on a busy machine take seconds, and hands dealt meanwhile play on by time-outs.
    for spectator in (carl, dave):
        await spectator.send(type="watch", table="n1")
        await spectator.until(lambda f: f["table"] == "n1", 30)
    played: list[int] = []  # the last version ann and bob saw, once they played

    def caught_up(frame: dict[str, Any]) -> bool:
        return bool(played) and frame["version"] >= played[0]

    spectating = [(s, asyncio.create_task(s.until(caught_up, 120))) for s in (carl, dave)]
    ann, bob = await seated_on(first, "n1", ("ann", "bob"))
    await both(ann, bob, "n1", 3)
    # The spectators saw the table as far as the players did (every frame the players got
    # went to them too): they followed the hands, not just the table before them.
    played.append(max(f["version"] for f in ann.frames + bob.frames if f.get("type") == "table"))
    for spectator, task in spectating:
        if any(caught_up(f) for f in spectator.frames if f.get("type") == "table"):
            task.cancel()  # seen before ``played`` was known: nothing more to wait for
        with contextlib.suppress(asyncio.CancelledError):
            await task
    # S-VIEW-1 through the bus: each saw their own cards, nobody anyone else's.
    assert own_cards_seen(ann) and own_cards_seen(bob)
    for someone, seat in ((ann, 1), (bob, 2), (carl, None), (dave, None)):
        assert leaked(someone.frames, seat) == [], someone.name
    # The socket node's lobby lists the owner's table, as the owner's does, within the beat
    # that publishes it (hands can outpace it: bob's seat may not be listed yet).
    async with httpx.AsyncClient(base_url=second.base) as http:
        for _ in range(120):  # bounded: thirty beats (a busy machine's beats come late)
            listed = (await http.get("/api/lobby")).json()
            if [t["id"] for t in listed] == ["n1"] and set(listed[0]["players"]) == {"ann", "bob"}:
                break
            await asyncio.sleep(first.bus.beat_seconds / 2)
    assert [t["id"] for t in listed] == ["n1"] and set(listed[0]["players"]) == {"ann", "bob"}
    # The commands went over Redis to the owner, and were applied there once each.
    assert first.bus.sent > 0 and owner.bus.applied >= first.bus.sent
    assert owner.bus.duplicates == 0
    await assert_books_balance(owner)


async def test_a_command_sent_again_with_its_key_is_applied_once(nodes) -> None:  # type: ignore[no-untyped-def]
    owner, first, _ = await nodes(12)
    await owner.room.open_table(table_config("n2"))
    ann, bob = await seated_on(first, "n2", ("ann", "bob"))
    await bob.until(lambda f: f["seats"][0].get("name") == "ann")
    client = connection(first, ann.account_id)
    chat = json.dumps({"type": "chat", "table": "n2", "text": "once"})
    for _ in range(3):  # the socket node's retry: the same key each time
        await first.bus.command(client, "n2", "said", chat, key="retry-1")
    after = json.dumps({"type": "chat", "table": "n2", "text": "after"})
    await first.bus.command(client, "n2", "said", after, key="retry-2")
    said = []
    while "after" not in said:
        frame = await bob.next("chat")
        said.append(frame["text"])
    assert said == ["once", "after"]
    assert owner.bus.duplicates == 2
    await assert_books_balance(owner)


async def test_a_gap_in_the_versions_asks_the_owner_for_the_whole_table(nodes) -> None:  # type: ignore[no-untyped-def]
    owner, first, _ = await nodes(13)
    await owner.room.open_table(table_config("n3"))
    ann, bob = await seated_on(first, "n3", ("ann", "bob"))
    carl = await person(first.base, "carl")  # a spectator on the socket node
    await carl.send(type="watch", table="n3")
    await carl.until(lambda f: f.get("hand") is not None)
    bus = first.bus
    received = bus._received
    lost: list[int] = []

    def lose_one(batch: Any) -> None:  # one table frame for carl lost on the way
        conn = connection(first, carl.account_id).conn
        kept = []
        for frame in batch:
            if not lost and frame.version is not None and conn in frame.conns:
                lost.append(frame.version)
                frame = dataclasses.replace(frame, conns=tuple(c for c in frame.conns if c != conn))
            kept.append(frame)
        received(kept)

    bus._received = lose_one  # type: ignore[method-assign]
    before = bus.resyncs
    watching = asyncio.create_task(carl.until(lambda f: False, 120))
    await both(ann, bob, "n3", 3)
    watching.cancel()
    await asyncio.gather(watching, return_exceptions=True)
    assert lost and bus.resyncs == before + 1 and not bus.asked  # asked once, answered
    versions = [f["version"] for f in carl.frames if f.get("type") == "table"]
    assert lost[0] not in versions and versions == sorted(versions)
    # after the last frame before the gap (a version can come twice: a seat's own frame)
    after = versions[max(k for k, v in enumerate(versions) if v < lost[0]) + 1 :]
    assert after and after[0] == lost[0] + 1  # the next frame showed the gap ...
    # ... and the owner sent the whole table again: at a version carl had had (the snapshot)
    assert len(after) > len(set(after))
    await assert_books_balance(owner)


async def test_redis_losing_its_connections_and_data_then_clients_resync_and_play_on(nodes) -> None:  # type: ignore[no-untyped-def]
    owner, first, _ = await nodes(14)
    await owner.room.open_table(table_config("n4"))
    ann, bob = await seated_on(first, "n4", ("ann", "bob"))
    await both(ann, bob, "n4", 1)
    admin = aioredis.from_url(f"{REDIS}/14")
    try:
        await admin.flushdb()  # the test's own database: streams, groups, liveness gone
        for line in await admin.client_list():
            if line.get("name", "").startswith("pokerroom-"):
                names = {"pokerroom-owner", "pokerroom-sockets-1", "pokerroom-sockets-2"}
                if line["name"] in names and line.get("db") in ("14", 14):
                    await admin.client_kill_filter(_id=line["id"])
    finally:
        await admin.aclose()
    await both(ann, bob, "n4", 2)
    assert first.bus.reconnections >= 1 and first.bus.resyncs >= 2
    await assert_books_balance(owner)


async def test_clients_of_a_dead_socket_node_reconnect_elsewhere_and_keep_their_seats(
    nodes,
) -> None:  # type: ignore[no-untyped-def]
    owner, first, second = await nodes(15)
    await owner.room.open_table(table_config("n5"))
    ann, bob = await seated_on(first, "n5", ("ann", "bob"))
    await both(ann, bob, "n5", 1)
    await kill(first)
    # The owner sees the node gone (its liveness key expired): both seats disconnected.
    watcher = await person(owner.base, "eve")
    await watcher.send(type="watch", table="n5")
    await watcher.until(lambda f: not f["seats"][0]["connected"] and not f["seats"][1]["connected"])
    # They come back through other nodes, watch their table, and have their seats (R-TIME-3).
    again = []
    for someone, node in ((ann, second), (bob, owner)):
        back = await log_in_again(node, someone, ["n5"])
        again.append(back)
    await watcher.until(lambda f: f["seats"][0]["connected"] and f["seats"][1]["connected"])
    await both(again[0], again[1], "n5", 2, reconnected=True)
    await assert_books_balance(owner)


async def test_the_floor_on_a_socket_node_reaches_the_owner_and_every_node(nodes) -> None:  # type: ignore[no-untyped-def]
    owner, first, second = await nodes(10)
    await owner.room.open_table(table_config("n6"))
    ann, bob = await seated_on(first, "n6", ("ann", "bob"))
    playing = [
        asyncio.create_task(play(ann, "n6", 1000, 1)),
        asyncio.create_task(play(bob, "n6", 1000, 2)),
    ]
    floor = await operator_headers(second)
    async with httpx.AsyncClient(base_url=second.base, headers=floor) as http:
        for _ in range(500):  # bounded: a hand is in progress within moments
            void = await http.post("/api/floor/tables/n6/void", json={"reason": "a misdeal"})
            if void.status_code == 200:
                break
            assert void.status_code == 409 and "no hand" in void.json()["detail"], void.text
            await asyncio.sleep(0.02)
        assert void.status_code == 200 and void.json()["voided"] >= 1
        missing = await http.post("/api/floor/tables/nowhere/void", json={"reason": "x"})
        assert missing.status_code == 404
        # Suspended on this node: bob's socket on another node closes, the owner sits him out.
        suspended = await http.post(
            f"/api/floor/accounts/{bob.account_id}/suspend", json={"reason": "collusion"}
        )
        assert suspended.status_code == 200
        await asyncio.wait_for(bob.ws.wait_closed(), 20)
        assert bob.ws.close_code == 1008 and bob.ws.close_reason == "account suspended"
        playing[1].cancel()
        closed = await http.post("/api/floor/tables/n6/close", json={"reason": "end of night"})
        assert closed.status_code == 200 and closed.json()["closed"]
        acts = [a["act"] for a in (await http.get("/api/floor/acts")).json()]
    playing[0].cancel()
    await asyncio.gather(*playing, return_exceptions=True)
    assert acts == ["void_hand", "suspend_account", "close_table"]
    assert owner.room.actors["n6"].closed and not owner.room.actors["n6"].table.seats
    await assert_books_balance(owner)


async def test_a_new_owner_of_a_table_is_watched_again_from_every_node(nodes) -> None:  # type: ignore[no-untyped-def]
    owner, first, _ = await nodes(9)
    await owner.room.open_table(table_config("n7"))
    ann, bob = await seated_on(first, "n7", ("ann", "bob"))
    await both(ann, bob, "n7", 2)
    # The owner stops and another node takes its tables from the database (a restart here;
    # a lease's adoption in general): it says so, and the socket node's clients watch again.
    prefix, redis = owner.bus.prefix, f"{REDIS}/9"
    await stop_node(owner)
    adopter = await start_node(owner.database, redis, "adopter", owner=True, prefix=prefix)
    try:
        assert "n7" in adopter.room.actors
        await both(ann, bob, "n7", 2)
        assert adopter.bus.applied > 0
        await assert_books_balance(adopter)
    finally:
        await stop_node(adopter)


async def test_with_leases_a_player_plays_through_another_node_and_follows_an_adoption() -> None:
    """Nodes as ``serve --node-id --redis`` runs them: each runs the tables whose leases it
    holds. Two people on the node that does not run their table play there over the bus;
    its owner stops, their node adopts the table, and they play on with their seats."""
    from pokerroom.store.nodes.leases import LeaseSettings

    redis = await redis_db(7)
    name, url = await fresh_postgres()
    prefix = room_prefix()
    leases = LeaseSettings(ttl=6.0, renew=0.5)  # the owner keeps it until it stops (not 2 s)
    started: list[Node] = []
    try:
        for node in ("lease-a", "lease-b"):
            app = create_app(
                url,
                demo=True,
                pause=0.05,
                redis=redis,
                redis_prefix=prefix,
                node=node,
                leases=leases,
            )
            port, uv, task = await start_uvicorn(app)
            started.append(Node(base=f"http://127.0.0.1:{port}", app=app, database=url))
            started[-1].uv, started[-1].task = uv, task
        for _ in range(600):  # bounded: the two nodes share the six tables out within seconds
            if any("hu-nlhe" in node.room.actors for node in started):
                break
            await asyncio.sleep(0.05)
        owner, other = started if "hu-nlhe" in started[0].room.actors else started[::-1]
        ann = await person(other.base, "ann")
        bob = await person(other.base, "bob")
        for someone, seat in ((ann, 1), (bob, 2)):
            await someone.send(type="watch", table="hu-nlhe")
            await someone.send(
                type="join", table="hu-nlhe", seat=seat, buy_in=10_000, request=f"j{seat}"
            )
        await both(ann, bob, "hu-nlhe", 2)
        assert other.bus.sent > 0 and "hu-nlhe" not in other.room.actors
        await stop_node(owner)  # its leases released: the other node adopts its tables
        started.remove(owner)
        await both(ann, bob, "hu-nlhe", 2, reconnected=True)
        assert "hu-nlhe" in other.room.actors
        assert own_cards_seen(ann) and own_cards_seen(bob)
        assert leaked(ann.frames, 1) == [] and leaked(bob.frames, 2) == []
        await assert_books_balance(other)
    finally:
        for node in started:
            await stop_node(node)
        await drop_postgres(name)
