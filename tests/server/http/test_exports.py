"""The PokerStars text download names the table as the lobby does (its own name, not its
id) and its seat count ("4-max"), not the house's largest table."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from pokerroom.server.http import hands as hands_routes
from pokerroom.server.tables.room import TableConfig
from tests.helpers.audit import assert_books_balance
from tests.helpers.room_tables import ann_and_bob_seated, play_along
from tests.server.conftest import Server, person


async def test_pokerstars_text_names_the_table_and_its_seat_count(server: Server) -> None:
    await server.room.open_table(
        TableConfig("side-4", "Side Room", "titan", "holdem", "no_limit", 200, 4)
    )
    assert server.room.actors["side-4"].table.house.max_seats != 4  # the table's own count
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    for someone, seat in ((ann, 1), (bob, 3)):
        await someone.send(type="watch", table="side-4")
        await someone.send(type="join", table="side-4", seat=seat, buy_in=10_000, request="r1")
    await asyncio.gather(play_along(ann, "side-4", 2), play_along(bob, "side-4", 2))
    headers = {"Authorization": f"Bearer {ann.token}"}
    async with httpx.AsyncClient(base_url=server.base, headers=headers) as http:
        hands = (await http.get("/api/hands", params={"table": "side-4"})).json()
        text = (await http.get(f"/api/hands/{hands[-1]['id']}.txt")).text
    assert text.splitlines()[1].startswith("Table 'Side Room' 4-max Seat #")
    await assert_books_balance(server)


async def test_exports_replay_hands_off_the_event_loop(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session export replays up to 1,000 hands, each hand export one: that CPU work runs
    on a worker thread, never on the loop that runs every table."""
    on_loop: list[bool] = []
    real = hands_routes.read_record

    def watched(hand: Any) -> Any:
        try:
            asyncio.get_running_loop()
            on_loop.append(True)
        except RuntimeError:  # no loop in this thread: a worker
            on_loop.append(False)
        return real(hand)

    monkeypatch.setattr(hands_routes, "read_record", watched)
    ann, bob = await ann_and_bob_seated(server, "x-loop", (1, 2))
    await asyncio.gather(play_along(ann, "x-loop", 2), play_along(bob, "x-loop", 2))
    headers = {"Authorization": f"Bearer {ann.token}"}
    async with httpx.AsyncClient(base_url=server.base, headers=headers) as http:
        hands = (await http.get("/api/hands", params={"table": "x-loop"})).json()
        first = hands[-1]["id"]
        for path in (
            "/api/sessions/x-loop.phhs",
            f"/api/hands/{first}.phh",
            f"/api/hands/{first}.txt",
            f"/api/hands/{first}/replay",
        ):
            (await http.get(path)).raise_for_status()
    # the hand list (each hand's own cards), every hand of the session, then one per export
    assert len(on_loop) == 2 * len(hands) + 3
    assert not any(on_loop)
    await assert_books_balance(server)
