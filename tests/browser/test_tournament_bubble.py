"""Hand-for-hand in the browser: a multi-table event of a person and five bots on
two 3-handed tables that pays two places. With four players left on two tables the room
deals hand for hand (TDA): the person's table marks it while its frames say so, and its
message log says so, in a polite live region; then the final table forms. The person plays
passively (check, else fold) so that they are still in at the bubble. The books balance at
the end."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import Browser

from tests.browser.conftest import Room, new_player
from tests.helpers.audit import audit_database
from tests.helpers.browser_tournaments import (
    VISIBLE,
    act,
    add_bots,
    event_of,
    notices,
    room_script,
    shut,
    start_room,
)

BOTS = 5
TWO_PAID = '[{"entrants": [2, 3], "places": [100]}, {"entrants": [4, 9], "places": [65, 35]}]'
# Whether the table on screen ever showed its hand-for-hand mark (it goes at the final table)
# and its message log ever said so, in which live region (the log keeps the last three
# lines: on a busy machine the final table's messages can follow before the test looks).
# Every change of the page is looked at (a mark shown for less than a poll's interval, as a
# short hand-for-hand round can be, would slip between polls).
WATCH_MARK = """() => new MutationObserver(() => {
  if (document.querySelector('.table-view:not([hidden]) .t-h4h:not([hidden])')) {
    window.sawHandForHand = true;
  }
  for (const log of document.querySelectorAll('.table-view:not([hidden]) .t-notice')) {
    if (log.textContent.includes("hand-for-hand: every table deals together")) {
      window.saidHandForHand = log.getAttribute("aria-live");
    }
  }
}).observe(document.body, { subtree: true, childList: true, attributes: true })"""
ROOM = room_script(start_at=BOTS + 1, deal_after=0, late_levels=0, payouts=TWO_PAID)


async def test_hand_for_hand_is_marked_and_said_at_the_table(
    browser: Browser, tmp_path: Path
) -> None:
    process, base, database = await start_room(tmp_path, ROOM)
    bots: list[asyncio.Task[Any]] = []
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            tid = (await event_of(http))["id"]
            bots = await add_bots(http, tid, "bubble_bot", BOTS)
            ann = await new_player(browser, Room(base=base, database=database), "ann_bubble")
            page = ann.page
            mine = {"Authorization": f"Bearer {await ann.token()}"}
            deadline = time.monotonic() + 60
            while (await event_of(http))["entrants"] < BOTS:
                assert time.monotonic() < deadline, "the bots did not register"
                await asyncio.sleep(0.2)
            await page.evaluate(WATCH_MARK)
            row = f"#tournament-rows tr[data-tournament='{tid}']"
            await page.locator(f"{row} button.register").click()  # the sixth: it starts
            await page.locator(f"{VISIBLE} .tournament-info").wait_for(timeout=30_000)
            deadline = time.monotonic() + 240
            while not notices(ann, "hand_for_hand") and not notices(ann, "eliminated"):
                assert time.monotonic() < deadline, "no hand-for-hand came"
                table = (await http.get(f"/api/tournaments/{tid}/table", headers=mine)).json()
                if table["table"] is not None:
                    await act(ann, table["table"], passive=True)
                await asyncio.sleep(0.2)
            if not notices(ann, "hand_for_hand"):  # out on the bubble's eve: it can happen
                raise AssertionError("the person was out before hand-for-hand")
            said = "() => window.saidHandForHand"  # in the log of the table on screen
            await page.wait_for_function(f"() => ({said})() !== undefined", timeout=30_000)
            assert await page.evaluate(said) == "polite"
            # The mark shows exactly when the table's frames say hand-for-hand. (A bust in
            # the hand under way when the bubble came ends it before any hand is dealt under
            # it: then no frame says it, and no mark may show.)
            frames = [f for f in ann.frames if f.get("type") == "table" and f.get("tournament")]
            dealt = any(f["tournament"]["hand_for_hand"] for f in frames)
            assert await page.evaluate("() => window.sawHandForHand === true") is dealt
            event = await event_of(http)
            assert event["hand_for_hand"] or len(event["tables"]) == 1
        report = await audit_database(database)
        assert report.ok and report.problems == [], report.problems
    finally:
        await shut(process, bots)
