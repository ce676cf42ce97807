"""My results in the browser, at a phone's width: a player whose hands the store holds opens
the view from the lobby and sees the hands count and VPIP that a recount of the records
gives (the server's own replay, on the same database), a profit chart whose table of numbers
has one row per point of the line, the statistics by position, and the view in each
language with nothing left in English. A player with hands and a finished sit & go sees the
graph (over hands and by day), the statistics and the event's finish and money as the
stored places and the ledger recount them, and a row opens its hand in the replayer."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from playwright.async_api import Browser, Page
from sqlalchemy import select

from pokerroom.rng import SeededRandomSource
from pokerroom.store.db import Database
from pokerroom.store.models import LedgerAccount, Posting, TournamentRecord, Transfer
from pokerroom.store.tournaments.statements import Prize
from pokerroom.table import Table
from pokerroom.tournament.snapshot import tournament_from_json
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
from tests.helpers.store_hands import NOW, play_counted_hand, seat_player
from tests.helpers.store_tournaments import Event, new_player, play_out
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


async def _player_with_hands(browser: Browser, room: Room, name: str) -> tuple[Page, int]:
    """The stored hands played, ``name`` logged in: her page and account."""
    await _stored_hands(room.database)
    page = await _logged_in(browser, room, name)
    token = str(await page.evaluate("localStorage.getItem('pokerroom.token')"))
    return page, int((await room.me(token))["account_id"])


async def test_my_results_show_what_the_records_recount_with_the_charts_numbers(
    browser: Browser, quiet_room: Room
) -> None:
    page, account = await _player_with_hands(browser, quiet_room, "rita")
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


async def _finished_sit_and_go(url: str, accounts: list[int]) -> tuple[str, dict[int, int]]:
    """A six-player sit & go played to its end and settled through the store (its prizes
    paid from the pool), beside the room; gives its id and each account's prize."""
    db = Database(url)
    try:
        event = Event(db, "sng6", "sng-77")
        await event.create()
        for k, account in enumerate(accounts):
            await event.register(account, f"r{k}")
        event.t.start(0.0)
        play_out(event.t)
        prizes = [Prize(p.entry, int(p.entry), p.prize) for p in event.t.places() if p.prize]
        await event.store.settle(
            event.tid, snapshot=event.snapshot(), status="finished", prizes=prizes, now=NOW
        )
        return event.tid, {prize.account: prize.amount for prize in prizes}
    finally:
        await db.close()


async def _more_players(url: str, count: int) -> list[int]:
    db = Database(url)
    try:
        return [await new_player(db, f"sng{k}") for k in range(count)]
    finally:
        await db.close()


async def _event_recount(url: str, tid: str, account: int) -> tuple[int, int, int]:
    """The player's place, what they paid and what they were paid, recounted from the
    records: the event's stored places and the ledger's postings on their balance."""
    db = Database(url)
    try:
        async with db.transaction() as session:
            record = await session.get(TournamentRecord, tid)
            assert record is not None
            t = tournament_from_json(record.snapshot, rng=SeededRandomSource(0))
            place = next(p.place for p in t.places() if t.entries[p.entry].player == str(account))
            rows = await session.execute(
                select(Posting.amount)
                .join(Transfer, Transfer.id == Posting.transfer_id)
                .join(LedgerAccount, LedgerAccount.id == Posting.ledger_account_id)
                .where(
                    LedgerAccount.kind == "player",
                    LedgerAccount.owner == str(account),
                    Transfer.idempotency_key.startswith(f"t:{tid}:"),
                )
            )
            amounts = [int(a) for (a,) in rows]
        return place, -sum(a for a in amounts if a < 0), sum(a for a in amounts if a > 0)
    finally:
        await db.close()


async def test_a_player_sees_her_graph_stats_and_sit_and_go_as_the_records_recount(
    browser: Browser, quiet_room: Room
) -> None:
    page, account = await _player_with_hands(browser, quiet_room, "sam")
    others = await _more_players(quiet_room.database, 5)
    tid, prizes = await _finished_sit_and_go(quiet_room.database, [account, *others])
    place, paid, won = await _event_recount(quiet_room.database, tid, account)
    assert won == prizes.get(account, 0) and paid == 1100
    cash = (await recounted(quiet_room.database, account))["cash"]
    assert isinstance(cash, dict)

    await page.click("#results-open")
    # Cash: the graph, its numbers and the statistics as the records recount them.
    await page.wait_for_selector(f"#results-summary dd[data-stat='hands'][data-value='{HANDS}']")
    await page.wait_for_selector("#results-chart canvas")
    net = await page.get_attribute("#results-summary dd[data-stat='net']", "data-value")
    assert int(net or "x") == cash["overall"]["net"]
    assert await page.locator("#results-data-rows tr").count() == len(cash["by_hands"])
    pfr = await page.inner_text("#results-stats tr[data-stat='pfr'] td[data-column='overall']")
    assert pfr == ("\u2013" if cash["overall"]["pfr"] is None else f"{cash['overall']['pfr']:.1f}%")
    assert await page.is_hidden("#results-events")  # cash games: no events
    # By day: one row a day, the line's last point the total.
    await page.select_option("#results-line", "by_day")
    await page.click("details.results-data summary")  # the chart's numbers, opened
    await page.wait_for_selector("#results-data-rows tr[data-day] th")
    days = page.locator("#results-data-rows tr")
    assert await days.count() == len(cash["by_day"]) == 1
    for title in ("#results-chart-title", "#results-data-caption"):
        assert await page.inner_text(title) == catalogue("en")["results.chart_title_days"]
    assert await page.inner_text("#results-data thead th") == catalogue("en")["results.day"]

    # Tournaments: the sit & go with her place, her money and the totals.
    await page.select_option("#results-kind", "tournament")
    await page.wait_for_selector(f"#results-events-rows tr[data-event='{tid}']")
    row = f"#results-events-rows tr[data-event='{tid}']"
    assert await page.get_attribute(f"{row} td[data-place]", "data-place") == str(place)
    profit = await page.get_attribute(f"{row} td[data-profit]", "data-profit")
    assert int(profit or "x") == won - paid
    stat = "#results-events-summary dd[data-event-stat='{}']"
    assert await page.get_attribute(stat.format("played"), "data-value") == "1"
    assert await page.get_attribute(stat.format("itm"), "data-value") == str(int(won > 0))
    roi = float(await page.get_attribute(stat.format("roi"), "data-value") or "nan")
    assert roi == pytest.approx(100.0 * (won - paid) / paid)
    assert await page.get_attribute(stat.format("cost"), "data-value") == str(paid)
    assert await page.locator(f"#results-best li[data-event='{tid}']").count() == 1
    wide = await page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert wide <= 0, wide
    await screenshot(page, "my-results-tournaments-phone")
    assert await serious_violations(page, quiet_room.base) == []
    names = await data_names(quiet_room, "rita", "sam", "sng-77", *POSITION_ORDER)
    for language in LANGUAGES:  # the events' part in every language too
        await switch(page, language)
        await page.wait_for_function(
            "(title) => document.querySelector('#results-events-title').textContent === title",
            arg=catalogue(language)["results.events_title"],
        )
        assert await untranslated(page, "#results", Checker(language, names)) == [], language

    # Back to cash: a row of the chart's numbers opens its last hand in the replayer.
    await page.select_option("#results-kind", "cash")
    button = page.locator("#results-data-rows .results-replay").last
    await button.wait_for()
    hand = await button.get_attribute("data-hand")
    assert int(hand or 0) == cash["by_day"][-1]["hand"]
    await button.click()
    await page.wait_for_selector(f".replayer[data-hand='{hand}']:not([hidden])")
