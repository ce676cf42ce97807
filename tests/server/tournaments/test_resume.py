"""A room restarted in the middle of a tournament hand (R-DECK-5): the hand is
cancelled with every chip back, the event resumes where it was (its level clock, its
tables, its entries) and deals on; the books balance before and after. An event cancelled
for too few entrants stays cancelled."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import select
from websockets.asyncio.client import connect

from pokerroom.store.accounts.accounts import STARTING_GRANT
from pokerroom.store.db import Database, sqlite_url
from pokerroom.store.models import HandRecord
from tests.helpers.accounts import signup
from tests.helpers.audit import assert_books_balance
from tests.server.conftest import Server, _serve


async def stop(serving: AsyncIterator[Server]) -> None:
    """The room's shutdown (the code after the fixture's yield): its tasks cancelled."""
    with contextlib.suppress(StopAsyncIteration):
        await anext(serving)


async def hands(url: str) -> dict[int, str]:
    db = Database(url)
    try:
        async with db.transaction() as session:
            rows = await session.execute(select(HandRecord.number, HandRecord.status))
            return {int(n): s for n, s in rows}
    finally:
        await db.close()


async def heads_up_dealt(server: Server, names: tuple[str, str]) -> tuple[Any, list[Any]]:
    """A heads-up sit & go that two sign-ups registered for, its first hand dealt."""
    runner = await server.app.state.tournaments.create("sng_heads_up")
    people = [await signup(server.base, name) for name in names]
    async with httpx.AsyncClient(base_url=server.base) as http:
        for who in people:
            done = await http.post(
                f"/api/tournaments/{runner.id}/register",
                json={"request": who["username"]},
                headers={"Authorization": f"Bearer {who['token']}"},
            )
            assert done.status_code == 200, done.text
    table = runner.t.tables[1]
    async with asyncio.timeout(20):  # the first hand is dealt at once; nobody acts in it
        while table.hand is None or runner.actors[1].started is None:
            await asyncio.sleep(0.02)
    return runner, people


async def test_a_restart_cancels_the_hand_in_progress_and_the_event_goes_on(
    tmp_path: Path,
) -> None:
    url = sqlite_url(tmp_path / "room.db")
    first = _serve(url)
    server = await anext(first)
    runner, _ = await heads_up_dealt(server, ("ann_resume", "bob_resume"))
    table = runner.t.tables[1]
    number, start = table.hand_number, runner.t.clock.start
    assert table.hand is not None and sum(table.hand.starting_stacks) == 3000
    await assert_books_balance(server)
    await stop(first)  # the room stops with the hand in progress: nothing saved for it
    assert (await hands(url))[number] == "running"

    again = _serve(url)
    server = await anext(again)
    try:
        resumed = server.app.state.tournaments.get(runner.id)
        t = resumed.t
        assert t.started and t.clock.start == start and len(t.entries) == 2
        assert (await hands(url))[number] == "cancelled"
        async with asyncio.timeout(20):  # it deals on, numbering on from the cancelled hand
            while t.tables[1].hand is None:
                await asyncio.sleep(0.02)
        assert t.tables[1].hand_number == number + 1
        stacks = sorted(t.tables[1].hand.starting_stacks)
        assert stacks == [1500, 1500]  # every chip of the cancelled hand back
        await assert_books_balance(server)
    finally:
        await stop(again)


async def test_a_cancelled_event_stays_cancelled_after_a_restart(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "room.db")
    first = _serve(url)
    server = await anext(first)
    hall = server.app.state.tournaments
    now = [time.time()]
    hall.clock = lambda: now[0]
    runner = await hall.create("mtt_freezeout", starts_at=now[0] + 600)
    ann = await signup(server.base, "ann_void")
    auth = {"Authorization": f"Bearer {ann['token']}"}
    path = f"/api/tournaments/{runner.id}/register"
    async with httpx.AsyncClient(base_url=server.base, headers=auth) as http:
        assert (await http.post(path, json={"request": "r1"})).status_code == 200
    now[0] += 601  # one entrant of the two it needs at its time
    hall.changed()
    async with asyncio.timeout(20):
        while runner.status != "cancelled":
            await asyncio.sleep(0.02)
    await stop(first)

    again = _serve(url)
    server = await anext(again)
    try:
        resumed = server.app.state.tournaments.get(runner.id)
        assert resumed.status == "cancelled" and not resumed.t.entries
        async with httpx.AsyncClient(base_url=server.base, headers=auth) as http:
            refused = await http.post(path, json={"request": "r2"})
            assert refused.status_code == 400
            assert refused.json()["code"] == "tournament.cancelled"
            assert (await http.get("/api/me")).json()["balance"] == STARTING_GRANT
        await assert_books_balance(server)
    finally:
        await stop(again)


async def test_a_deal_being_agreed_is_cancelled_by_a_restart_and_its_players_are_told(
    tmp_path: Path,
) -> None:
    """A deal at the final table: the proposal is stored with the event; a restart rolls the
    hand in play back (R-DECK-5), so the room cancels the proposal (votes may have been for
    other amounts), says so to each of its players when they are back, and deals on."""
    url = sqlite_url(tmp_path / "room.db")
    first = _serve(url)
    server = await anext(first)
    runner, people = await heads_up_dealt(server, ("ann_dr", "bob_dr"))
    async with httpx.AsyncClient(base_url=server.base) as http:
        path = f"/api/tournaments/{runner.id}/deal"
        auth = {"Authorization": f"Bearer {people[0]['token']}"}
        proposed = await http.post(path, json={"kind": "chip"}, headers=auth)
        assert proposed.status_code == 200, proposed.text
        assert proposed.json()["proposal"] is not None
    await stop(first)

    again = _serve(url)
    server = await anext(again)
    try:
        resumed = server.app.state.tournaments.get(runner.id)
        assert resumed.proposal is None
        async with httpx.AsyncClient(base_url=server.base) as http:
            view = (await http.get(f"/api/tournaments/{runner.id}/deal")).json()
        assert view["proposal"] is None and "cancelled by a restart" in view["cancelled"]
        ann = people[0]
        async with connect(server.base.replace("http", "ws", 1) + "/ws") as ws:
            await ws.send(json.dumps({"type": "hello", "token": ann["token"]}))
            await ws.send(json.dumps({"type": "watch", "table": resumed.table_id(1)}))
            async with asyncio.timeout(20):
                while True:
                    frame = json.loads(await ws.recv())
                    if frame.get("type") == "tournament" and frame["kind"] == "deal":
                        break
        assert frame["code"] == "tournament.deal_restarted" and frame["tournament"] == runner.id
        async with asyncio.timeout(20):  # not held by the cancelled proposal: it deals on
            while resumed.t.tables[1].hand is None:
                await asyncio.sleep(0.02)
        await assert_books_balance(server)
    finally:
        await stop(again)
