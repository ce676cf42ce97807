"""S-ISOLATE-1, hostile: past a full address share only a connection with nothing waiting
gets in (one message per connection, 64 per address). One socket that says hello again
with one session token after another must not pass a message per account it holds: with
enough accounts it would fill the table's inbox from one address. The audit reconciles."""

from __future__ import annotations

import asyncio
import json

import httpx

from pokerroom.server.tables.actor import CLIENT_WAITING
from tests.helpers.attacks import errors, first_act, logged_in, settle, writes_held
from tests.helpers.audit import assert_books_balance
from tests.helpers.database import cancelled_hands
from tests.helpers.room_tables import decision
from tests.server.conftest import PASSWORD_SECONDS, Server, person

ACCOUNTS = 12  # the switching socket's session tokens, one account each


async def test_S_ISOLATE_1_one_socket_switching_accounts_passes_a_full_address_once(
    postgres_server: Server,
) -> None:
    server = postgres_server
    actor, (_, _, mover), number, seat = await first_act(server)
    actor.shares.limit = 20 * CLIENT_WAITING  # an account's share 32, the address's 64
    assert actor.shares.per_address == 2 * CLIENT_WAITING
    act = json.dumps({"type": "act", "table": "fair", "action": "fold", "hand": number})
    mallory, mallet = await person(server.base, "mallory"), await person(server.base, "mallet")
    tokens = []
    async with httpx.AsyncClient(base_url=server.base, timeout=PASSWORD_SECONDS) as http:
        for k in range(ACCOUNTS):
            answer = await http.post(
                "/api/signup", json={"username": f"sock_{k}", "password": "correct horse"}
            )
            tokens.append(answer.json()["token"])
    switcher = await logged_in(server, tokens[0])

    async with writes_held(server):
        await mallory.send(type="waiting_list", table="fair", action="join")
        await settle(lambda: actor.queued)  # taken: the table waits on its write
        for flooder in (mallory, mallet):  # the address's share, full (127.0.0.1)
            for _ in range(CLIENT_WAITING):
                await flooder.ws.send(act)
        full = await settle(lambda: actor.queued)
        assert full == actor.shares.per_address
        for token in tokens:  # one socket, one account after another
            await switcher.send(json.dumps({"type": "hello", "token": token}))
            while json.loads(await switcher.recv())["type"] != "hello":
                pass
            await switcher.send(act)
        assert await settle(lambda: actor.queued) - full == 1  # its first, no more
        await mover.send(type="act", table="fair", action="check_or_call", hand=number)
        assert await settle(lambda: actor.queued) - full == 2  # a neighbour still gets in
    after = await decision(mover, seat, number)  # the honest action was applied
    assert after["hand"] is None or after["hand"]["actor"] != seat
    assert errors(mover) == [], errors(mover)
    await asyncio.gather(mallory.ws.close(), mallet.ws.close(), switcher.close())
    assert await settle(lambda: actor.queued) == 0 and not actor.shares.held
    assert await cancelled_hands(server) == 0 and actor.faults == 0
    await assert_books_balance(server)
