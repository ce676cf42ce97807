"""A room stopping cleanly drains (server/ops/drain.py) and says so to a balancer: ``/ready``
answers 200 while it serves and 503 once it drains; the hand in play finishes, and no new
hand is dealt. (On several nodes: tests/server/nodes/test_drain.py.)"""

from __future__ import annotations

import asyncio

import httpx

from pokerroom.server.ops.drain import drain
from tests.helpers.audit import assert_books_balance
from tests.helpers.room_tables import ann_and_bob_seated
from tests.server.conftest import Person, Server


async def check_or_call_until(someone: Person, table: str, done: asyncio.Task[list[str]]) -> None:
    """Play (check or call) whenever it is this person's turn, until ``done`` is."""
    while not done.done():
        try:
            frame = await someone.next("table", 0.5)
        except TimeoutError:
            continue
        hand = frame.get("hand")
        if hand and hand["actor"] == frame.get("you") and hand["legal"] is not None:
            await someone.send(type="act", table=table, action="check_or_call", hand=hand["number"])


async def test_a_draining_room_finishes_the_hand_in_play_deals_no_other_and_is_not_ready(
    server: Server,
) -> None:
    ann, bob = await ann_and_bob_seated(server, "draining", (1, 2))
    await ann.until(lambda f: f.get("hand") is not None)  # a hand in play
    actor = server.room.actors["draining"]
    number = actor.table.hand_number
    async with httpx.AsyncClient(base_url=server.base) as http:
        assert (await http.get("/ready")).json() == {"ready": True}
        drained = asyncio.create_task(drain(server.room, 60))
        await asyncio.sleep(0)  # the drain has begun: the balancer is told at once
        answer = await http.get("/ready")
        assert (answer.status_code, answer.json()) == (503, {"ready": False, "draining": True})
        players = [check_or_call_until(p, "draining", drained) for p in (ann, bob)]
        await asyncio.wait_for(asyncio.gather(drained, *players), 60)
    assert drained.result() == []  # no hand left in play
    assert actor.table.hand is None and actor.table.hand_number == number  # none dealt since
    await assert_books_balance(server)
