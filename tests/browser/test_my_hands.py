"""All my hands in the lobby: the hands a player played, searched by number, downloaded as
one PokerStars-style file named as trackers look for it (HH...), and one opened in the
replayer beside its table; tournament hands beside cash hands, each saying its event and in
chips, shown by kind, and the player's tournaments with their place and prize."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.async_api import Browser, Route, expect

from tests.browser.conftest import HEADS_UP, Room, new_player, screenshot
from tests.helpers.browser import sit_both, whose_turn

ROOT = f".table-view[data-table='{HEADS_UP}']"


async def test_all_my_hands_are_searched_downloaded_as_one_file_and_replayed(
    browser: Browser, quiet_room: Room
) -> None:
    ann, bob = await sit_both(browser, quiet_room, 10_000)
    for _ in range(2):  # two hands, each ended by a fold
        first = await whose_turn([ann, bob])
        number = await first.page.get_attribute(ROOT, "data-version")
        await first.page.click(f"{ROOT} .actions .fold")
        await first.page.wait_for_selector(f"{ROOT}:not([data-version='{number}'])")
    page = ann.page
    await page.click("#tabs .tab >> text=Lobby")
    rows = page.locator("#my-hands-list .hand-row")
    await rows.nth(1).wait_for()
    ids = [
        int(i or 0)
        for i in await page.eval_on_selector_all(
            "#my-hands-list [data-hand]", "(ns) => ns.map((n) => n.dataset.hand)"
        )
    ]
    assert len(ids) >= 2 and ids == sorted(ids, reverse=True)
    # Searched by its number: that hand alone.
    await page.fill("#my-hands-search", f"#{ids[-1]}")
    await page.wait_for_function(
        "() => document.querySelectorAll('#my-hands-list .hand-row').length === 1"
    )
    await page.fill("#my-hands-search", "")
    await rows.nth(1).wait_for()
    await screenshot(page, "all-my-hands")
    async with page.expect_download() as waiting:
        await page.click("#my-hands-txt")
    download = await waiting.value
    assert download.suggested_filename == f"HH{min(ids)}-{max(ids)}.txt"
    text = Path(await download.path()).read_text(encoding="utf-8")
    assert [f"PokerStars Hand #{i}:" in text for i in ids] == [True] * len(ids)
    # A hand opens in the replayer, beside its table.
    await page.click(f"#my-hands-list [data-hand='{ids[0]}']")
    await page.wait_for_selector(f"{ROOT} .replayer[data-hand='{ids[0]}'][data-step='0']")
    assert await page.is_visible(f"{ROOT} > .felt-wrap")


# A tournament hand and a cash hand as GET /api/hands lists them (tests/server/tournaments/
# test_my_hands.py checks the room's own), and the event as GET /api/my-tournaments does.
EVENT = {"id": "sng_heads_up-3", "name": "Sunday Cup", "table": 1}
LISTED = [
    {
        "id": 9,
        "table": "hu-nlhe",
        "table_name": "Heads-up",
        "game": "No-Limit Hold'em",
        "kind": "cash",
        "tournament": False,
        "event": None,
        "number": 4,
        "status": "finished",
        "started_at": "2026-12-05T12:10:00+00:00",
        "seat": 1,
        "cards": ["Ah", "Kd"],
        "net": 600,
        "rake": 0,
    },
    {
        "id": 7,
        "table": "sng_heads_up-3-1",
        "table_name": "Sunday Cup",
        "game": "No-Limit Hold'em",
        "kind": "tournament",
        "tournament": True,
        "event": EVENT,
        "number": 2,
        "status": "finished",
        "started_at": "2026-12-05T12:00:00+00:00",
        "seat": 2,
        "cards": ["7c", "7d"],
        "net": -1510,
        "rake": 0,
    },
]
PLAYED = [
    {
        "id": "sng_heads_up-3",
        "name": "Sunday Cup",
        "started_at": "2026-12-05T11:58:00+00:00",
        "status": "finished",
        "entries": 2,
        "place": 1,
        "prize": 2000,
    },
]


async def test_tournament_hands_say_their_event_in_chips_and_are_chosen_by_kind(
    browser: Browser, quiet_room: Room
) -> None:
    ann = await new_player(browser, quiet_room, "ann_kinds")
    page = ann.page
    asked: list[str] = []

    async def export(route: Route) -> None:
        asked.append(route.request.url)
        await route.fulfill(body="PokerStars Hand #7: Tournament #3\n")

    await page.route(re.compile(r"/api/hands\?limit=500$"), lambda r: r.fulfill(json=LISTED))
    await page.route(re.compile(r"/api/my-tournaments$"), lambda r: r.fulfill(json=PLAYED))
    await page.route(re.compile(r"/api/my-hands\.txt\?"), export)
    await page.click("#tabs .tab >> text=Lobby")
    await page.click("#my-hands-refresh")
    rows = page.locator("#my-hands-list .hand-row")
    await rows.nth(1).wait_for()
    tour = page.locator("#my-hands-list .hand-row", has=page.locator("[data-hand='7']"))
    assert await tour.locator(".hl-table").inner_text() == "Sunday Cup (sng_heads_up-3), table 1"
    assert await tour.locator(".hl-net").inner_text() == "-1,510"  # chips, never "$15.10"
    cash = page.locator("#my-hands-list .hand-row", has=page.locator("[data-hand='9']"))
    assert await cash.locator(".hl-net").inner_text() == "+$6.00"
    # By kind, and by the event's id in the search.
    await page.select_option("#my-hands-kind", "cash")
    await expect(rows).to_have_count(1)
    await expect(rows.locator("[data-hand]")).to_have_attribute("data-hand", "9")
    await page.select_option("#my-hands-kind", "")
    await page.fill("#my-hands-search", "sng_heads_up-3")
    await expect(rows).to_have_count(1)
    await page.fill("#my-hands-search", "")
    await page.select_option("#my-hands-kind", "tournament")
    await expect(rows).to_have_count(1)
    await expect(rows.locator("[data-hand]")).to_have_attribute("data-hand", "7")
    async with page.expect_download() as waiting:  # the tournament hands shown, alone
        await page.click("#my-hands-txt")
    assert (await waiting.value).suggested_filename == "HH7-7.txt"
    assert [url.split("ids=", 1)[1] for url in asked] == ["7"]
    # The player's tournaments: the event, the place, the prize in money.
    event = page.locator("#my-tournaments-rows tr[data-tournament='sng_heads_up-3'] td")
    assert (await event.all_inner_texts())[::2] == ["Sunday Cup", "1"]
    assert (await event.all_inner_texts())[3] == "$20"  # money: the prize, not chips
    await screenshot(page, "all-my-hands-tournaments")
