"""A deal at the final table in the browser: a heads-up sit & go (the final table
from its first hand) between a person and a bot. The person opens Deal at their table, sees
the room's ICM and chip-chop offers (once no hand is in play) and that no deal pays more
than first place nor less than the last place to pay, proposes the ICM deal with $1 kept
back for the title; the bot
accepts through the API; the dialog and the table say what the person takes, as the room
computed it. axe finds nothing serious on the lobby's detail panel, the tournament table and
the deal dialog. Screenshot: ``tournament-deal``."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
from playwright.async_api import Browser

from pokerroom.bots.strategy import RuleBot
from pokerroom.bots.tournament import run_tournament_bot
from pokerroom.server.ops.process import free_port, spawn_room
from pokerroom.store.db import sqlite_url
from tests.browser.conftest import Room, new_player, screenshot, stop
from tests.helpers.audit import audit_database
from tests.helpers.browser import serious_violations
from tests.helpers.browser_i18n import (
    LANGUAGES,
    Checker,
    catalogue,
    data_names,
    switch,
    untranslated,
)
from tests.helpers.browser_tournaments import act, notices

ROOM = """
import pokerroom.server.tournaments.hall as tours
start = tours.Tournaments.start
async def start_with_event(self):
    await start(self)
    await self.create("sng_heads_up", name="Heads-up Deal")
tours.Tournaments.start = start_with_event
from pokerroom.cli.app import main
main()
"""


def overlap(a: Any, b: Any) -> bool:
    """Whether two bounding boxes (x, y, width, height) share any area."""
    return bool(
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def dollars(cents: int) -> str:
    return f"${cents // 100:,}" if cents % 100 == 0 else f"${cents / 100:,.2f}"


async def test_propose_an_icm_deal_see_the_amounts_and_the_deal_made(
    browser: Browser, tmp_path: Any
) -> None:
    database, port = sqlite_url(tmp_path / "room.db"), free_port()
    process = await spawn_room(database, port, pause=0.3, python=("-c", ROOM))
    base = f"http://127.0.0.1:{port}"
    bot: asyncio.Task[Any] | None = None
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            events = (await http.get("/api/tournaments")).json()
            tid = next(e["id"] for e in events if e["name"] == "Heads-up Deal")
            path = f"/api/tournaments/{tid}"
            signed = await http.post(
                "/api/signup", json={"username": "deal_bot", "password": "pw" * 6}
            )
            theirs = {"Authorization": f"Bearer {signed.json()['token']}"}
            bot = asyncio.create_task(
                run_tournament_bot(
                    base,
                    "deal_bot",
                    RuleBot(random.Random(1)),
                    tournament=tid,
                    token=signed.json()["token"],
                )
            )
            deadline = time.monotonic() + 30
            while (await http.get(path)).json()["entrants"] < 1:
                assert time.monotonic() < deadline, "the bot did not register"
                await asyncio.sleep(0.1)
            ann = await new_player(browser, Room(base=base, database=database), "ann_deal")
            page = ann.page
            await page.locator(f"#tournament-rows tr[data-tournament='{tid}'] .details").click()
            await page.locator("#tournament-detail #td-players tr").first.wait_for()
            found = await serious_violations(page, base)
            assert found == [], found  # the lobby with the detail panel open
            room = Room(base=base, database=database)
            names = await data_names(room, "ann_deal", "deal_bot")
            for language in LANGUAGES:  # every text of the panel in each language
                await switch(page, language)
                checker = Checker(language, names)
                assert await untranslated(page, "#tournament-detail", checker) == []
                assert await untranslated(page, "#tournament-rows", checker) == []
            await switch(page, "en")
            await page.locator("#tournament-detail button.register").click()
            view = page.locator(f".table-view[data-table='{tid}-1']:not([hidden])")
            await view.locator(".tournament-info .t-payouts", has_text="Payouts").wait_for(
                timeout=30_000
            )
            deal_button = view.locator(".deal-open")
            await deal_button.wait_for()  # the final table from the first hand
            found = await serious_violations(page, base)
            assert found == [], found  # the tournament table with its payouts and messages
            await deal_button.click()
            await page.locator("#deal[open]").wait_for()
            # The dialog says no deal pays over first place nor under the last place to pay.
            await page.locator("#deal p", has_text=catalogue("en")["deal.capped"]).wait_for()
            await page.fill("#deal-keep", "1")  # $1 kept back, played on for with the title
            await page.locator("#deal-icm").click()
            # The hand in play ends (the person checks or folds, the bot acts) before the
            # amounts are shown.
            deadline = time.monotonic() + 240
            actions = view.locator(".actions")
            while (now := (await http.get(f"{path}/deal")).json())["amounts"] is None:
                assert time.monotonic() < deadline, f"the deal's amounts never came: {now}"
                # The open dialog leaves the person's buttons clear (she acts in time).
                if (shown := await actions.bounding_box()) is not None:
                    dialog = await page.locator("#deal").bounding_box()
                    assert dialog is not None and not overlap(dialog, shown), (dialog, shown)
                await act(ann, f"{tid}-1", passive=True)
                await asyncio.sleep(0.2)
            offered = (await http.get(f"{path}/deal")).json()
            amounts = offered["amounts"]
            assert offered["keep"] == 100
            assert sum(amounts.values()) + 100 == (await http.get(path)).json()["prize_pool"]
            for entry, amount in amounts.items():  # the room's amounts, in the ICM column
                cell = page.locator(f"#deal-rows tr[data-entry='{entry}'] td.chosen")
                await cell.filter(has_text=dollars(amount)).wait_for()
            status = page.locator("#deal-status")
            await status.filter(has_text="Waiting for: deal_bot").wait_for()
            assert await page.locator("#deal-accept").is_hidden()  # the proposer has accepted
            found = await serious_violations(page, base)
            assert found == [], found  # the deal dialog
            accepted = await http.post(f"{path}/deal/accept", headers=theirs)
            assert accepted.status_code == 200 and accepted.json()["made"], accepted.text
            me = (
                await http.get(
                    f"{path}/me", headers={"Authorization": f"Bearer {await ann.token()}"}
                )
            ).json()
            mine = me["entry"]
            made = f"The deal is made: you take {dollars(amounts[mine])}."
            await status.filter(has_text=made).wait_for()
            agreed = page.locator(f"#deal-rows tr[data-entry='{mine}'] td.agreed")
            await agreed.filter(has_text=dollars(amounts[mine])).wait_for()
            assert await page.locator("#deal-icm").is_hidden()
            await screenshot(page, "tournament-deal")
            table_names = {"Heads-up Deal table 1", "Heads-up Deal", "ann_deal", "deal_bot"}
            names = await data_names(room, *table_names)
            for language in LANGUAGES:  # the table, its messages and the dialog, translated
                await switch(page, language)
                checker = Checker(language, names)
                made = catalogue(language)["deal.made"].split("{")[0]
                await page.locator("#deal-status", has_text=made).wait_for()
                for part in ("#deal", f".table-view[data-table='{tid}-1'] .tournament-info"):
                    assert await untranslated(page, part, checker) == [], (language, part)
            await switch(page, "en")
            await page.click("#deal-close")
            log = view.locator(".t-notice")
            await log.filter(
                has_text=f"the deal is made: you take {dollars(amounts[mine])}"
            ).wait_for()
            assert [n["kind"] for n in notices(ann, "deal")][-1] == "deal"
        report = await audit_database(database)
        assert report.ok and report.problems == [], report.problems
    finally:
        if bot is not None:
            bot.cancel()
            await asyncio.gather(bot, return_exceptions=True)
        stop(process)
