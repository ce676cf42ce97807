"""S-ISOLATE-1 over real sockets: many connections of one address (three accounts) flood a
table's inbox while it is held up; the honest players' actions still get in and are
applied, and the flood is refused to its own sockets only. The audit reconciles."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from pokerroom.server.tables.actor import CLIENT_WAITING
from tests.helpers.attacks import (
    errors,
    first_act,
    logged_in,
    play,
    report,
    settle,
    writes_held,
)
from tests.helpers.audit import assert_books_balance
from tests.helpers.database import cancelled_hands
from tests.helpers.room_tables import decision
from tests.server.conftest import Server, person

FLOODERS = 48  # sockets of one address (the room allows 64 per address)
PATIENT = (("decision_seconds", 60), ("warning_after_seconds", 50), ("time_bank_seconds", 0))


async def drain(ws: ClientConnection, codes: list[str]) -> None:
    """Read everything (a flooder that stops reading is dropped: another test's subject)."""
    with contextlib.suppress(ConnectionClosed):
        async for raw in ws:
            frame: dict[str, Any] = json.loads(raw)
            if frame.get("type") == "error":
                codes.append(frame.get("code", ""))


async def test_S_ISOLATE_1_a_flood_of_one_address_never_refuses_another_players_action(
    postgres_server: Server,
) -> None:
    server = postgres_server
    # A decision clock the honest players never meet: the test's own loop runs the flood
    # beside them, and a player the clock acted for would see its late action refused.
    actor, (ann, bob, mover), number, seat = await first_act(server, PATIENT)
    # Three accounts on the honest players' own address (127.0.0.1), 16 sockets each: the
    # address's share binds, and the honest players' accounts still get past it.
    flooders: list[ClientConnection] = []
    for name in ("mallory", "mallet", "malice"):
        someone = await person(server.base, name)
        flooders.append(someone.ws)
        flooders += [await logged_in(server, someone.token) for _ in range(FLOODERS // 3 - 1)]
    mallory = someone
    refused: list[str] = []
    readers = [asyncio.create_task(drain(ws, refused)) for ws in flooders]
    act = json.dumps({"type": "act", "table": "fair", "action": "fold", "hand": number})

    # The table is held up by a write that waits for a lock: the flood piles up.
    async with writes_held(server):
        await mallory.send(type="waiting_list", table="fair", action="join")
        await settle(lambda: actor.queued)  # taken: the table waits on its write
        for _ in range(CLIENT_WAITING * 2):
            await asyncio.gather(*(ws.send(act) for ws in flooders))
        flood = await settle(lambda: actor.queued)
        await mover.send(type="act", table="fair", action="check_or_call", hand=number)
        await settle(lambda: actor.queued)
    after = await decision(mover, seat, number)  # the honest action was applied
    assert after["hand"] is None or after["hand"]["actor"] != seat
    assert errors(mover) == [], errors(mover)
    # The flood held one address's share, far from the table's limit, and the rest of it
    # was refused to the flooder's own sockets.
    limit = server.room.limits.inbox_messages
    assert flood <= max(CLIENT_WAITING, limit // 10) + 3 < limit  # + each account's first
    assert "table.yours_waiting" in refused and "table.busy" not in refused

    # And while the flood goes on (paced under the rate limit), the game goes on.
    stop = asyncio.Event()

    async def keep_flooding(ws: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            while not stop.is_set():
                for _ in range(5):
                    await ws.send(act)
                await asyncio.sleep(0.1)

    flooding = [asyncio.create_task(keep_flooding(ws)) for ws in flooders]
    waits: list[float] = []
    await asyncio.gather(play(ann, "fair", number + 3, waits), play(bob, "fair", number + 3, waits))
    stop.set()
    await asyncio.gather(*flooding)
    for ws in flooders:
        await ws.close()
    await asyncio.gather(*readers)
    assert errors(ann) == [] and errors(bob) == []
    print(f"flood held {flood} of the inbox's {limit}; {len(refused)} refused to the flooder")
    report(waits)
    assert await cancelled_hands(server) == 0 and actor.faults == 0
    await assert_books_balance(server)
