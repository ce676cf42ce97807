"""Hand-for-hand in the browser (issue 14): a multi-table event of a person and five bots on
two 3-handed tables that pays two places. With four players left on two tables the room
deals hand for hand (TDA): the person's table marks it and its message log says so, in a
polite live region; then the final table forms. The person plays passively (check, else
fold) so that they are still in at the bubble. The books balance at the end."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
from playwright.async_api import Browser

from pokerroom.bots.strategy import RuleBot
from pokerroom.bots.tournament import run_tournament_bot
from pokerroom.server.process import free_port, spawn_room
from pokerroom.store.db import sqlite_url
from tests.browser.conftest import Room, new_player, stop
from tests.browser.test_tournament_moves import VISIBLE, act, event_of, notices, room_script
from tests.security.audit import audit_database

BOTS = 5
TWO_PAID = '[{"entrants": [2, 3], "places": [100]}, {"entrants": [4, 9], "places": [65, 35]}]'
# Whether the table on screen ever showed its hand-for-hand mark (it goes at the final table).
WATCH_MARK = """() => setInterval(() => {
  if (document.querySelector('.table-view:not([hidden]) .t-h4h:not([hidden])')) {
    window.sawHandForHand = true;
  }
}, 100)"""
ROOM = room_script(start_at=BOTS + 1, deal_after=0, late_levels=0, payouts=TWO_PAID)


async def test_hand_for_hand_is_marked_and_said_at_the_table(
    browser: Browser, tmp_path: Any
) -> None:
    database, port = sqlite_url(tmp_path / "room.db"), free_port()
    process = await spawn_room(
        database, port, pause=0.3, python=("-c", ROOM), env={"POKERROOM_SIT_AND_GO": ""}
    )
    base = f"http://127.0.0.1:{port}"
    bots: list[asyncio.Task[Any]] = []
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            tid = (await event_of(http))["id"]
            for k in range(BOTS):
                name = f"bubble_bot{k}"
                token = (
                    await http.post("/api/signup", json={"username": name, "password": "pw" * 6})
                ).json()["token"]
                bot = run_tournament_bot(
                    base, name, RuleBot(random.Random(k)), tournament=tid, token=token
                )
                bots.append(asyncio.create_task(bot))
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
            said = "hand-for-hand: every table deals together"
            log = page.locator(f"{VISIBLE} .t-notice")
            await log.filter(has_text=said).wait_for()
            assert await log.get_attribute("aria-live") == "polite"
            assert await page.evaluate("() => window.sawHandForHand === true")
            frames = [f for f in ann.frames if f.get("type") == "table" and f.get("tournament")]
            assert any(f["tournament"]["hand_for_hand"] for f in frames)
            event = await event_of(http)
            assert event["hand_for_hand"] or len(event["tables"]) == 1
        for bot in bots:  # the rest is theirs to play (the person's turns time out)
            bot.cancel()
        report = await audit_database(database)
        assert report.ok and report.problems == [], report.problems
    finally:
        for bot in bots:
            bot.cancel()
        await asyncio.gather(*bots, return_exceptions=True)
        stop(process)
