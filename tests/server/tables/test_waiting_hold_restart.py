"""A seat held for the waiting list ends at a wall-clock instant, stored with the table's
snapshot, over a restart of the room as over a node's adoption of the table: a hold whose time
ran out while the room was down is passed on at once, not given a fresh 30 s (over real
sockets; the audit reconciles, S-AUDIT-2)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from pokerroom.store.db import sqlite_url
from tests.helpers.audit import assert_books_balance
from tests.helpers.room_tables import back, room_on
from tests.helpers.waiting_list import full_two_seats, in_line, stored_table, waiting

HOLD_SECONDS = 5.0  # long enough that a fresh hold after the restart would still run


async def test_a_hold_that_ran_out_while_the_room_was_down_is_passed_on_at_once(
    tmp_path: Path,
) -> None:
    url = sqlite_url(tmp_path / "room.db")
    async with room_on(url) as first:
        ann, bob = await full_two_seats(first, "h1")
        carl, dave = await in_line(first, "h1", "carl", "dave")
        first.room.actors["h1"].table.waiting.offer_seconds = HOLD_SECONDS
        asked = time.time()
        await bob.send(type="leave", table="h1")
        offer = (await waiting(carl, "h1", position=1))["offer"]
        while offer is None:
            offer = (await waiting(carl, "h1"))["offer"]
        answered = time.time()
        assert offer["seat"] == 2
        stored = await stored_table(first, "h1")
        held_until = stored.waiting.offers[str(carl.account_id)].held_until
        # a wall-clock instant, not the process's monotonic seconds
        assert asked + HOLD_SECONDS <= held_until <= answered + HOLD_SECONDS
        for someone in (ann, bob, carl, dave):
            await someone.ws.close()
    async with asyncio.timeout(30):  # the room stays down until the hold's time is up
        while time.time() <= held_until:
            await asyncio.sleep(0.05)
    async with room_on(url) as second:
        dave = await back(second, dave)
        await dave.send(type="watch", table="h1")
        told = await waiting(dave, "h1")
        assert told["position"] == 1 and told["offer"] is not None, told  # carl passed over
        assert told["offer"]["seat"] == 2 and told["offer"]["seconds"] <= HOLD_SECONDS
        await dave.send(type="join", table="h1", seat=2, buy_in=10_000, request="d1")
        await dave.until(lambda f: f.get("you") == 2)
        await dave.ws.close()
        await assert_books_balance(second)
