"""A real room (``pokerroom serve`` with bots, in its own process) and Debian's Chromium
driven by Playwright. Screenshots go to ``artifacts/browser/`` as test artifacts."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio

from pokerroom.cli.serve import BOTS_PER_TABLE
from pokerroom.server.ops.process import free_port, spawn_room
from pokerroom.store.db import sqlite_url

CHROMIUM = Path("/usr/bin/chromium")
BOT_TABLES = ("nlhe-1-2", "plo-1-2")  # the tests play at these, with the demo bots
EVERY_TABLE = tuple(BOTS_PER_TABLE)  # every demo table with its house bots, as serve keeps them
HERE = Path(__file__).parent
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "browser"

if not CHROMIUM.exists():
    if os.environ.get("CI") == "true":
        raise RuntimeError(
            "CI=true but /usr/bin/chromium is missing: `make test` installs Debian's chromium"
        )
    pytest.skip(
        "Debian's chromium is not installed (make test installs it)", allow_module_level=True
    )

from playwright.async_api import Browser, Page, WebSocket, async_playwright  # noqa: E402


@dataclass
class Room:
    base: str
    database: str

    async def lobby(self) -> list[dict[str, Any]]:
        async with httpx.AsyncClient(base_url=self.base, timeout=10) as http:
            return list((await http.get("/api/lobby")).json())

    async def me(self, token: str) -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=self.base, timeout=10) as http:
            response = await http.get("/api/me", headers={"Authorization": f"Bearer {token}"})
        response.raise_for_status()
        return dict(response.json())


def bots_at(tables: tuple[str, ...]) -> str:
    """Code for ``python -c`` that runs ``pokerroom`` with the house's bots at ``tables`` only."""
    return (
        "import pokerroom.cli.serve as serve\n"
        f"keep = {tables!r}\n"
        "serve.BOTS_PER_TABLE = {t: n for t, n in serve.BOTS_PER_TABLE.items() if t in keep}\n"
        "from pokerroom.cli.app import main\n"
        "main()\n"
    )


@pytest_asyncio.fixture(loop_scope="session")
async def room(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Room]:
    """The room with house bots at BOT_TABLES and no sit & go: every table's bots and the sit
    & go's keep a room's process busy for the whole test. A test that needs more asks with
    ``@pytest.mark.room(bot_tables=(...), sit_and_go=True)``."""
    asked = request.node.get_closest_marker("room")
    wanted = asked.kwargs if asked else {}
    bot_tables: tuple[str, ...] = wanted.get("bot_tables", BOT_TABLES)
    sit_and_go: bool = wanted.get("sit_and_go", False)
    assert set(BOT_TABLES) <= set(bot_tables), "the room waits for BOT_TABLES' bots"
    database = sqlite_url(tmp_path / "room.db")
    port = free_port()
    process = await spawn_room(
        database,
        port,
        pause=0.4,
        bots=True,
        python=("-c", bots_at(bot_tables)),
        env=None if sit_and_go else {"POKERROOM_SIT_AND_GO": "none"},
        options=("--bot-think", "0"),  # the tests wait for the bots' hands: no time to follow
    )
    try:
        found = Room(base=f"http://127.0.0.1:{port}", database=database)
        deadline = time.monotonic() + 60  # bounded: the bots sit down within seconds
        while time.monotonic() < deadline:
            seated = {t["id"]: t["seated"] for t in await found.lobby()}
            if all(seated[t] >= 2 for t in BOT_TABLES):
                break
            await asyncio.sleep(0.2)
        else:
            raise AssertionError("the demo tables' bots did not sit down")
        yield found
    finally:
        stop(process)


# The room without bots, its heads-up table on short clocks (a warning after 2 s, the time
# bank after 6 s): two people in two browsers play there, and the clock is seen in seconds.
HEADS_UP = "hu-nlhe"
QUIET_ROOM = (
    "import dataclasses\n"
    "import pokerroom.server.tables.room as room\n"
    "clocks = (('decision_seconds', 6), ('warning_after_seconds', 2), ('time_bank_seconds', 20))\n"
    "room.DEMO_TABLES = tuple(\n"
    "    dataclasses.replace(t, overrides=clocks) if t.id == 'hu-nlhe' else t\n"
    "    for t in room.DEMO_TABLES\n"
    ")\n"
    "from pokerroom.cli.app import main\n"
    "main()\n"
)


@pytest_asyncio.fixture(loop_scope="session")
async def quiet_room(tmp_path: Path) -> AsyncIterator[Room]:
    database = sqlite_url(tmp_path / "quiet.db")
    port = free_port()
    process = await spawn_room(database, port, pause=0.4, python=("-c", QUIET_ROOM))
    try:
        yield Room(base=f"http://127.0.0.1:{port}", database=database)
    finally:
        stop(process)


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def chromium() -> AsyncIterator[Browser]:
    """One Chromium for all of a worker's browser tests: starting Playwright's driver and a
    browser costs a second of CPU and two of waiting, more than many a test's own clicks."""
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        try:
            yield launched
        finally:
            await launched.close()


@pytest_asyncio.fixture(loop_scope="session")
async def browser(chromium: Browser) -> AsyncIterator[Browser]:
    """The worker's Chromium; every context a test opens in it (each a person's cookies,
    storage and pages) is closed when the test ends, so the next test starts with none."""
    yield chromium
    for context in chromium.contexts:
        await context.close()


def pytest_collectstart(collector: pytest.Collector) -> None:
    """The browser tests run on the worker's one event loop, the loop Chromium's driver
    talks on (``chromium``)."""
    if isinstance(collector, pytest.Module) and collector.path.is_relative_to(HERE):
        collector.add_marker(pytest.mark.asyncio(loop_scope="session"))


@dataclass
class Player:
    """One person in one browser context, with every WebSocket frame the page received."""

    page: Page
    name: str
    frames: list[dict[str, Any]] = field(default_factory=list)

    sockets: int = 0
    presets_checked: int = 0  # turns where ½ Pot and Pot were clicked and compared

    def watch_frames(self) -> None:
        def on_socket(socket: WebSocket) -> None:
            self.sockets += 1
            socket.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))

        self.page.on("websocket", on_socket)

    async def token(self) -> str:
        return str(await self.page.evaluate("localStorage.getItem('pokerroom.token')"))

    def tables(self, table: str) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == "table" and f.get("table") == table]

    def results(self, table: str) -> list[dict[str, Any]]:
        return [
            f for f in self.frames if f.get("type") == "hand_result" and f.get("table") == table
        ]

    async def frame(self, table: str, version: int) -> dict[str, Any]:
        """The table frame of ``version`` (the page has rendered it, so it has arrived)."""
        for _ in range(50):  # bounded: frame events reach Python within a few round trips
            for f in reversed(self.tables(table)):
                if f["version"] == version:
                    return f
            await asyncio.sleep(0.05)
        raise AssertionError(f"no frame of version {version} was received")


async def new_player(browser: Browser, room: Room, name: str, *, width: int = 1360) -> Player:
    context = await browser.new_context(viewport={"width": width, "height": 900})
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    player = Player(page=page, name=name)
    player.watch_frames()
    page.set_default_timeout(15_000)
    await page.goto(room.base + "/")
    await page.fill("#username", name)
    await page.fill("#password", "correct horse battery")
    await page.click("#signup")
    # The sign-up hashes the password (argon2), slow on a busy machine: a bounded wait.
    await page.wait_for_selector("#lobby-rows tr", timeout=60_000)
    assert not errors, errors
    return player


async def screenshot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    return path
