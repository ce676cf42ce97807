"""A multi-table tournament in the browser, start to finish: six bots fill two
3-handed tables and the event starts; a person opens its detail panel in the lobby (levels,
payouts, tables, players) and registers late (TDA 8A), which opens a third table for them
(the director holds the bots' first deal until then, so that it is a new table whatever the
cards); the first bust anywhere breaks that table (TDA 10B), so they are moved, and their
screen follows them to the new table: the old one closes. The move notice is held back until
the new table's frames have reached the page (the other order than the room's), and a reload
after the move opens the new table only. They play by clicking until they finish: the table
says their place and prize, the lobby agrees, and once the room has stored the event finished
with every prize paid (the lobby says "finished" before the last hand's write), the books
balance.

Bounded: the room's clock runs ten times faster (a one-minute level in six seconds), the
structure is small (seven entrants on 3-handed tables, every place paid so the finish always
shows a prize), the bots play quickly. Screenshots: ``tournament-detail`` (the lobby's detail
panel) and ``tournament-moved`` (the table the person was moved to)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import Browser, Page

from tests.browser.conftest import Room, new_player, screenshot
from tests.helpers.audit import audit_database
from tests.helpers.browser import serious_violations
from tests.helpers.browser_tournaments import (
    VISIBLE,
    MoveNoticeLate,
    act,
    add_bots,
    event_of,
    notices,
    prizes_stored,
    room_script,
    shut,
    start_room,
)
from tests.helpers.waiting import eventually

BOTS = 6
SEVEN_PAID = """[
    {"entrants": [2, 3], "places": [100]},
    {"entrants": [4, 6], "places": [50, 30, 20]},
    {"entrants": [7, 9], "places": [35, 22, 15, 11, 8, 5, 4]},
]"""


# Six bots start it; their tables wait for the person, who registers late.
ROOM = room_script(start_at=BOTS, deal_after=BOTS, late_levels=3, payouts=SEVEN_PAID)


async def test_register_late_be_moved_and_finish_a_multi_table_event(
    browser: Browser, tmp_path: Path
) -> None:
    process, base, database = await start_room(tmp_path, ROOM)
    bots: list[asyncio.Task[Any]] = []
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            tid = (await event_of(http))["id"]
            bots = await add_bots(http, tid, "cup_bot", BOTS)
            ann = await new_player(browser, Room(base=base, database=database), "ann_cup")
            page = ann.page
            late_notice = MoveNoticeLate(ann)
            await late_notice.attach()
            token = await ann.token()
            mine = {"Authorization": f"Bearer {token}"}
            deadline = time.monotonic() + 60
            while (await event_of(http))["status"] != "running":
                assert time.monotonic() < deadline, "the bots' event did not start"
                await asyncio.sleep(0.2)

            # The lobby's detail panel: structure, payouts, tables, players, the live level.
            row = f"#tournament-rows tr[data-tournament='{tid}']"
            await page.locator(f"{row} button.details").click()
            panel = page.locator("#tournament-detail")
            await panel.locator("#td-players tr").nth(BOTS - 1).wait_for()
            assert await page.get_attribute(f"{row} button.details", "aria-expanded") == "true"
            levels = await panel.locator("#td-levels tr:not(.break)").count()
            assert levels == 16 and await panel.locator("#td-levels tr.break").count() == 1
            assert await panel.locator("#td-levels tr[aria-current='true']").count() == 1
            assert await panel.locator("#td-tables tr").count() == 2  # two 3-handed tables
            assert await panel.locator("#td-payouts tr").count() == 3  # 6 entrants: 3 paid
            countdown = panel.locator(".td-countdown")
            assert ":" in await countdown.inner_text()
            await page.click("#td-players-table th[data-sort='stack'] button")
            sort = await page.get_attribute("#td-players-table th[data-sort='stack']", "aria-sort")
            assert sort == "descending"
            await screenshot(page, "tournament-detail")
            found = await serious_violations(page, base)
            assert found == [], found  # the panel: facts, levels, payouts, tables, players

            # Late registration: a full stack at a new table (both others are full).
            await panel.locator("button.register").click()
            late = await eventually(lambda: notices(ann, "started"), "the late seat notice")
            first = late[0]["table"]
            assert (
                first
                == (await http.get(f"/api/tournaments/{tid}/table", headers=mine)).json()["table"]
            )
            await page.locator(f"{VISIBLE}[data-table='{first}']").wait_for()
            await panel_shows_seven_entrants(http)

            # Play on until moved: the screen follows to the new table, the old one closes.
            moved: list[dict[str, Any]] = []
            deadline = time.monotonic() + 180
            while not (moved := notices(ann, "moved")) and not notices(ann, "finished"):
                assert time.monotonic() < deadline, "the person was never moved"
                await act(ann, first, passive=True)
                await asyncio.sleep(0.2)
            assert moved, "the person finished before any move"
            assert moved[0]["table"] != first
            # The socket's recorder can see the notice as the room sends it, before the route
            # lets it through: wait until the new table's frames have reached the page and it.
            await eventually(lambda: late_notice.done, "the held notice let through")

            async def shown_at_their_table() -> str | None:
                """The table the room seats them at now, once the page shows it (the hands
                go on meanwhile: a second move may come before the page catches up)."""
                now = (await http.get(f"/api/tournaments/{tid}/table", headers=mine)).json()
                table = now["table"]
                if table is None or table == first:
                    return None
                return (
                    table
                    if await page.locator(f"{VISIBLE}[data-table='{table}']").count()
                    else None
                )

            to = await eventually(shown_at_their_table, "the page at the table they were moved to")
            assert await page.locator(f".table-view[data-table='{first}']").count() == 0
            note = page.locator(f".table-view[data-table='{to}'] .t-notice")
            await note.filter(has_text="you were moved to table").wait_for()  # its 1st frame
            assert await note.get_attribute("aria-live") == "polite"  # said, not only shown
            game = page.locator(f".table-view[data-table='{to}'] .table-game")
            await game.filter(has_text="Level").wait_for()
            assert "left" in await game.inner_text()
            assert "Payouts: 1." in await page.inner_text(
                f".table-view[data-table='{to}'] .t-payouts"
            )
            await screenshot(page, "tournament-moved")

            # A reload opens the table they sit at now, and only that one.
            await page.reload()
            seat = await eventually(lambda: only_my_table(http, page, mine), "only my table")
            assert first not in seat
            # Open my table, from the lobby: the table the room seats them at now.
            await page.click("#tabs .tab >> nth=0")
            await page.locator(f"{row} button.details").click()
            await panel.locator("button.open").click()
            now = (await http.get(f"/api/tournaments/{tid}/table", headers=mine)).json()["table"]
            await page.locator(f"{VISIBLE}[data-table='{now}']").wait_for()

            # Play to the finish, following every further move.
            deadline = time.monotonic() + 300
            while not notices(ann, "finished"):
                assert time.monotonic() < deadline, "the person never finished"
                now = (await http.get(f"/api/tournaments/{tid}/table", headers=mine)).json()
                if now["table"] is not None:
                    await act(ann, now["table"], passive=False)
                await asyncio.sleep(0.2)
            done = notices(ann, "finished")[-1]
            final = [m["table"] for m in notices(ann, "moved")][-1]
            assert await page.locator(f".table-view[data-table='{final}']").count() == 1
            event = await event_of(http)
            me = next(p for p in event["players"] if p["name"] == "ann_cup")
            assert me["place"] == done["place"] and me["prize"] == done["prize"] > 0
            shown = await page.locator(f"{VISIBLE} .t-notice").inner_text()
            assert f"you finished in place {me['place']} of 7" in shown, shown
            prize = me["prize"]
            dollars = f"${prize // 100:,}" if prize % 100 == 0 else f"${prize / 100:,.2f}"
            assert f"and won {dollars}" in shown, shown

            deadline = time.monotonic() + 240  # the bots play it out
            while (await event_of(http))["status"] != "finished":
                assert time.monotonic() < deadline, "the event did not finish"
                await asyncio.sleep(0.5)
            # Its end as stored: the last hand's prizes are written after "finished" shows.
            await eventually(lambda: prizes_stored(database, tid, 7), "every prize stored")
            event = await event_of(http)
            places = sorted(p["place"] for p in event["players"])
            assert places == list(range(1, 8))
            assert sum(p["prize"] for p in event["players"]) == event["prize_pool"] == 7 * 1000
        report = await audit_database(database)  # S-AUDIT-2: the books balance
        assert report.ok and report.problems == [], report.problems
        assert report.totals["house"] == 7 * 100 and report.totals["tournament"] == 0
    finally:
        await shut(process, bots)


async def only_my_table(http: httpx.AsyncClient, page: Page, mine: dict[str, str]) -> list[str]:
    """The tables open on the page, once they are just the one the room seats the player at
    (and it shows); empty until then."""
    now = await http.get(f"/api/tournaments/{(await event_of(http))['id']}/table", headers=mine)
    table = now.json()["table"]
    shown = await page.eval_on_selector_all(
        ".table-view:not([hidden])", "views => views.map((v) => v.dataset.table)"
    )
    opened = await page.eval_on_selector_all(
        ".table-view", "views => views.map((v) => v.dataset.table)"
    )
    return list(opened) if opened == [table] and shown == [table] else []


async def panel_shows_seven_entrants(http: httpx.AsyncClient) -> None:
    event = await event_of(http)
    assert event["entrants"] == 7 and len(event["payouts"]) == 7  # the payouts grew
