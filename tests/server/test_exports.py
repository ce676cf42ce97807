"""The PokerStars text download names the table as the lobby does (its own name, not its
id) and its seat count ("4-max"), not the house's largest table."""

from __future__ import annotations

import asyncio

import httpx

from pokerroom.server.room import TableConfig
from tests.server.conftest import Server, person
from tests.server.test_e2e import books_balance, play_along


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
    await books_balance(server)
