"""The lobby's figures: hands per hour, average pot and players per flop over the
last 15 minutes (a sliding window, never a lifetime average: a table dead for 15 minutes shows
0), and "Waiting for players (N of M)" from the table's ``ready`` and ``needed``."""

from __future__ import annotations

import asyncio

import httpx

from pokerroom.cards import parse_cards
from pokerroom.engine.events import ActionTaken, BoardDealt, Move
from pokerroom.server.tables.stats import WINDOW_SECONDS, HandEnd, TableStats, saw_flop
from tests.helpers.audit import assert_books_balance
from tests.helpers.room_tables import ann_and_bob_seated, play_along, table_config
from tests.server.conftest import Server, person


def fold(seat: int) -> ActionTaken:
    return ActionTaken(position=seat - 1, seat=seat, action=Move.FOLD, added=0, to=0, all_in=False)


def test_players_per_flop_counts_who_was_left_when_the_flop_came() -> None:
    flop = BoardDealt("flop", tuple(parse_cards("Ks7d2c")))
    assert saw_flop([fold(1), fold(2), flop, fold(3)], 6) == 4
    assert saw_flop([fold(1), fold(2)], 3) == 0  # over before the flop


def test_hands_per_hour_is_over_the_last_15_minutes_and_a_dead_table_shows_0() -> None:
    stats = TableStats(opened=0.0)
    for k in range(30):  # 30 hands in the first 15 minutes, 3 of 6 players see each flop
        stats.hand_ended(HandEnd(at=30.0 * k, dealt=6, saw_flop=3, pot=1000 + k))
    figures = stats.figures(WINDOW_SECONDS)
    assert figures == {"hands_per_hour": 120, "average_pot": 1014, "players_per_flop": 50}
    later = 30.0 * 29 + WINDOW_SECONDS  # 15 minutes after the last hand: only it is left
    assert stats.figures(later)["hands_per_hour"] == 4
    assert stats.figures(later + 1) == {
        "hands_per_hour": 0,
        "average_pot": 0,
        "players_per_flop": 0,
    }


def test_a_table_open_for_two_minutes_is_rated_over_those_two_minutes() -> None:
    stats = TableStats(opened=1000.0)
    for k in range(10):
        stats.hand_ended(HandEnd(at=1000.0 + 12 * k, dealt=2, saw_flop=2, pot=400))
    assert stats.figures(1120.0)["hands_per_hour"] == 300  # 10 hands in 120 s
    assert stats.figures(1120.0)["players_per_flop"] == 100


async def test_the_lobby_shows_the_figures_and_whether_a_table_can_deal(server: Server) -> None:
    ann, bob = await ann_and_bob_seated(server, "l1", (1, 2))
    await asyncio.gather(play_along(ann, "l1", 3), play_along(bob, "l1", 3))
    async with httpx.AsyncClient(base_url=server.base) as http:
        entry = next(e for e in (await http.get("/api/lobby")).json() if e["id"] == "l1")
    assert entry["hands_per_hour"] > 0 and 0 <= entry["players_per_flop"] <= 100
    assert entry["ready"] == 2 and entry["needed"] == 2
    await server.room.open_table(table_config("l2"))
    carl = await person(server.base, "carl")
    await carl.send(type="watch", table="l2")
    await carl.send(type="join", table="l2", seat=1, buy_in=10_000, request="c1")
    frame = await carl.until(lambda f: f.get("you") == 1)
    assert (frame["ready"], frame["needed"], frame["hand"]) == (1, 2, None)
    async with httpx.AsyncClient(base_url=server.base) as http:
        idle = next(e for e in (await http.get("/api/lobby")).json() if e["id"] == "l2")
    assert (idle["hands_per_hour"], idle["ready"], idle["needed"]) == (0, 1, 2)
    await assert_books_balance(server)
