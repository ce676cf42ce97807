"""S-VIEW-1 on the wire: every frame sent to every client over more than 1,000 bot hands,
and no hole card of another player in any of them before it was shown."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from pokerroom.bots.client import run_bot
from pokerroom.bots.strategy import RuleBot
from pokerroom.server.room import TableConfig
from tests.security.audit import assert_books_balance
from tests.server.conftest import Server

TABLES = 3
HANDS_PER_TABLE = 340  # 1,020 hands in all
BOTS_PER_TABLE = 4


async def test_S_VIEW_1_no_hole_card_of_another_player_before_showdown(server: Server) -> None:
    frames: dict[str, list[dict[str, Any]]] = {}
    tasks = []
    for t in range(TABLES):
        table = f"v{t}"
        await server.room.open_table(
            TableConfig(
                table, table, "titan", ["holdem", "omaha", "omaha_hilo"][t], "no_limit", 200, 6
            )
        )
        for k in range(BOTS_PER_TABLE):
            name = f"viewer{t}_{k}"
            frames[name] = []
            tasks.append(
                run_bot(
                    server.base,
                    name,
                    RuleBot(random.Random(k)),
                    table=table,
                    hands=HANDS_PER_TABLE,
                    rng=random.Random(t * 10 + k),
                    on_frame=frames[name].append,
                )
            )
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=600)
    dealt = dict.fromkeys(range(TABLES), 0)
    for name, received in frames.items():
        table = int(name[len("viewer")])
        for frame in received:
            if frame.get("type") == "hand_result":
                dealt[table] = max(dealt[table], frame["hand"])
            if frame.get("type") != "table":
                continue
            you = frame.get("you")
            for seat in frame["seats"]:
                if seat["seat"] != you and seat.get("cards") is not None:
                    assert seat.get("shown"), f"{name} saw seat {seat['seat']}'s {seat['cards']}"
            mine = next((s for s in frame["seats"] if s["seat"] == you), None)
            if mine is not None and mine.get("in_hand"):
                assert mine["cards"], f"{name} was not shown its own cards"
    assert sum(dealt.values()) >= 1_000, dealt
    assert sum(len(r) for r in frames.values()) > 10_000
    await assert_books_balance(server)  # S-AUDIT-2
