"""A tournament room of its own process with bots, for tests in Chromium: starting and shutting
it, the event's panel, the notices and a person's turns."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import WebSocketRoute
from sqlalchemy import select

from pokerroom.bots.strategy import RuleBot
from pokerroom.bots.tournament import run_tournament_bot
from pokerroom.server.ops.process import free_port, spawn_room
from pokerroom.store.db import Database, sqlite_url
from pokerroom.store.models import TournamentRecord
from tests.browser.conftest import Player, Room, stop

VISIBLE = ".table-view:not([hidden])"
SPEED = 10


def room_script(*, start_at: int, deal_after: int, late_levels: int, payouts: str) -> str:
    """``pokerroom serve`` with its clock ``SPEED`` times faster and one multi-table event of
    3-handed tables and one-minute levels ("Browser Cup"), started by the director once
    ``start_at`` have registered; its tables deal once more than ``deal_after`` have."""
    return f"""
import os, time
import pokerroom.server.tournaments.hall as tours
import pokerroom.server.tournaments.runner as runners
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


async def bots_registered(room: Room, count: int) -> None:
    """Until the open sit & go has ``count`` bots in it (bounded)."""
    async with httpx.AsyncClient(base_url=room.base, timeout=10) as http:
        deadline, events = time.monotonic() + 120, []
        while time.monotonic() < deadline:
            events = (await http.get("/api/tournaments")).json()
            if any(e["status"] == "registering" and e["entrants"] == count for e in events):
                return
            await asyncio.sleep(0.5)
    raise AssertionError(f"the sit & go never had {count} bots: {events}")


class MoveNoticeLate:
    """Routes a player's page socket to the room and holds back the first "moved" notice until
    a frame of the table it names has reached the page: the new table's frames come first (the
    room has the socket watch it as it tells the player). ``Player.watch_frames`` records what
    the page gets, routed or not."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.held: str | bytes | None = None
        self.table: str | None = None
        self.done = False  # the notice was held and has been let through

    async def attach(self) -> None:
        """From the next page load on (the page is loaded again: the session stays)."""
        await self.player.page.route_web_socket("**/ws", self.route)
        await self.player.page.reload()

    async def route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        ws.on_message(server.send)

        def to_page(message: str | bytes) -> None:
            frame = json.loads(message)
            first_move = frame.get("type") == "tournament" and frame.get("kind") == "moved"
            if first_move and not self.done and self.held is None:
                self.held, self.table = message, frame.get("table")
                return
            ws.send(message)
            new_table = frame.get("type") == "table" and frame.get("table") == self.table
            if self.held is not None and new_table:  # it reached the page: now the notice
                ws.send(self.held)
                self.held, self.done = None, True

        server.on_message(to_page)


async def prizes_stored(database: str, tournament: str, paid: int) -> bool:
    """Whether the room has stored the event finished with ``paid`` entries' prizes paid (the
    status the lobby shows is the coordinator's, set before the last hand's write)."""
    db = Database(database)
    try:
        async with db.transaction() as session:
            row = (
                await session.execute(
                    select(TournamentRecord.status, TournamentRecord.paid).where(
                        TournamentRecord.id == tournament
                    )
                )
            ).one()
    finally:
        await db.close()
    return bool(row.status == "finished" and len(json.loads(row.paid)) == paid)
