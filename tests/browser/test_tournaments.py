"""Tournaments in the browser: the sit & go that ``pokerroom serve`` keeps open
with five bots; a newcomer registers from the lobby, the start opens their table, which
shows the level, the blinds, the next level and their place; they play by clicking.
Screenshots: ``tournament-lobby`` and ``tournament-table`` in ``artifacts/browser/``."""

from __future__ import annotations

import asyncio
import time

import pytest
from playwright.async_api import Browser, Locator

from tests.browser.conftest import Room, new_player, screenshot
from tests.helpers.browser_i18n import catalogue, switch
from tests.helpers.browser_tournaments import bots_registered

# The sit & go that the room keeps open with its bots.
pytestmark = pytest.mark.room(sit_and_go=True)


async def amounts_shown(stacks: Locator) -> list[tuple[str, str | None]]:
    """Each stack's amount as shown (without the words only a screen reader hears) with its
    chips, read in one go so that a frame arriving in between cannot pair them wrongly."""
    pairs = await stacks.evaluate_all(
        "(es) => es.map((e) => [e.lastChild.textContent, e.getAttribute('data-chips')])"
    )
    return [(str(text), chips) for text, chips in pairs]


async def test_register_for_the_sit_and_go_and_play_at_its_table(
    browser: Browser, room: Room
) -> None:
    ann = await new_player(browser, room, "ann_tourney")
    page = ann.page
    await bots_registered(room, 5)
    await page.click("#browse") if await page.is_visible("#browse") else None
    register = page.locator("#tournament-rows button.register")
    await register.first.wait_for()
    await page.locator("#tournament-rows td", has_text="5/6").wait_for()  # the lobby refreshed
    await screenshot(page, "tournament-lobby")
    await register.first.click()  # the sixth seat: the sit & go starts, the table opens
    view = page.locator(".table-view:not([hidden])")
    await view.locator(".table-game", has_text="Level 1").wait_for(timeout=30_000)
    table = await view.get_attribute("data-table")
    assert table is not None and table.startswith("sng6-")
    line = await view.locator(".table-game").inner_text()
    assert "10/20" in line and "next" in line and "of 6 left" in line
    names = await view.locator(".seat").all_inner_texts()
    assert any("ann_tourney" in n for n in names), names  # names, not account ids
    deadline, acted, seen = time.monotonic() + 90, 0, None
    while acted < 2 and time.monotonic() < deadline:  # a decision or two, checking or calling
        frames = [f for f in ann.tables(table) if f.get("you") and f.get("hand")]
        last = frames[-1] if frames else None
        if last and last["hand"]["actor"] == last["you"] and last["hand"]["legal"]:
            turn = (last["hand"]["number"], last["hand"]["street"], last["hand"]["pots"])
            if turn != seen:
                seen = turn
                await page.click(f".table-view[data-table='{table}'] .actions .call")
                acted += 1
        await asyncio.sleep(0.2)
    assert acted >= 1, "the newcomer was never asked to act"
    await screenshot(page, "tournament-table")
    # Chips are not money: "1,500" (the page is in English), never "$15".
    stacks = view.locator(".seat .stack")
    pairs = await amounts_shown(stacks)
    shown, counts = [text for text, _ in pairs], [chips for _, chips in pairs]
    assert shown and all("$" not in text for text in shown), shown
    assert shown == [f"{int(c or 0):,}" for c in counts], (shown, counts)
    assert any(int(c or 0) >= 1000 and "," in t for c, t in zip(counts, shown, strict=True))
    for pot in await view.locator(".pot-total:not([hidden]), .seat .bet").all_inner_texts():
        assert "$" not in pot, pot
    mine = [f for f in ann.tables(table) if f.get("you")]
    assert mine and all(f["tournament"]["entrants"] == 6 for f in mine)


async def test_a_tournament_in_swedish_notices_and_chips_in_the_language(
    browser: Browser, room: Room
) -> None:
    eva = await new_player(browser, room, "eva_turnering")
    page = eva.page
    await switch(page, "sv")
    await bots_registered(room, 5)
    register = page.locator("#tournament-rows button.register")
    await register.first.wait_for()
    await page.locator("#tournament-rows td", has_text="5/6").wait_for()
    await register.first.click()
    # the "started" notice, from its code in the Swedish catalogue: "sng6-7 har startat."
    started = catalogue("sv")["error.tournament.started"].replace("{event}", "")
    await page.locator(".toast", has_text=started.strip()).first.wait_for(timeout=30_000)
    view = page.locator(".table-view:not([hidden])")
    stacks = view.locator(".seat .stack")
    await stacks.first.wait_for()
    pairs = await amounts_shown(stacks)
    shown, counts = [text for text, _ in pairs], [int(chips or 0) for _, chips in pairs]
    swedish = await page.evaluate(
        "(ns) => ns.map((n) => new Intl.NumberFormat('sv').format(n))", counts
    )
    assert shown == swedish and not any("kr" in t or "$" in t for t in shown), shown
