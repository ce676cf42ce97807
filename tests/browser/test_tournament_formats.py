"""Knockout events and the schedule in the browser: the lobby lists the schedule's next
runs with their guarantee and a countdown to the start; a newcomer registers for the PKO
sit & go (bots fill the rest), and its table shows the bounty on every head."""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest_asyncio
from playwright.async_api import Browser

from pokerroom.server.ops.process import free_port, spawn_room
from pokerroom.store.db import sqlite_url
from tests.browser.conftest import Room, bots_at, new_player, screenshot, stop
from tests.helpers.browser_tournaments import bots_registered


@pytest_asyncio.fixture(loop_scope="session")
async def pko_room(tmp_path: Path) -> AsyncIterator[Room]:
    env = {"POKERROOM_SIT_AND_GO": "sng6_pko", "POKERROOM_SCHEDULE": "demo"}
    port = free_port()
    database = sqlite_url(tmp_path / "room.db")
    # The sit & go's and the schedule's bots only: no house bots at the cash tables.
    process = await spawn_room(
        database, port, pause=0.4, bots=True, python=("-c", bots_at(())), env=env
    )
    try:
        yield Room(base=f"http://127.0.0.1:{port}", database=database)
    finally:
        stop(process)


async def test_the_schedule_counts_down_and_the_felt_shows_each_bounty(
    browser: Browser, pko_room: Room
) -> None:
    ann = await new_player(browser, pko_room, "ann_pko")
    page = ann.page
    await bots_registered(pko_room, 5)
    await page.click("#browse") if await page.is_visible("#browse") else None
    async with httpx.AsyncClient(base_url=pko_room.base) as http:
        events = (await http.get("/api/tournaments")).json()
    # A run that starts more than a minute from now (the lobby lists the next two: the one at
    # a quarter past and the satellite's target an hour later), so that its countdown ticks.
    scheduled = next(
        e
        for e in events
        if e["name"].startswith("Hourly PKO ")
        and not e["name"].startswith("Hourly PKO Satellite")
        and e["starts_at"] > time.time() + 60
    )
    row = page.locator(f"#tournament-rows tr[data-tournament='{scheduled['id']}']")
    await row.locator(".guarantee", has_text="$500 guaranteed").wait_for()
    first = await row.locator(".starts-in").inner_text()
    assert re.fullmatch(r"starts in (\d+:)?\d{1,2}:\d\d", first), first
    await row.locator(".starts-in").filter(has_not_text=first).wait_for()  # it ticks
    sng = next(e for e in events if e["structure"]["name"] == "sng6_pko")
    await screenshot(page, "tournament-schedule")
    await page.locator(
        f"#tournament-rows tr[data-tournament='{sng['id']}'] button.register"
    ).click()
    view = page.locator(".table-view:not([hidden])")
    await view.locator(".table-game", has_text="Level 1").wait_for(timeout=30_000)
    bounties = view.locator(".seat .plate .bounty")
    await bounties.first.wait_for()
    shown = await bounties.all_inner_texts()
    assert len(shown) == 6 and all(text == "bounty $5" for text in shown), shown
    await screenshot(page, "tournament-pko-table")
