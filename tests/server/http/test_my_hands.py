"""All my hands: any of a player's hands, from any table, download as one PokerStars-style
file and one .phhs, oldest first, each hand by its one number; a hand that is not theirs is
left out, and a list that is not hand numbers is refused."""

from __future__ import annotations

import asyncio
import tomllib

import httpx

from pokerroom.server.tables.room import TableConfig
from tests.helpers.audit import assert_books_balance
from tests.helpers.room_tables import play_at
from tests.server.conftest import Server, person


async def test_any_hands_download_as_one_pokerstars_file_and_one_phhs(server: Server) -> None:
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    cy = await person(server.base, "cyd")
    dan = await person(server.base, "dan")
    for table, seats, players in (("mine-6", 6, (ann, bob)), ("theirs-4", 4, (cy, dan))):
        await server.room.open_table(
            TableConfig(table, "Side Room", "titan", "holdem", "no_limit", 200, seats)
        )
        for someone, seat in zip(players, (1, 3), strict=True):
            await someone.send(type="watch", table=table)
            await someone.send(type="join", table=table, seat=seat, buy_in=10_000, request=table)
    await asyncio.gather(
        play_at(ann, "mine-6", 3),
        play_at(bob, "mine-6", 3),
        play_at(cy, "theirs-4", 2),
        play_at(dan, "theirs-4", 2),
    )
    headers = {"Authorization": f"Bearer {ann.token}"}
    async with httpx.AsyncClient(base_url=server.base, headers=headers, timeout=60) as http:
        mine = sorted(h["id"] for h in (await http.get("/api/hands")).json())
        cys = (await http.get("/api/hands", headers={"Authorization": f"Bearer {cy.token}"})).json()
        stranger = next(h["id"] for h in cys if h["id"] not in mine)
        ids = ",".join(str(i) for i in [*reversed(mine), stranger])
        text = await http.get("/api/my-hands.txt", params={"ids": ids})
        phhs = await http.get("/api/my-hands.phhs", params={"ids": ids})
        bad = await http.get("/api/my-hands.txt", params={"ids": "1,x"})
        one = (await http.get(f"/api/hands/{mine[0]}.txt")).text
    assert len(mine) >= 2
    assert text.status_code == 200 and phhs.status_code == 200
    headers_in_file = [line for line in text.text.splitlines() if line.startswith("PokerStars")]
    assert [int(h.split("#")[1].split(":")[0]) for h in headers_in_file] == mine  # oldest first
    assert text.text.startswith(one)  # each hand as its own download writes it
    stored = tomllib.loads(phhs.text)
    assert [stored[str(k)]["hand"] for k in range(1, len(mine) + 1)] == mine
    assert str(len(mine) + 1) not in stored  # cy's hand is not ann's to download
    assert all(stored[str(k)]["seat_count"] == 6 for k in range(1, len(mine) + 1))
    assert bad.status_code == 422 and bad.json()["code"] == "hands.bad_ids"
    await assert_books_balance(server)
