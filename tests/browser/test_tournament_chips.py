"""A tournament in the browser, shown as a tournament: its hands in the hand list and the
replayer are in chips, never dollars ("-1,510", not "-$15.10"); an empty seat at its table
offers no cash "Sit here" to someone not in it (an eliminated player, a watcher); and the
header's balance follows a registration (the buy-in paid) and an unregistration (refunded)
at once, with no hand dealt in between."""

from __future__ import annotations

import asyncio
import re
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, expect

from pokerroom.server.sockets import protocol
from tests.browser.conftest import Room, new_player, screenshot, stop
from tests.helpers.browser import INJECT, TOURNAMENT_INFO, dealt, watch
from tests.helpers.browser_tournaments import bots_registered, start_room

DOLLAR = re.compile(r"\$")


@pytest.mark.room(sit_and_go=True)  # the sit & go the room keeps open with its bots
async def test_tournament_hands_are_in_chips_and_its_empty_seats_offer_no_buy_in(
    browser: Browser, room: Room
) -> None:
    ann = await new_player(browser, room, "ann_chips")
    page = ann.page
    await bots_registered(room, 5)
    register = page.locator("#tournament-rows button.register")
    await page.locator("#tournament-rows td", has_text="5/6").wait_for()
    await register.first.click()  # the sixth seat: the sit & go starts, the table opens
    view = page.locator(".table-view:not([hidden])")
    await view.locator(".table-game", has_text="Level 1").wait_for(timeout=30_000)
    table = await view.get_attribute("data-table")
    assert table is not None
    root = f".table-view[data-table='{table}']"
    # Play (checking or calling, folding to a shove) until a hand of hers is over.
    deadline, seen = time.monotonic() + 180, None
    while time.monotonic() < deadline:
        if any(r["table"] == table for r in ann.results(table)):
            mine = {f["hand"]["number"] for f in ann.tables(table) if f.get("you") and f["hand"]}
            if any(r["hand"] in mine for r in ann.results(table)):
                break
        frames = [f for f in ann.tables(table) if f.get("you") and f.get("hand")]
        last = frames[-1] if frames else None
        if last and last["hand"]["actor"] == last["you"] and last["hand"]["legal"]:
            turn = (last["hand"]["number"], last["hand"]["street"], last["hand"]["pots"])
            if turn != seen and await page.is_visible(f"{root} .actions"):
                seen = turn
                await page.click(f"{root} .actions .call")
        await asyncio.sleep(0.2)
    else:
        raise AssertionError("no hand of hers finished")

    # The hand list: results in chips, signed, no dollar sign anywhere.
    await page.click(f"{root} [data-side='history']")
    rows = page.locator(f"{root} .history-list .hand-row")
    await rows.first.wait_for()
    nets = await page.eval_on_selector_all(
        f"{root} .history-list .hl-net",
        "(ns) => ns.map((n) => [n.textContent, n.closest('.hand-row').dataset.net])",
    )
    assert nets
    for text, net in nets:
        assert not DOLLAR.search(text), nets
        count = int(net)
        assert text == ("0" if count == 0 else f"{count:+,}"), (text, net)
    # The replayer: stacks, bets, pots and its lines in chips.
    await page.click(f"{root} .history-list [data-hand] >> nth=0")
    stage = f"{root} .replayer"
    await page.wait_for_selector(f"{stage}[data-step='0']")
    await page.click(f"{stage} .rp-last")
    texts = await page.inner_text(stage)
    assert not DOLLAR.search(texts), texts
    lines = await page.locator(f"{stage} .replayer-lines li").all_inner_texts()
    assert any(re.search(r"\d", line) for line in lines), lines  # amounts are there
    await screenshot(page, "tournament-replayer-chips")
    await page.click(f"{stage} .rp-close")


async def test_an_eliminated_player_sees_no_sit_here_at_a_tournament_table(
    browser: Browser, quiet_room: Room
) -> None:
    """The event's table as someone out of it sees it (no seat of theirs, one seat empty
    since their elimination): the empty seat offers no cash buy-in."""
    ann = await new_player(browser, quiet_room, "ann")
    page = ann.page
    watched = await watch(ann, "nlhe-1-2")
    out = dealt(watched, ["bob", "cat", "dan", "eve", "fay", "gus"], 2, you=1, turn=False)
    out["seats"][0] = {"seat": 1, "empty": True}
    out = {**out, "you": None, "hand": None, "tournament": TOURNAMENT_INFO}
    protocol.TableFrame.model_validate(out)  # a frame the server could send
    root = ".table-view[data-table='nlhe-1-2']"
    await page.evaluate(INJECT, out)
    await page.wait_for_selector(f"{root}[data-version='{out['version']}'] .seat.empty")
    assert await page.locator(f"{root} .seat.empty .sit").count() == 0
    # The same frame at a cash table offers the seat.
    cash = {**out, "version": out["version"] + 1, "tournament": None}
    await page.evaluate(INJECT, cash)
    await page.wait_for_selector(f"{root} .seat.empty .sit")


ROOM = """
import pokerroom.server.tournaments.hall as tours
start = tours.Tournaments.start
async def start_with_event(self):
    await start(self)
    await self.create("mtt_rebuy", name="Header Night")
tours.Tournaments.start = start_with_event
from pokerroom.cli.app import main
main()
"""


async def shown_balance(page: Any) -> int:
    return int(await page.get_attribute("#balance", "data-chips") or 0)


async def test_the_header_balance_follows_a_registration_and_an_unregistration(
    browser: Browser, tmp_path: Path
) -> None:
    process: subprocess.Popen[bytes]
    process, base, database = await start_room(tmp_path, ROOM)
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            events = (await http.get("/api/tournaments")).json()
            event = next(e for e in events if e["name"] == "Header Night")
        price = event["structure"]["buy_in"] + event["structure"]["fee"]
        ann = await new_player(browser, Room(base=base, database=database), "ann_header")
        page = ann.page
        before = await shown_balance(page)
        assert before > price
        await page.locator(f"#tournament-rows tr[data-tournament='{event['id']}'] .details").click()
        panel = page.locator("#tournament-detail")
        await panel.locator("button.register").click()
        await panel.locator("button.unregister").wait_for()
        await expect(page.locator("#balance")).to_have_attribute(
            "data-chips", str(before - price), timeout=30_000
        )
        await panel.locator("button.unregister").click()
        await panel.locator("button.register").wait_for()
        await expect(page.locator("#balance")).to_have_attribute(
            "data-chips", str(before), timeout=30_000
        )
    finally:
        stop(process)
