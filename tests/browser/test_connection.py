"""A lost connection shows at once: the room's server is stopped mid-turn (a real process,
a real socket closing), and the page says so, disables acting and stops the clock; a click
or a key made while it is down is answered ("not sent"), never silently dropped. The server
started again on the same database, the page says it is connected again."""

from __future__ import annotations

import subprocess
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest_asyncio
from playwright.async_api import Browser

from pokerroom.server.ops.process import free_port, spawn_room
from pokerroom.store.db import sqlite_url
from tests.browser.conftest import HEADS_UP, Room, new_player, screenshot, stop
from tests.helpers.browser import join, whose_turn

ROOT = f".table-view[data-table='{HEADS_UP}']"


@dataclass
class Restartable:
    room: Room
    port: int
    process: subprocess.Popen[bytes]


@pytest_asyncio.fixture(loop_scope="session")
async def own_room(tmp_path: Path) -> AsyncIterator[Restartable]:
    """A room without bots whose process the test stops and starts again."""
    database = sqlite_url(tmp_path / "room.db")
    port = free_port()
    process = await spawn_room(database, port, pause=0.4)
    found = Restartable(Room(base=f"http://127.0.0.1:{port}", database=database), port, process)
    try:
        yield found
    finally:
        stop(found.process)


async def test_a_lost_connection_shows_at_once_disables_acting_and_answers_a_click(
    browser: Browser, own_room: Restartable
) -> None:
    room = own_room.room
    ann = await new_player(browser, room, "ann")
    bob = await new_player(browser, room, "bob")
    await join(ann, HEADS_UP, 10_000)
    await join(bob, HEADS_UP, 10_000)
    me = await whose_turn([ann, bob])
    page = me.page
    await page.wait_for_selector(f"{ROOT} .actions .fold")
    assert await page.is_hidden("#connection")

    stop(own_room.process)
    await page.wait_for_selector("#connection[data-state='lost']", timeout=30_000)
    assert "Connection lost" in await page.inner_text("#connection")
    for button in (".fold", ".call", ".raise"):
        assert await page.get_attribute(f"{ROOT} .actions {button}", "aria-disabled") == "true"
    assert await page.is_disabled(f"{ROOT} .actions .raise-amount")
    assert await page.inner_text(f"{ROOT} .actions .clock") == "Offline"
    await screenshot(page, "connection-lost")

    # A click made while it is down is answered: nothing was sent, nothing was done.
    # (aria-disabled, which Playwright's click waits out: a mouse clicks it all the same)
    await page.click(f"{ROOT} .actions .fold", force=True)
    error = page.locator(f"{ROOT} .table-error")
    await error.filter(has_text="Not sent").wait_for()
    assert await page.is_visible(f"{ROOT} .actions")  # still the player's decision
    await page.evaluate(f"document.querySelector(\"{ROOT} .table-error\").textContent = ''")
    await page.click(f"{ROOT} .table-head")
    await page.keyboard.press("c")
    await error.filter(has_text="Not sent").wait_for()

    # The room back on the same database: the page says so and acting works again.
    own_room.process = await spawn_room(room.database, own_room.port, pause=0.4)
    await page.wait_for_selector("#connection[data-state='back']", timeout=60_000)
    await page.wait_for_function("() => !document.body.classList.contains('offline')")
    assert await page.evaluate("() => window.pokerroom.socketReady")
