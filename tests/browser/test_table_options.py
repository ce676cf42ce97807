"""The table options in the browser, at the demo table that offers a straddle and running it
twice: a person switches the straddle on and sees it marked at their seat once posted
(R-STRADDLE-1); with "run it twice" agreed, their all-in called by three players who agree
when prompted is run twice, and the felt shows both boards and each run's awards (R-RIT-1),
readable at a phone's width."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest_asyncio
from playwright.async_api import Browser

from pokerroom.bots.client import run_bot
from pokerroom.server.ops.process import free_port, spawn_room
from pokerroom.store.db import sqlite_url
from tests.browser.conftest import Player, Room, new_player, screenshot, stop
from tests.helpers.audit import audit_database
from tests.helpers.browser import join
from tests.helpers.strategies import CallingStation

TABLE = "nlhe-options"
ROOT = f".table-view[data-table='{TABLE}']"
# The room with its options table alone (no house bots: the test seats its own).
OPTIONS_ROOM = (
    "import pokerroom.server.tables.room as room\n"
    f"room.DEMO_TABLES = tuple(t for t in room.DEMO_TABLES if t.id == '{TABLE}')\n"
    "from pokerroom.cli.app import main\n"
    "main()\n"
)


# The felt's two boards, their run labels, each award row's run and the cards' edges.
SHOWN = """(root) => {
  const center = document.querySelector(`${root} .center`);
  const cards = (b) => [...center.querySelectorAll(`${b} .card`)];
  return {
    boards: ['.board', '.second-board'].map((b) => cards(b).map((c) => c.dataset.card)),
    labels: ['.board', '.second-board'].map((b) =>
      getComputedStyle(center.querySelector(b), '::before').content.replaceAll('"', '')),
    runs: [...center.querySelectorAll('.award .tag.run')].map((t) => t.textContent),
    edges: [...cards('.board'), ...cards('.second-board')]
      .flatMap((c) => [c.getBoundingClientRect().left, c.getBoundingClientRect().right]),
  };
}"""


# Keeps (in ``window.keptTwoBoards``) what the felt last showed with both boards dealt, each
# time the page changes, so the test reads it even after the next hand has replaced it.
KEEP_TWO_BOARDS = (
    """(root) => {
  const read = """
    + SHOWN
    + """;
  window.keptTwoBoards = null;
  new MutationObserver(() => {
    if (!document.querySelector(`${root} .center.two-boards`)) return;
    const now = read(root);
    if (now.boards.every((b) => b.length === 5) && now.runs.length) window.keptTwoBoards = now;
  }).observe(document.body, { subtree: true, childList: true, attributes: true });
}"""
)


def sorted_awards(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The awards in the order the felt lists them (showdown.js): side pots first, each
    pot's first run before its second."""
    share = {"whole": 0, "high": 0, "low": 1}
    return sorted(result["pots"], key=lambda p: (-p["pot"], p["run"], share[p["share"]]))


@pytest_asyncio.fixture(loop_scope="session")
async def options_room(tmp_path: Path) -> AsyncIterator[Room]:
    database = sqlite_url(tmp_path / "options.db")
    port = free_port()
    process = await spawn_room(database, port, pause=0.4, python=("-c", OPTIONS_ROOM))
    try:
        yield Room(base=f"http://127.0.0.1:{port}", database=database)
    finally:
        stop(process)


async def play_until(
    player: Player, done: str, seconds: float, *, all_in: bool = False, kept: bool = False
) -> None:
    """Check or call at each turn (all-in pre-flop when ``all_in``) until ``done`` (a
    selector) is on the page, or with ``kept`` until the page has kept two boards shown
    (``KEEP_TWO_BOARDS``); bounded by ``seconds``."""
    page = player.page
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if kept and await page.evaluate("() => window.keptTwoBoards !== null"):
            return
        if not kept and await page.is_visible(done):
            return
        if await page.is_visible(f"{ROOT} .actions"):
            frames = player.tables(TABLE)
            hand = frames[-1].get("hand") if frames else None
            legal = hand and hand.get("legal")
            if all_in and legal and hand["street"] == "preflop" and legal["min_raise_to"]:
                await page.click(f"{ROOT} [data-preset='max']")
                await page.click(f"{ROOT} .raise")
            else:
                await page.click(f"{ROOT} .call")
        await asyncio.sleep(0.2)
    raise AssertionError(f"{done} was not shown within {seconds} s")


async def test_R_STRADDLE_1_R_RIT_1_straddle_marked_and_an_all_in_run_twice_shows_two_boards(
    options_room: Room, browser: Browser
) -> None:
    room = options_room
    ann = await new_player(browser, room, "ann_options")
    page = ann.page
    await join(ann, TABLE, buy_in=20_000)  # the table's most: every bot is all-in calling her
    bots = [
        asyncio.create_task(
            run_bot(room.base, f"caller{k}", CallingStation(), table=TABLE, password="caller pw 1")
        )
        for k in range(3)
    ]
    try:
        toggle = f"{ROOT} .straddle-toggle"
        await page.wait_for_selector(toggle)  # the table offers a straddle
        assert await page.get_attribute(toggle, "aria-pressed") == "false"
        await page.click(toggle)
        await page.wait_for_selector(f"{toggle}[aria-pressed='true']")
        # Posted when she is directly left of the big blind with four dealt in.
        marked = f"{ROOT} .seat.you [data-marker='straddle']"
        await play_until(ann, marked, 240)
        straddled = [
            f["hand"]["straddle"]
            for f in ann.tables(TABLE)
            if f.get("hand") and f["hand"].get("straddle")
        ]
        you = ann.tables(TABLE)[-1]["you"]
        assert straddled and straddled[-1] == {"seat": you, "amount": 400}
        await screenshot(page, "options-straddle")
        await page.check(f"{ROOT} [data-option='run_it_twice']")
        await page.wait_for_function(
            '() => document.querySelector("' + ROOT + " [data-option='run_it_twice']\").checked"
        )
        await page.set_viewport_size({"width": 390, "height": 844})  # a phone's width
        # The felt shows both boards only until the next hand is dealt, which on a busy
        # machine can come before the test looks: the page keeps what it showed.
        await page.evaluate(KEEP_TWO_BOARDS, ROOT)
        await play_until(ann, f"{ROOT} .center.two-boards", 240, all_in=True, kept=True)
        shown = await page.evaluate("() => window.keptTwoBoards")
        await screenshot(page, "options-run-twice-phone")
        result = [r for r in ann.results(TABLE) if r["second_board"]][-1]
        assert shown["boards"] == [result["board"], result["second_board"]], shown
        assert len(result["second_board"]) == 5
        assert sorted({p["run"] for p in result["pots"]}) == [1, 2]
        assert shown["runs"] == [f"Run {p['run']}" for p in sorted_awards(result)], shown
        assert shown["labels"] == ["Run 1", "Run 2"], shown
        assert min(shown["edges"]) > 0 and max(shown["edges"]) <= 390, shown
    finally:
        for bot in bots:
            bot.cancel()
        await asyncio.gather(*bots, return_exceptions=True)
    report = await audit_database(room.database)
    assert report.ok, report.problems
