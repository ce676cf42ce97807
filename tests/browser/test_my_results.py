"""My results in the browser, at a phone's width: a player whose hands the store holds opens
the view from the lobby and sees the hands count and VPIP that a recount of the records
gives (the server's own replay, on the same database), a profit chart whose table of numbers
has one row per point of the line, the statistics by position, and the view in each
language with nothing left in English."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from playwright.async_api import Browser, Page

from pokerroom.rng import SeededRandomSource
from pokerroom.store.db import Database
from pokerroom.table import Table
from tests.browser.conftest import Room, screenshot
from tests.helpers.browser import serious_violations
from tests.helpers.browser_i18n import (
    LANGUAGES,
    Checker,
    catalogue,
    data_names,
    switch,
    untranslated,
)
from tests.helpers.results import recounted
from tests.helpers.store_hands import play_counted_hand, seat_player
from tests.helpers.writer import HOUSE, SPEC

HANDS = 12
PHONE = {"width": 390, "height": 844}


async def _stored_hands(url: str) -> None:
    """rita and sam play ``HANDS`` hands at a table of the store's (as the server would
    store them), beside the room that serves them."""
    db = Database(url)
    try:
        table = Table(spec=SPEC, house=HOUSE, seats=6, rng=SeededRandomSource(11))
        await seat_player(db, table, "rita", 1, 20_000)
        await seat_player(db, table, "sam", 4, 20_000)
        rng = random.Random(5)
        for _ in range(HANDS):
            await play_counted_hand(db, table, rng, now=datetime.now(UTC))
    finally:
        await db.close()


async def _logged_in(browser: Browser, room: Room, name: str) -> Page:
    context = await browser.new_context(viewport=PHONE)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(15_000)
    await page.goto(room.base + "/")
    await page.fill("#username", name)
    await page.fill("#password", "correct horse")
    await page.click("#login")
    await page.wait_for_selector("#lobby:not([hidden])", timeout=60_000)  # argon2, loaded
    assert not errors, errors
    return page


async def test_my_results_show_what_the_records_recount_with_the_charts_numbers(
    browser: Browser, quiet_room: Room
) -> None:
    await _stored_hands(quiet_room.database)
    page = await _logged_in(browser, quiet_room, "rita")
    token = str(await page.evaluate("localStorage.getItem('pokerroom.token')"))
    account = int((await quiet_room.me(token))["account_id"])
    recount = (await recounted(quiet_room.database, account))["cash"]
    assert isinstance(recount, dict)
    overall = recount["overall"]
    assert overall["hands"] == HANDS

    await page.click("#results-open")
    hands = page.locator("#results-summary dd[data-stat='hands']")
    await hands.wait_for()
    assert await page.is_hidden("#lobby")
    assert int(await hands.get_attribute("data-value") or -1) == HANDS
    assert await hands.inner_text() == str(HANDS)
    vpip = await page.get_attribute("#results-summary dd[data-stat='vpip']", "data-value")
    assert overall["vpip"] is not None and float(vpip or "nan") == overall["vpip"]
    shown_vpip = await page.inner_text(
        "#results-stats tr[data-stat='vpip'] td[data-column='overall']"
    )
    assert shown_vpip == f"{overall['vpip']:.1f}%"
    # The chart, and its numbers: one row per point of the line.
    await page.wait_for_selector("#results-chart canvas")
    rows = page.locator("#results-data-rows tr")
    assert await rows.count() == len(recount["by_hands"]) == HANDS
    last = await rows.nth(HANDS - 1).get_attribute("data-hands")
    assert int(last or 0) == recount["by_hands"][-1]["hands"] == HANDS
    # Each position she played has its column, and adds up to every hand.
    columns = await page.eval_on_selector_all(
        "#results-stats tr[data-stat='hands'] td", "(cells) => cells.map((c) => c.dataset.column)"
    )
    assert columns == ["overall", *[p for p in POSITION_ORDER if p in recount["by_position"]]]
    # A phone's width: nothing wider than the screen (the tables scroll in their own box).
    wide = await page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert wide <= 0, wide
    await page.click("details.results-data summary")
    await screenshot(page, "my-results-phone")
    assert await serious_violations(page, quiet_room.base) == []
    # A filter: tournaments (she played none) shows no hand.
    await page.select_option("#results-kind", "tournament")
    await page.wait_for_selector("#results-summary dd[data-stat='hands'][data-value='0']")
    await page.wait_for_selector("#results-data-rows tr.empty")
    await page.select_option("#results-kind", "cash")
    await page.wait_for_selector(f"#results-summary dd[data-stat='hands'][data-value='{HANDS}']")
    names = await data_names(quiet_room, "rita", "sam", *POSITION_ORDER)  # data, not text
    for language in LANGUAGES:  # every text of the view from the language's catalogue
        await switch(page, language)
        await page.wait_for_function(
            "(title) => document.querySelector('#results-title').textContent === title",
            arg=catalogue(language)["results.title"],
        )
        checker = Checker(language, names)
        assert await untranslated(page, "#results", checker) == [], language


POSITION_ORDER = ("SB", "BB", "UTG", "UTG+1", "UTG+2", "UTG+3", "LJ", "HJ", "CO", "BTN")
