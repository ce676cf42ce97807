"""The browser client in a real Chromium against a real room with bots."""

from __future__ import annotations

import asyncio
import time

import pytest
from playwright.async_api import Browser, Page

from tests.browser.conftest import BOT_TABLES, Player, Room, new_player, screenshot
from tests.helpers.audit import assert_books_balance
from tests.helpers.browser import (
    finished_hands,
    join,
    play,
    take_turn,
)


def sitting_out(player: Player, table: str) -> bool:
    """The latest frame that seats the player shows them sitting out."""
    mine = next((f for f in reversed(player.tables(table)) if f["you"]), None)
    return mine is not None and mine["seats"][mine["you"] - 1]["status"] == "sitting_out"


async def errors_on_page(page: Page, table: str) -> str:
    return str(await page.inner_text(f".table-view[data-table='{table}'] .table-error"))


async def shown_in_result(player: Player, table: str, number: int | None, seat: int) -> set[str]:
    """The cards ``seat`` showed in hand ``number``'s result, as the page received it
    (the page renders a frame before the test's own copy of it arrives: wait, bounded)."""
    if number is None:
        return set()
    for _ in range(40):
        for result in player.results(table):
            if result["hand"] == number:
                return {c for s in result["shown"] if s["seat"] == seat for c in s["cards"]}
        await asyncio.sleep(0.05)
    raise AssertionError(f"the page shows hand {number}'s result, which never arrived")


async def balance_shown(page: Page, chips: int) -> None:
    """Wait (bounded) until the header's balance is ``chips``."""
    # A function, not an expression string: the page's CSP forbids eval, which Playwright
    # uses to poll a string.
    await page.wait_for_function(
        "(chips) => Number(document.querySelector('#balance').dataset.chips) === chips", arg=chips
    )


@pytest.mark.room(bot_tables=(*BOT_TABLES, "flhe-2-4"))  # watched with its bots seated
async def test_sign_up_log_in_join_and_play_hands_by_clicking(browser: Browser, room: Room) -> None:
    ann = await new_player(browser, room, "ann")
    page = ann.page
    # Balance always visible, and equal to the server's.
    start = (await room.me(await ann.token()))["balance"]
    assert int(await page.get_attribute("#balance", "data-chips") or -1) == start
    # Log out and back in.
    await page.click("#logout")
    await page.wait_for_selector("#auth:not([hidden])")
    await page.fill("#username", "ann")
    await page.fill("#password", "correct horse battery")
    await page.click("#login")
    await page.wait_for_selector("#lobby:not([hidden])")
    await page.wait_for_selector("#account:not([hidden])")
    # The lobby: every table, with filters by game and stakes.
    rows = page.locator("#lobby-rows tr")
    assert await rows.count() == len(await room.lobby())
    await page.select_option("#filter-game", "Pot Limit Omaha")
    assert await rows.count() == 1 and "Pot Limit Omaha" in await rows.first.inner_text()
    await page.select_option("#filter-game", "")
    await page.select_option("#filter-stakes", "$2/$4")  # fixed limit: named by its limits
    assert {await r.get_attribute("data-table") for r in await rows.all()} == {
        "flhe-2-4",
        "o8-2-4",
    }
    await page.select_option("#filter-stakes", "")
    await screenshot(page, "lobby")

    table = "nlhe-1-2"
    buy_in = 10_000
    await join(ann, table, buy_in)
    await balance_shown(page, start - buy_in)
    await play([ann], table, hands=3)
    await screenshot(page, "table")
    assert ann.presets_checked, "no turn offered a raise: ½ Pot and Pot were never clicked"
    assert "cannot" not in await errors_on_page(page, table)  # no illegal amount was ever sent

    # Top up between hands (R-STAKE-1): sit out next hand, add chips, sit back in.
    root = f".table-view[data-table='{table}']"
    # A click, not check(): a frame sent before the table has the option redraws the box
    # unticked, and check() would call that a click that did not take.
    await page.click(f"{root} [data-option='sit_out_next']")
    # The hand in progress is played on by clicks (her clock must not run out waiting) until
    # she sits out and Add chips comes on; bounded. (The option may reach the table after
    # that hand's end: then she is dealt one more, and plays it.)
    deadline, turn = time.monotonic() + 120, 0
    while not (sitting_out(ann, table) and await page.is_enabled(f"{root} .add-chips")):
        assert time.monotonic() < deadline, "she never sat out: Add chips stayed off"
        if await take_turn(ann, table, turn):
            turn += 1
        else:
            await asyncio.sleep(0.1)
    mine = next(f for f in reversed(ann.tables(table)) if f["you"])
    stack = mine["seats"][mine["you"] - 1]["stack"]
    balance = (await room.me(await ann.token()))["balance"]
    await page.click(f"{root} .add-chips")
    await page.wait_for_selector("#buyin[open]")
    # The dialog's range is the frame's buy_in, capped only by the balance.
    offered = mine["buy_in"]
    assert int(await page.get_attribute("#buyin-range", "min") or -1) == offered["min"]
    assert int(await page.get_attribute("#buyin-range", "max") or -1) == min(
        offered["max"], balance
    )
    await page.fill("#buyin-amount", "10")
    await page.click("#buyin-ok")
    await page.wait_for_selector(f"{root} .seat.you .stack[data-chips='{stack + 1_000}']")
    await balance_shown(page, balance - 1_000)
    assert (await room.me(await ann.token()))["balance"] == balance - 1_000
    await page.click(f"{root} .sitout")  # now reads "Sit in"

    # The hand history panel: list, replayer steps, downloads.
    await page.click(f".table-view[data-table='{table}'] [data-side='history']")
    await page.wait_for_selector(f".table-view[data-table='{table}'] .history-list [data-hand]")
    await page.click(f".table-view[data-table='{table}'] .history-list [data-hand] >> nth=0")
    replayer = f".table-view[data-table='{table}'] .replayer"
    await page.wait_for_selector(f"{replayer}:not([hidden])")
    first = await page.inner_text(f"{replayer} .rp-step")
    await page.click(f"{replayer} .rp-next")
    assert await page.inner_text(f"{replayer} .rp-step") != first
    await page.click(f"{replayer} .rp-last")
    assert await page.locator(f"{replayer} .replayer-lines li").count() >= 3
    async with page.expect_download() as download:
        await page.click(f"{replayer} .dl-phh")
    path = await (await download.value).path()
    text = path.read_text(encoding="utf-8")
    assert "variant = " in text and "actions = [" in text
    async with page.expect_download() as download:
        await page.click(f"{replayer} .dl-txt")
    path = await (await download.value).path()
    assert path.read_text(encoding="utf-8").startswith("PokerStars Hand #")
    await screenshot(page, "replayer")
    # Back to the table: the replayer panel closes.
    await page.click(f"{replayer} .rp-close")
    await page.wait_for_selector(replayer, state="hidden")

    # Chat: what people type is shown as text, never as markup.
    await page.click(f".table-view[data-table='{table}'] [data-side='chat']")
    await page.fill(f".table-view[data-table='{table}'] .chat-input", "<b>nice</b> hand")
    await page.press(f".table-view[data-table='{table}'] .chat-input", "Enter")
    line = page.locator(f".table-view[data-table='{table}'] .chat-log li").last
    await line.wait_for()
    assert await line.inner_text() == "ann: <b>nice</b> hand"
    assert await line.locator("b").count() == 0

    # A second table at once: watch it, then tile both.
    await page.click("#tabs .tab >> text=Lobby")
    await page.click("tr[data-table='flhe-2-4'] .watch")
    await page.wait_for_selector(".table-view[data-table='flhe-2-4'] .seat:not(.empty)")
    assert await page.is_hidden(f".table-view[data-table='{table}']")
    await page.click("#tabs .tile-toggle")
    assert await page.is_visible(f".table-view[data-table='{table}']")
    assert await page.is_visible(".table-view[data-table='flhe-2-4']")
    assert "$2/$4" in await page.inner_text(".table-view[data-table='flhe-2-4'] .table-game")
    await screenshot(page, "tiled")

    # A dropped connection: the client reconnects by itself and keeps the seat (R-TIME-3).
    seat = next(f["you"] for f in reversed(ann.tables(table)) if f["you"])
    sockets = ann.sockets
    await page.evaluate("window.pokerroom.socket.close()")
    for _ in range(100):  # bounded: a new socket opens once the old one has closed
        if ann.sockets == sockets + 1:
            break
        await asyncio.sleep(0.05)
    before = len(ann.frames)  # from here on, the new socket's frames (the old one is shut)
    await page.wait_for_function("() => window.pokerroom.socketReady === true")
    for _ in range(100):  # bounded: the seat is taken back within a few frames
        back = [f for f in ann.frames[before:] if f.get("type") == "table"]
        if any(f["you"] == seat and f["seats"][seat - 1]["connected"] for f in back):
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("the seat did not come back after reconnecting")
    assert ann.sockets == sockets + 1  # on a new connection

    # Leave: the stack goes back, and the screen's balance is the server's.
    await page.click(f".table-view[data-table='{table}'] .leave")
    await page.wait_for_selector(
        f".table-view[data-table='{table}'] .seat.you", state="detached", timeout=60_000
    )
    server_balance = (await room.me(await ann.token()))["balance"]
    await balance_shown(page, server_balance)
    await assert_books_balance(room)  # duck-typed: it reads .database


async def test_a_second_player_never_sees_the_firsts_hole_cards(
    browser: Browser, room: Room
) -> None:
    table = "plo-1-2"
    bob = await new_player(browser, room, "bob")
    cat = await new_player(browser, room, "cat", width=400)  # the second plays at phone width
    await join(bob, table)
    await join(cat, table)
    bob_seat = next(f["you"] for f in reversed(bob.tables(table)) if f["you"])
    leaks: list[str] = []
    deadline = time.monotonic() + 180
    turn = 0
    while time.monotonic() < deadline:
        if all(len(finished_hands(p, table)) >= 3 for p in (bob, cat)):
            break
        for player in (bob, cat):
            turn += await take_turn(player, table, turn)
        # What the second page shows of the first player's seat: face-down cards only,
        # unless the page is showing a hand's result in which those cards were shown.
        root = f".table-view[data-table='{table}']"
        seen = await cat.page.eval_on_selector(  # one look: cards and result together
            root,
            """(root, seat) => ({
                result: root.dataset.resultHand,
                faces: [...root.querySelectorAll(`.seat[data-seat="${seat}"] .card[data-card]`)]
                    .map((c) => c.dataset.card),
            })""",
            bob_seat,
        )
        if seen["faces"]:
            number = int(seen["result"]) if seen["result"] else None
            shown = await shown_in_result(cat, table, number, bob_seat)
            leaks.extend(card for card in seen["faces"] if card not in shown)
        await asyncio.sleep(0.1)
    assert all(len(finished_hands(p, table)) >= 3 for p in (bob, cat))
    await screenshot(cat.page, "table-phone")
    assert not leaks, f"bob's cards on cat's page before they were shown: {leaks}"
    # Every frame cat received: bob's seat never carries cards that were not shown.
    bob_cards = {
        (f["hand"]["number"], card)
        for f in bob.tables(table)
        if f["hand"] is not None and f["seats"][bob_seat - 1].get("cards")
        for card in f["seats"][bob_seat - 1]["cards"]
    }
    assert bob_cards, "bob saw his own cards"
    for frame in cat.tables(table):
        entry = frame["seats"][bob_seat - 1]
        assert entry.get("cards") is None or entry.get("shown"), frame
    # Nor does any frame name them before the hand's result.
    for number, card in bob_cards:
        before = []
        for frame in cat.frames:
            if frame.get("type") == "hand_result" and frame.get("hand") == number:
                break
            before.append(frame)
        for frame in before:
            if frame.get("type") == "table" and (frame.get("hand") or {}).get("number") == number:
                entry = frame["seats"][bob_seat - 1]
                assert card not in (entry.get("cards") or []), (number, card)
    await assert_books_balance(room)  # duck-typed: it reads .database
