"""The buy-in dialog when the table has not loaded yet (its first frame is late): one submit,
a visible waiting state, the join sent once when the table comes, an error if it never does;
no resubmitting in a loop. The table's frames are held back by routing the page's WebSocket
through the test (the real room behind it)."""

from __future__ import annotations

import json
from typing import Any

from playwright.async_api import Browser, Page, WebSocketRoute, expect

from tests.browser.conftest import HEADS_UP, Room

COUNT_SUBMITS = """() => {
  window.buyInSubmits = 0;
  document.querySelector('#buyin-form')
    .addEventListener('submit', () => { window.buyInSubmits += 1; }, true);
}"""


class HeldTable:
    """Routes the page's socket to the room, holding the table's frames until ``release``
    (or for good); records what the page sends."""

    def __init__(self) -> None:
        self.held: list[str | bytes] = []
        self.released = False
        self.sent: list[dict[str, Any]] = []
        self.page_side: WebSocketRoute | None = None

    async def route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        self.page_side = ws

        def to_server(message: str | bytes) -> None:
            self.sent.append(json.loads(message))
            server.send(message)

        def to_page(message: str | bytes) -> None:
            frame = json.loads(message)
            if not self.released and frame.get("table") == HEADS_UP:
                self.held.append(message)
                return
            ws.send(message)

        ws.on_message(to_server)
        server.on_message(to_page)

    def release(self) -> None:
        self.released = True
        assert self.page_side is not None
        for message in self.held:
            self.page_side.send(message)
        self.held.clear()

    def joins(self) -> list[dict[str, Any]]:
        return [m for m in self.sent if m.get("type") == "join"]


async def held_player(browser: Browser, room: Room, name: str, held: HeldTable) -> Page:
    context = await browser.new_context(viewport={"width": 1360, "height": 900})
    page = await context.new_page()
    await page.route_web_socket("**/ws", held.route)
    page.set_default_timeout(15_000)
    await page.goto(room.base + "/")
    await page.fill("#username", name)
    await page.fill("#password", "correct horse battery")
    await page.click("#signup")
    await page.wait_for_selector(f"tr[data-table='{HEADS_UP}'] .join")
    await page.evaluate(COUNT_SUBMITS)
    return page


async def test_a_buy_in_before_the_table_loaded_waits_visibly_and_joins_once(
    browser: Browser, quiet_room: Room
) -> None:
    held = HeldTable()
    page = await held_player(browser, quiet_room, "patient", held)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.click(f"tr[data-table='{HEADS_UP}'] .join")
    await expect(page.locator("#buyin")).to_be_visible()
    await page.click("#buyin-ok")
    # Waiting, and saying so; the button cannot send it twice.
    await expect(page.locator("#buyin-status")).to_have_text("Waiting for the table to load…")
    await expect(page.locator("#buyin-ok")).to_be_disabled()
    await page.wait_for_timeout(1000)  # long enough for a resubmitting loop to show itself
    assert await page.evaluate("window.buyInSubmits") == 1
    assert held.joins() == [] and held.held  # the table's frames are held back meanwhile
    held.release()
    await expect(page.locator("#buyin")).to_be_hidden()
    await expect(page.locator(f".table-view[data-table='{HEADS_UP}'] .seat.you")).to_have_count(1)
    assert await page.evaluate("window.buyInSubmits") == 2  # once by the player, once on load
    assert len(held.joins()) == 1
    assert not errors, errors


async def test_a_table_that_never_loads_ends_the_wait_with_an_error(
    browser: Browser, quiet_room: Room
) -> None:
    held = HeldTable()
    page = await held_player(browser, quiet_room, "stranded", held)
    await page.click(f"tr[data-table='{HEADS_UP}'] .join")
    await page.click("#buyin-ok")
    await expect(page.locator("#buyin-ok")).to_be_disabled()
    error = page.locator("#buyin-error")
    await expect(error).to_have_text(
        "The table did not load. Check your connection and try again.", timeout=20_000
    )
    await expect(page.locator("#buyin-status")).to_have_text("")
    await expect(page.locator("#buyin-ok")).to_be_enabled()  # the player may try again
    assert await page.evaluate("window.buyInSubmits") == 1
    assert held.joins() == []
    await page.click("#buyin-cancel")
    await expect(page.locator("#buyin")).to_be_hidden()
