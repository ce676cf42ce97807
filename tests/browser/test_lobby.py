"""The lobby in Chromium: sortable columns (aria-sort), the last 15 minutes' figures,
the waiting list seating a person at the full heads-up demo table (its two house bots; one
stands up for her), a watcher's tab named by the table, and "Waiting for players (N of M)" on
a table that cannot deal (in the lobby and on the felt). Screenshots in artifacts/browser/."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Browser, Page

from tests.browser.conftest import BOT_TABLES, HEADS_UP, Room, new_player, screenshot
from tests.helpers.audit import assert_books_balance

ROW = "#lobby-rows tr"


# True once the row's figures have changed since the first call (a hand was dealt there and
# the lobby refreshed): the row is not the one first seen, as its text says.
ROW_CHANGED = """(table) => {
  const text = document.querySelector(`tr[data-table="${table}"]`).textContent;
  window.firstRowText ??= text;
  return text !== window.firstRowText;
}"""


async def lobby_order(page: Page) -> list[str]:
    return [str(await r.get_attribute("data-table")) for r in await page.locator(ROW).all()]


async def lobby_data(page: Page) -> list[dict[str, Any]]:
    return list(await page.evaluate("window.pokerroom.lobby"))


@pytest.mark.room(bot_tables=(*BOT_TABLES, HEADS_UP))  # full with its two bots
async def test_lobby_sorts_and_the_waiting_list_seats_a_person(
    browser: Browser, room: Room
) -> None:
    ann = await new_player(browser, room, "ann")
    page = ann.page
    # The heads-up demo table deals with two house bots: full, so it has a waiting list.
    await page.wait_for_selector(f"tr[data-table='{HEADS_UP}'] .join-list", timeout=60_000)
    figures = await lobby_data(page)
    assert all(0 <= t["players_per_flop"] <= 100 and t["hands_per_hour"] >= 0 for t in figures)

    # Sorting: click a header, again to reverse; aria-sort says which and how.
    header = ".lobby-table th[data-sort='seated']"
    await page.click(f"{header} button")
    assert await page.get_attribute(header, "aria-sort") == "ascending"
    data = {t["id"]: t for t in await lobby_data(page)}
    seated = [data[t]["seated"] for t in await lobby_order(page)]
    assert seated == sorted(seated)
    await page.click(f"{header} button")
    assert await page.get_attribute(header, "aria-sort") == "descending"
    data = {t["id"]: t for t in await lobby_data(page)}
    seated = [data[t]["seated"] for t in await lobby_order(page)]
    assert seated == sorted(seated, reverse=True)
    names = ".lobby-table th[data-sort='name']"
    await page.click(f"{names} button")
    assert await page.get_attribute(names, "aria-sort") == "ascending"
    assert await page.get_attribute(header, "aria-sort") is None  # one sorted column
    data = {t["id"]: t for t in await lobby_data(page)}
    shown = [data[t]["name"].lower() for t in await lobby_order(page)]
    assert shown == sorted(shown)
    await screenshot(page, "lobby-sorted")

    # The lobby refreshes every few seconds: the keyboard's place survives it.
    await page.focus("tr[data-table='nlhe-1-2'] .watch")
    await page.evaluate("window.seenLobby = window.pokerroom.lobby")
    # (the rows are rebuilt in the same task as the new data arrives)
    await page.wait_for_function(
        "() => window.pokerroom.lobby !== window.seenLobby", timeout=15_000
    )
    focused = await page.evaluate(
        "() => [document.activeElement.closest('[data-table]')?.dataset.table,"
        " document.activeElement.className]"
    )
    assert focused == ["nlhe-1-2", "watch"]
    # ... and so does a click: a row whose figures change keeps its buttons, so Join pressed
    # before a refresh and released after it still opens the buy-in.
    join = "tr[data-table='nlhe-1-2'] .join"
    await page.evaluate(f'window.savedJoin = document.querySelector("{join}")')
    await page.hover(join)
    await page.mouse.down()
    await page.wait_for_function(ROW_CHANGED, arg="nlhe-1-2", timeout=60_000)
    assert await page.evaluate(f'document.querySelector("{join}") === window.savedJoin')
    await page.mouse.up()
    await page.wait_for_selector("#buyin[open]")
    await page.click("#buyin-cancel")
    await page.click("#tabs .tab >> text=Lobby")
    # A watcher's tab is named by the table.
    await page.click("tr[data-table='nlhe-1-2'] .watch")
    await page.wait_for_function("(name) => document.title.startsWith(name)", arg="Oslo")
    await page.click("#tabs .tab >> text=Lobby")
    await page.wait_for_function("(name) => document.title === name", arg="pokerroom")

    # The waiting list: join from the lobby, see the place, get the seat a bot gives up.
    await page.click(f"tr[data-table='{HEADS_UP}'] .join-list")
    await page.wait_for_selector(f"tr[data-table='{HEADS_UP}'] .in-line >> text=number 1")
    await screenshot(page, "lobby-waiting-list")
    prompt = f".seat-offer[data-table='{HEADS_UP}']"
    await page.wait_for_selector(prompt, timeout=60_000)  # a bot stands up after its hand
    assert "is held for you" in await page.inner_text(prompt)
    await screenshot(page, "seat-offer")
    await page.click(f"{prompt} .take-seat")
    await page.wait_for_selector("#buyin[open]")
    await page.click("#buyin-ok")
    root = f".table-view[data-table='{HEADS_UP}']"
    await page.wait_for_selector(f"{root} .seat.you")
    await page.wait_for_selector(prompt, state="detached")
    # One bot stays to play her: the table deals.
    await page.wait_for_function(
        "(table) => window.pokerroom.tables.get(table)?.state?.hand !== null",
        arg=HEADS_UP,
        timeout=60_000,
    )
    await screenshot(page, "waiting-list-seated")
    waiting = [f for f in ann.frames if f.get("type") == "waiting"]
    assert waiting[0]["position"] == 1 and any(f["offer"] for f in waiting)
    assert waiting[-1]["position"] is None
    await assert_books_balance(room)  # duck-typed: it reads .database


async def test_a_table_that_cannot_deal_says_waiting_for_players(
    browser: Browser, quiet_room: Room
) -> None:
    ann = await new_player(browser, quiet_room, "ann")
    page = ann.page
    row = f"tr[data-table='{HEADS_UP}']"
    await page.wait_for_selector(f"{row} .stalled >> text=Waiting for players (0 of 2)")
    casino = "tr[data-table='casino-nlhe'] .stalled"
    assert await page.inner_text(casino) == "Waiting for players (0 of 4)"
    await page.click(f"{row} .join")
    await page.wait_for_selector("#buyin[open]")
    await page.click("#buyin-ok")
    root = f".table-view[data-table='{HEADS_UP}']"
    await page.wait_for_selector(f"{root} .seat.you")
    await page.wait_for_selector(f"{root} .banner >> text=Waiting for players (1 of 2)")
    assert (await page.title()).startswith("Stockholm")
    await screenshot(page, "waiting-for-players")
