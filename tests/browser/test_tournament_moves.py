"""A multi-table tournament in the browser, start to finish: six bots fill two
3-handed tables and the event starts; a person opens its detail panel in the lobby (levels,
payouts, tables, players) and registers late (TDA 8A), which opens a third table for them
(the director holds the bots' first deal until then, so that it is a new table whatever the
cards); the first bust anywhere breaks that table (TDA 10B), so they are moved, and their
screen follows them to the new table (the old one closes). They play by clicking until they
finish: the table says their place and prize, the lobby agrees, and the books balance.

Bounded: the room's clock runs ten times faster (a one-minute level in six seconds), the
structure is small (seven entrants on 3-handed tables, every place paid so the finish always
shows a prize), the bots play quickly. Screenshots: ``tournament-detail`` (the lobby's detail
panel) and ``tournament-moved`` (the table the person was moved to)."""

from __future__ import annotations

import asyncio
import random
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import Browser

from pokerroom.bots.strategy import RuleBot
from pokerroom.bots.tournament import run_tournament_bot
from pokerroom.server.process import free_port, spawn_room
from pokerroom.store.db import sqlite_url
from tests.browser.conftest import Player, Room, new_player, screenshot, stop
from tests.browser.test_accessibility import serious_violations
from tests.security.audit import audit_database

BOTS = 6
SPEED = 10
SEVEN_PAID = """[
    {"entrants": [2, 3], "places": [100]},
    {"entrants": [4, 6], "places": [50, 30, 20]},
    {"entrants": [7, 9], "places": [35, 22, 15, 11, 8, 5, 4]},
]"""


def room_script(*, start_at: int, deal_after: int, late_levels: int, payouts: str) -> str:
    """``pokerroom serve`` with its clock ``SPEED`` times faster and one multi-table event of
    3-handed tables and one-minute levels ("Browser Cup"), started by the director once
    ``start_at`` have registered; its tables deal once more than ``deal_after`` have."""
    return f"""
import os, time
import pokerroom.server.tournament_hall as tours
import pokerroom.server.tournaments as runners
import pokerroom.tournament.coordinator as coordinator
from pokerroom.rules.house import STANDARD
from pokerroom.rules.tournament import parse_tournament_structure
ORIGIN, SPEED = time.time(), {SPEED}
blinds = [10, 15, 25, 50, 75, 100, 150, 200, 300, 500, 800, 1200, 2000, 3000, 5000, 8000]
STRUCTURE = parse_tournament_structure({{
    "description": "browser test: 3-handed tables, one-minute levels",
    "kind": "mtt", "game": "holdem/no_limit", "table_size": 3, "entrants": [2, 9],
    "starting_stack": 1500, "buy_in": 1000, "fee": 100,
    "late_registration_levels": {late_levels}, "re_entries": 0,
    "levels": [{{"small_blind": b, "big_blind": 2 * b, "minutes": 1}} for b in blinds],
    "breaks": [{{"after_level": 4, "minutes": 1}}],
    "payouts": {payouts},
}}, "browser_mtt")
load = tours.load_tournament_structure
tours.load_tournament_structure = lambda name: STRUCTURE if name == "browser_mtt" else load(name)
init, start = tours.Tournaments.__init__, tours.Tournaments.start
maybe_start = runners.TournamentRunner.maybe_start
can_start = coordinator.Tournament.can_start
def fast_init(self, *args, **kwargs):
    init(self, *args, **kwargs)
    self.clock, self.speed = lambda: ORIGIN + (time.time() - ORIGIN) * SPEED, SPEED
async def start_with_event(self):
    await start(self)
    house = STANDARD.with_options(decision_seconds=8 * SPEED, warning_after_seconds=0,
                                  time_bank_seconds=0)
    await self.create("browser_mtt", house=house, name="Browser Cup")
async def start_when_in(self):  # the director starts it with the field
    if self.t.structure.kind == "mtt" and len(self.t.entries) >= {start_at}:
        self.starts_at = self.now()
    await maybe_start(self)
def deal_when_in(self, number, now):
    return len(self.entries) > {deal_after} and can_start(self, number, now)
coordinator.Tournament.can_start = deal_when_in
tours.Tournaments.__init__ = fast_init
tours.Tournaments.start = start_with_event
runners.TournamentRunner.maybe_start = start_when_in
from pokerroom.cli.app import main
main()
"""


# Six bots start it; their tables wait for the person, who registers late.
ROOM = room_script(start_at=BOTS, deal_after=BOTS, late_levels=3, payouts=SEVEN_PAID)

VISIBLE = ".table-view:not([hidden])"


async def event_of(http: httpx.AsyncClient) -> dict[str, Any]:
    events = (await http.get("/api/tournaments")).json()
    found: dict[str, Any] = next(e for e in events if e["structure"]["name"] == "browser_mtt")
    return found


def notices(player: Player, kind: str) -> list[dict[str, Any]]:
    return [f for f in player.frames if f.get("type") == "tournament" and f.get("kind") == kind]


async def act(player: Player, table: str, *, passive: bool) -> bool:
    """On the person's turn: check, or fold to a bet while ``passive`` (so they are still in
    when their table breaks), else call whatever it costs. True if a button was clicked."""
    frames = [f for f in player.tables(table) if f.get("you") and f.get("hand")]
    last = frames[-1] if frames else None
    if not last or last["hand"]["actor"] != last["you"] or not last["hand"]["legal"]:
        return False
    root = f".table-view[data-table='{table}']"
    if not await player.page.is_visible(f"{root} .actions"):
        return False
    button = "fold" if passive and last["hand"]["legal"]["call"] > 0 else "call"
    try:
        await player.page.click(f"{root} .actions .{button}", timeout=2_000)
    except Exception:  # the turn passed meanwhile (a frame on its way): look again
        return False
    return True


async def start_room(tmp_path: Path, script: str) -> tuple[subprocess.Popen[bytes], str, str]:
    """The room of ``script`` on a free port, with no repeating sit & go: its process, its
    address and its database."""
    database, port = sqlite_url(tmp_path / "room.db"), free_port()
    process = await spawn_room(
        database, port, pause=0.3, python=("-c", script), env={"POKERROOM_SIT_AND_GO": ""}
    )
    return process, f"http://127.0.0.1:{port}", database


async def add_bots(
    http: httpx.AsyncClient, tournament: str, prefix: str, count: int
) -> list[asyncio.Task[Any]]:
    """``count`` rule bots signed up and playing ``tournament`` to their end."""
    bots = []
    for k in range(count):
        name = f"{prefix}{k}"
        token = (
            await http.post("/api/signup", json={"username": name, "password": "pw" * 6})
        ).json()["token"]
        bot = run_tournament_bot(
            str(http.base_url).rstrip("/"),
            name,
            RuleBot(random.Random(k)),
            tournament=tournament,
            token=token,
        )
        bots.append(asyncio.create_task(bot))
    return bots


async def shut(process: subprocess.Popen[bytes], bots: list[asyncio.Task[Any]]) -> None:
    for bot in bots:
        bot.cancel()
    await asyncio.gather(*bots, return_exceptions=True)
    stop(process)


async def test_register_late_be_moved_and_finish_a_multi_table_event(
    browser: Browser, tmp_path: Path
) -> None:
    process, base, database = await start_room(tmp_path, ROOM)
    bots: list[asyncio.Task[Any]] = []
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            tid = (await event_of(http))["id"]
            bots = await add_bots(http, tid, "cup_bot", BOTS)
            ann = await new_player(browser, Room(base=base, database=database), "ann_cup")
            page = ann.page
            token = await ann.token()
            mine = {"Authorization": f"Bearer {token}"}
            deadline = time.monotonic() + 60
            while (await event_of(http))["status"] != "running":
                assert time.monotonic() < deadline, "the bots' event did not start"
                await asyncio.sleep(0.2)

            # The lobby's detail panel: structure, payouts, tables, players, the live level.
            row = f"#tournament-rows tr[data-tournament='{tid}']"
            await page.locator(f"{row} button.details").click()
            panel = page.locator("#tournament-detail")
            await panel.locator("#td-players tr").nth(BOTS - 1).wait_for()
            assert await page.get_attribute(f"{row} button.details", "aria-expanded") == "true"
            levels = await panel.locator("#td-levels tr:not(.break)").count()
            assert levels == 16 and await panel.locator("#td-levels tr.break").count() == 1
            assert await panel.locator("#td-levels tr[aria-current='true']").count() == 1
            assert await panel.locator("#td-tables tr").count() == 2  # two 3-handed tables
            assert await panel.locator("#td-payouts tr").count() == 3  # 6 entrants: 3 paid
            countdown = panel.locator(".td-countdown")
            assert ":" in await countdown.inner_text()
            await page.click("#td-players-table th[data-sort='stack'] button")
            sort = await page.get_attribute("#td-players-table th[data-sort='stack']", "aria-sort")
            assert sort == "descending"
            await screenshot(page, "tournament-detail")
            found = await serious_violations(page, base)
            assert found == [], found  # the panel: facts, levels, payouts, tables, players

            # Late registration: a full stack at a new table (both others are full).
            await panel.locator("button.register").click()
            late = await wait_for(lambda: notices(ann, "started"), "the late seat notice")
            first = late[0]["table"]
            assert (
                first
                == (await http.get(f"/api/tournaments/{tid}/table", headers=mine)).json()["table"]
            )
            await page.locator(f"{VISIBLE}[data-table='{first}']").wait_for()
            await panel_shows_seven_entrants(http)

            # Play on until moved: the screen follows to the new table, the old one closes.
            moved: list[dict[str, Any]] = []
            deadline = time.monotonic() + 180
            while not (moved := notices(ann, "moved")) and not notices(ann, "finished"):
                assert time.monotonic() < deadline, "the person was never moved"
                await act(ann, first, passive=True)
                await asyncio.sleep(0.2)
            assert moved, "the person finished before any move"
            to = moved[0]["table"]
            assert to != first
            await page.locator(f"{VISIBLE}[data-table='{to}']").wait_for()
            assert await page.locator(f".table-view[data-table='{first}']").count() == 0
            note = page.locator(f".table-view[data-table='{to}'] .t-notice")
            await note.filter(has_text="you were moved to table").wait_for()  # its 1st frame
            assert await note.get_attribute("aria-live") == "polite"  # said, not only shown
            game = page.locator(f".table-view[data-table='{to}'] .table-game")
            await game.filter(has_text="Level").wait_for()
            assert "left" in await game.inner_text()
            assert "Payouts: 1." in await page.inner_text(
                f".table-view[data-table='{to}'] .t-payouts"
            )
            await screenshot(page, "tournament-moved")
            # Open my table, from the lobby: the table the room seats them at now.
            await page.click("#tabs .tab >> nth=0")
            await panel.locator("button.open").click()
            now = (await http.get(f"/api/tournaments/{tid}/table", headers=mine)).json()["table"]
            await page.locator(f"{VISIBLE}[data-table='{now}']").wait_for()

            # Play to the finish, following every further move.
            deadline = time.monotonic() + 300
            while not notices(ann, "finished"):
                assert time.monotonic() < deadline, "the person never finished"
                now = (await http.get(f"/api/tournaments/{tid}/table", headers=mine)).json()
                if now["table"] is not None:
                    await act(ann, now["table"], passive=False)
                await asyncio.sleep(0.2)
            done = notices(ann, "finished")[-1]
            final = [m["table"] for m in notices(ann, "moved")][-1]
            assert await page.locator(f".table-view[data-table='{final}']").count() == 1
            event = await event_of(http)
            me = next(p for p in event["players"] if p["name"] == "ann_cup")
            assert me["place"] == done["place"] and me["prize"] == done["prize"] > 0
            shown = await page.locator(f"{VISIBLE} .t-notice").inner_text()
            assert f"you finished in place {me['place']} of 7" in shown, shown
            prize = me["prize"]
            dollars = f"${prize // 100:,}" if prize % 100 == 0 else f"${prize / 100:,.2f}"
            assert f"and won {dollars}" in shown, shown

            deadline = time.monotonic() + 240  # the bots play it out
            while (await event_of(http))["status"] != "finished":
                assert time.monotonic() < deadline, "the event did not finish"
                await asyncio.sleep(0.5)
            event = await event_of(http)
            places = sorted(p["place"] for p in event["players"])
            assert places == list(range(1, 8))
            assert sum(p["prize"] for p in event["players"]) == event["prize_pool"] == 7 * 1000
        report = await audit_database(database)  # S-AUDIT-2: the books balance
        assert report.ok and report.problems == [], report.problems
        assert report.totals["house"] == 7 * 100 and report.totals["tournament"] == 0
    finally:
        await shut(process, bots)


async def wait_for(found: Any, what: str, seconds: float = 30) -> Any:
    deadline = time.monotonic() + seconds
    while not (value := found()):
        assert time.monotonic() < deadline, f"no {what}"
        await asyncio.sleep(0.1)
    return value


async def panel_shows_seven_entrants(http: httpx.AsyncClient) -> None:
    event = await event_of(http)
    assert event["entrants"] == 7 and len(event["payouts"]) == 7  # the payouts grew
