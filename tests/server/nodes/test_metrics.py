"""What an operator sees of the bus between nodes: /metrics on each node counts
the commands sent, applied, read twice and read too late, the resyncs and the Redis
reconnections, and shows whether the node listens, its backlog and the commands' lag. The
figures move with real commands over Redis (nodes in this process: tests/helpers/nodes.py).
And a command read too late is not applied, and its sender is told."""

from __future__ import annotations

import asyncio
import json
import time

import redis.asyncio as aioredis

from pokerroom.server.nodes import messages
from pokerroom.server.nodes.bus import COMMAND_SECONDS
from tests.helpers.audit import assert_books_balance
from tests.helpers.metrics import scrape
from tests.helpers.nodes import REDIS, Node, both, connection, nodes, seated_on
from tests.helpers.room_tables import table_config

DB = 4  # this module's own Redis database number
__all__ = ["nodes"]  # the fixture: the owner node and two socket-only nodes


async def scraped_until(node: Node, check: object, what: str) -> dict[str, float]:
    """/metrics of ``node`` once ``check(samples)`` holds (bounded)."""
    for _ in range(400):
        samples = await scrape(node)
        if check(samples):  # type: ignore[operator]
            return samples
        await asyncio.sleep(0.05)
    raise AssertionError(f"{what}: {samples}")


async def test_the_bus_figures_move_in_metrics_with_commands_over_redis(nodes) -> None:  # type: ignore[no-untyped-def]
    owner, first, _ = await nodes(DB)
    at_start = await scrape(first)
    for series in (
        "pokerroom_bus_commands_sent_total",
        "pokerroom_bus_commands_applied_total",
        "pokerroom_bus_commands_duplicate_total",
        "pokerroom_bus_commands_expired_total",
        "pokerroom_bus_resyncs_total",
        "pokerroom_bus_reconnections_total",
        "pokerroom_bus_remote_clients",
        "pokerroom_bus_backlog",
        "pokerroom_bus_acks_waiting",
        "pokerroom_bus_command_lag_seconds_count",
    ):
        assert series in at_start, series
    assert at_start["pokerroom_bus_commands_sent_total"] == 0
    await owner.room.open_table(table_config("bm"))
    ann, bob = await seated_on(first, "bm", ("ann", "bob"))
    await both(ann, bob, "bm", 2)
    # The socket node sent every command; the owner applied them, timing each one's lag.
    sent = first.bus.sent  # (a command may still be on its way: bounds, not one number)
    sockets = await scrape(first)
    assert sockets["pokerroom_bus_up"] == 1
    assert 0 < sent <= sockets["pokerroom_bus_commands_sent_total"] <= first.bus.sent
    assert sockets["pokerroom_bus_commands_applied_total"] == 0  # it owns nothing
    owning = await scraped_until(
        owner,
        lambda s: s["pokerroom_bus_commands_applied_total"] >= first.bus.sent,
        "the owner applied every command sent",
    )
    assert (
        owning["pokerroom_bus_command_lag_seconds_count"]
        == owning["pokerroom_bus_commands_applied_total"]
    )
    assert owning["pokerroom_bus_remote_clients"] == 2  # ann's and bob's sockets
    assert owning["pokerroom_bus_commands_duplicate_total"] == 0
    # A command sent again under its key: counted as a duplicate, applied once.
    client = connection(first, ann.account_id)
    chat = json.dumps({"type": "chat", "table": "bm", "text": "twice"})
    for _ in range(2):
        await first.bus.command(client, "bm", "said", chat, key="metrics-retry")
    await scraped_until(
        owner, lambda s: s["pokerroom_bus_commands_duplicate_total"] == 1, "one duplicate"
    )
    # The socket node's Redis connections cut: it reconnects and asks for the table again.
    admin = aioredis.from_url(f"{REDIS}/{DB}")
    try:
        for line in await admin.client_list():
            if line.get("name") == "pokerroom-sockets-1":
                await admin.client_kill_filter(_id=line["id"])
    finally:
        await admin.aclose()
    again = await scraped_until(
        first,
        lambda s: s["pokerroom_bus_reconnections_total"] >= 1 and s["pokerroom_bus_up"] == 1,
        "the socket node back on Redis",
    )
    assert again["pokerroom_bus_resyncs_total"] >= 2  # ann's and bob's tables
    await both(ann, bob, "bm", 1)
    await assert_books_balance(owner)


async def test_a_command_read_too_late_is_not_applied_and_its_sender_is_told(nodes) -> None:  # type: ignore[no-untyped-def]
    """A command the owner reads more than 30 s after it was sent (an owner far behind, a
    stalled Redis): nothing is applied, and the client gets an error saying so, at once."""
    owner, first, _ = await nodes(DB)
    await owner.room.open_table(table_config("late"))
    ann, bob = await seated_on(first, "late", ("ann", "bob"))
    await bob.until(lambda f: f["seats"][0].get("name") == "ann")
    client = connection(first, ann.account_id)
    chat = json.dumps({"type": "chat", "table": "late", "text": "stale"})
    sent = time.time() - COMMAND_SECONDS - 5
    said = messages.Said(
        key="late-1",
        node=first.bus.name,
        at=sent,
        conn=client.conn,
        account=ann.account_id,
        name="ann",
        text=chat,
    )
    await first.bus.xadd("late", messages.encode_command(said))
    error = await ann.next("error")
    assert error["code"] == "table.too_late" and error["table"] == "late", error
    assert error["request"] == "chat" and int(error["params"]["seconds"]) >= COMMAND_SECONDS
    fresh = json.dumps({"type": "chat", "table": "late", "text": "fresh"})
    await first.bus.command(client, "late", "said", fresh)
    assert (await bob.next("chat"))["text"] == "fresh"  # the stale one never showed
    await scraped_until(
        owner, lambda s: s["pokerroom_bus_commands_expired_total"] == 1, "one command expired"
    )
    await assert_books_balance(owner)


async def test_a_message_a_node_cannot_read_is_dropped_and_the_nodes_play_on(nodes) -> None:  # type: ignore[no-untyped-def]
    """A command, a notice or a batch of frames that cannot be read (another version's, a
    stray writer's) is logged and dropped: no node stops reading, the next message is done."""
    owner, first, _ = await nodes(DB)
    await owner.room.open_table(table_config("junk"))
    ann, bob = await seated_on(first, "junk", ("ann", "bob"))
    await bob.until(lambda f: f["seats"][0].get("name") == "ann")
    client = connection(first, ann.account_id)
    for fields in (
        {"kind": "said", "node": first.bus.name, "message": "{}"},  # no command in it
        {"message": '{"kind": "shout", "key": "k1", "node": "n", "at": 1}'},  # unknown kind
        {"message": '{"kind": "said", "key": "k2"'},  # cut short
        messages.encode_command(  # a tournament's call, on a table's stream
            messages.EventCall(key="k3", node="n", at=time.time(), kind="rebuy", account=1)
        ),
    ):
        await first.bus.xadd("junk", fields)
    await first.bus.redis.publish(first.bus.key("room"), b'{"kind": "revoke"}')  # no token
    await owner.bus.redis.publish(first.bus.key(f"node:{first.bus.name}"), b'[[["1"]]]\nx')
    chat = json.dumps({"type": "chat", "table": "junk", "text": "still here"})
    await first.bus.command(client, "junk", "said", chat)
    assert (await bob.next("chat"))["text"] == "still here"
    assert owner.bus.malformed == 4 and owner.bus.applied >= 1
    await assert_books_balance(owner)
