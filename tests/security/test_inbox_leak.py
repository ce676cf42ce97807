"""S-ISOLATE-1, hostile: a table's task that ends with clients' messages still in its inbox
(the table deposed when its lease is lost, a tournament table retired) must not leave
them counted on their connections: else 32 such messages refuse that connection's every
message at every table, for as long as it stays connected. The audit reconciles."""

from __future__ import annotations

import asyncio

from pokerroom.server.tables.actor import CLIENT_WAITING
from pokerroom.server.tables.room import TableConfig
from tests.helpers.attacks import heads_up, play, settle, writes_held
from tests.helpers.audit import assert_books_balance
from tests.helpers.database import cancelled_hands
from tests.helpers.room_tables import first_turn
from tests.server.conftest import Server, person


async def test_S_ISOLATE_1_an_ended_table_task_leaves_no_message_counted_on_its_clients(
    postgres_server: Server,
) -> None:
    server = postgres_server
    ann, bob = await heads_up(server, "stays")
    await server.room.open_table(
        TableConfig("goes", "goes", "titan", "holdem", "no_limit", 200, 2, ())
    )
    gone = server.room.actors["goes"]
    mallory = await person(server.base, "mallory")
    await mallory.send(type="watch", table="goes")
    await mallory.next("table")

    async with writes_held(server):  # "goes" seats Mallory: Ann's messages to it wait
        await mallory.send(type="join", table="goes", seat=1, buy_in=10_000, request="m1")
        await settle(lambda: gone.queued)
        for _ in range(CLIENT_WAITING):
            await ann.send(type="act", table="goes", action="fold", hand=1)
        assert await settle(lambda: gone.queued) == CLIENT_WAITING
        assert server.room.depose("goes", "the lease was lost")  # its task ends
        await asyncio.wait([gone.task], timeout=10)
    assert gone.task.done()

    # Ann is still connected and plays on at the other table: nothing of hers is waiting.
    stays = server.room.actors["stays"]
    client = next(c for c in stays.watchers if c.account_id == ann.account_id)
    assert client.waiting == 0
    _, frame, _ = await first_turn(ann, bob)
    number = frame["hand"]["number"]
    await asyncio.gather(play(ann, "stays", number + 2, []), play(bob, "stays", number + 2, []))
    refused = [f for f in ann.frames + bob.frames if f.get("type") == "error"]
    assert refused == [], refused
    assert stays.queued == 0 and not stays.shares.held
    assert await cancelled_hands(server) == 0
    await assert_books_balance(server)
    await mallory.ws.close()
