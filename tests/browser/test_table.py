"""The table: reopening seats after a reload or log-in, the pot and the clock with
their sounds and title alerts, busting and the rebuy, and the hand history list. Two people
in two Chromium pages play heads-up in a room without bots (``quiet_room``), where the table's
clock warns after 2 s and starts the time bank after 6 s."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from typing import Any

import httpx
from playwright.async_api import Browser, Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

from pokerroom.server.sockets import protocol
from pokerroom.server.tables.views import hand_result
from tests.browser.conftest import HEADS_UP, Player, Room, new_player, screenshot
from tests.helpers.audit import assert_books_balance
from tests.helpers.browser import dollars, join, sit_both, whose_turn
from tests.helpers.frames import hilo_all_in_hand

ROOT = f".table-view[data-table='{HEADS_UP}']"
TURN_TITLE = "\u25b6 Your turn"
WARNING_TITLE = "\u23f0 Time running out"

# WCAG contrast of an element's text (or, for a bar, of its fill) against its own
# background, or against another element's background.
CONTRAST = """([selector, property, against]) => {
  const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const luminance = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const style = getComputedStyle(document.querySelector(selector));
  const back = getComputedStyle(document.querySelector(against || selector)).backgroundColor;
  const a = luminance(rgb(style[property])), b = luminance(rgb(back));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


async def version_frame(player: Player) -> dict[str, Any]:
    """The frame the page shows now."""
    version = int(await player.page.get_attribute(ROOT, "data-version") or -1)
    return await player.frame(HEADS_UP, version)


async def title_starts(page: Page, text: str) -> None:
    await page.wait_for_function("(text) => document.title.startsWith(text)", arg=text)


async def sound_played(page: Page, name: str) -> None:
    await page.wait_for_function("(name) => window.pokerroom.sounds.includes(name)", arg=name)


async def test_reload_and_log_in_reopen_the_seated_table_at_once(
    browser: Browser, quiet_room: Room
) -> None:
    """After a reload or a log-in the player's table opens by itself with the hand
    in progress (no empty felt), and the lobby marks the table where they sit."""
    ann, _ = await sit_both(browser, quiet_room, 10_000)
    page = ann.page
    await page.wait_for_selector(f"{ROOT} .seat.you .hole .card[data-card]")  # a hand is on
    await page.reload()
    # No click: the table is open and shows the hand being played, her own cards included.
    await page.wait_for_selector(f"{ROOT} .seat.you .hole .card[data-card]")
    assert await page.is_visible(ROOT) and await page.is_hidden("#lobby")
    frame = await version_frame(ann)
    assert frame["you"] and frame["hand"] is not None
    mine = frame["seats"][frame["you"] - 1]
    shown = await page.eval_on_selector_all(
        f"{ROOT} .seat.you .hole .card", "(cards) => cards.map((c) => c.dataset.card)"
    )
    assert shown == mine["cards"]
    hello = next(f for f in reversed(ann.frames) if f.get("type") == "hello")
    assert hello["seated"] == [HEADS_UP]
    # The lobby marks the table where she sits, and only that one.
    await page.click("#tabs .tab >> text=Lobby")
    marked = page.locator("#lobby-rows tr.seated")
    await marked.first.wait_for()
    assert [await r.get_attribute("data-table") for r in await marked.all()] == [HEADS_UP]
    assert "You sit here" in await marked.first.inner_text()
    await screenshot(page, "lobby-seated")
    await page.click(f"tr[data-table='{HEADS_UP}'] .open")
    await page.wait_for_selector(f"{ROOT} .seat.you")

    # A log-in on another device (a new browser context) reopens the table at once too.
    context = await browser.new_context(viewport={"width": 1360, "height": 900})
    other = await context.new_page()
    await other.goto(quiet_room.base + "/")
    await other.fill("#username", "ann")
    await other.fill("#password", "correct horse battery")
    await other.click("#login")
    await other.wait_for_selector(f"{ROOT} .seat.you")
    assert await other.is_visible(ROOT)
    await screenshot(other, "table-reopened")
    await assert_books_balance(quiet_room)  # duck-typed: it reads .database


async def test_pot_time_bar_title_alerts_time_bank_and_sounds(
    browser: Browser, quiet_room: Room
) -> None:
    """ "Pot: $X" from the blinds on, readable; a time bar for the player to act; a
    sound and the page's title when it is your turn and at the warning; the time bank shown
    when it starts; sounds for the deal and bets, and a mute switch that silences them."""
    ann, bob = await sit_both(browser, quiet_room, 10_000)
    me = await whose_turn([ann, bob])
    them = bob if me is ann else ann
    # Your turn: a sound and the title, checked first: 2 s in, the warning takes the title.
    await title_starts(me.page, TURN_TITLE)
    await sound_played(me.page, "turn")
    frame = await version_frame(me)
    hand = frame["hand"]
    assert hand["street"] == "preflop" and hand["collected"] == []  # nothing collected yet
    total = sum(hand["pots"])
    assert total == 300  # the blinds, $1 and $2
    assert await me.page.inner_text(f"{ROOT} .pot-total") == f"Pot: {dollars(total)}"
    # Prominent and readable: bold, larger than the felt's text, contrast at least 4.5:1.
    pot = f"{ROOT} .pot-total"
    assert await me.page.evaluate(CONTRAST, [pot, "color", None]) >= 4.5
    sizes = await me.page.eval_on_selector(
        pot,
        """(node) => [getComputedStyle(node).fontWeight,
                      parseFloat(getComputedStyle(node).fontSize),
                      parseFloat(getComputedStyle(node.closest('.felt')).fontSize)]""",
    )
    assert int(sizes[0]) >= 700 and sizes[1] > sizes[2], sizes

    # A time bar here and under the seat on the other page.
    assert await them.page.title() == "Stockholm (Heads-up NL $1/$2) \u00b7 pokerroom"
    bar = f"{ROOT} .actions .timebar"
    assert await me.page.is_visible(bar)
    assert await me.page.evaluate(CONTRAST, [f"{bar} .timebar-left", "backgroundColor", bar]) >= 3
    # ... that runs down (the share of the bar still lit, as the page draws it now).
    lit = "(root) => new DOMMatrix(getComputedStyle(document.querySelector(root)).transform).a"
    fill = f"{bar} .timebar-left"
    first = await me.page.evaluate(lit, fill)
    assert 0 < first <= 1
    await me.page.wait_for_function(f"(root) => ({lit})(root) < {first}", arg=fill)
    await them.page.wait_for_selector(f"{ROOT} .seat.acting .timebar .timebar-left")
    await sound_played(them.page, "deal")
    # The warning (2 s into the turn): another sound, the title says so, the bar turns red
    # (until the time bank, 6 s in: the picture after it, so that it cannot be missed).
    await title_starts(me.page, WARNING_TITLE)
    await sound_played(me.page, "warning")
    await me.page.wait_for_selector(f"{bar}.low")
    await screenshot(me.page, "table-your-turn")
    # The time bank (after 6 s): named under the clock on both pages.
    await me.page.wait_for_function(
        "(root) => document.querySelector(`${root} .actions .clock`).textContent"
        ".startsWith('Time bank')",
        arg=ROOT,
    )
    await them.page.wait_for_function(
        "(root) => document.querySelector(`${root} .seat.acting .clock`)?.textContent"
        ".startsWith('Time bank')",
        arg=ROOT,
    )
    assert await me.page.is_visible(f"{bar}.bank")
    banked = await version_frame(me)
    assert banked["hand"]["time_bank"] is True
    await screenshot(them.page, "table-time-bank")

    # Muted, this page plays nothing more; the other page hears the call as a bet.
    await me.page.click("#mute")
    assert await me.page.get_attribute("#mute", "aria-pressed") == "true"
    heard = await me.page.evaluate("window.pokerroom.sounds.length")
    them_heard = await them.page.evaluate("window.pokerroom.sounds.length")
    await me.page.click(f"{ROOT} .call")
    await title_starts(them.page, TURN_TITLE)  # their turn now (first: warned 2 s in)
    await them.page.wait_for_function(
        "(n) => window.pokerroom.sounds.slice(n).includes('bet')", arg=them_heard
    )
    await title_starts(me.page, "Stockholm")  # no alert: the table on screen names the tab
    assert await me.page.evaluate("window.pokerroom.sounds.length") == heard
    # The switch is remembered in this browser.
    assert await me.page.evaluate("localStorage.getItem('pokerroom.muted')") == "1"


async def test_busting_shows_the_rebuy_countdown_and_prompt_and_history_signs_results(
    browser: Browser, quiet_room: Room
) -> None:
    """R-STAKE-2: a player who busts sees "Busted" with the time left to rebuy and
    a prompt titled Rebuy; Add chips is disabled at the table's maximum; the hand history
    lists time, table, game, cards and the result signed ("-$200.00")."""
    ann = await new_player(browser, quiet_room, "ann")
    await join(ann, HEADS_UP, 20_000)  # the table's maximum ($200: 100 big blinds)
    add = f"{ROOT} .add-chips"
    await ann.page.wait_for_selector(f"{add}[disabled]")  # alone, between hands, at the max
    assert "maximum" in (await ann.page.get_attribute(add, "title") or "")
    bob = await new_player(browser, quiet_room, "bob")
    await join(bob, HEADS_UP, 20_000)

    # All-in every hand until one of them busts (a split pot deals again).
    players = [ann, bob]
    loser: Player | None = None
    deadline = time.monotonic() + 90
    while loser is None and time.monotonic() < deadline:
        for player in players:
            page = player.page
            if await page.is_visible(f"{ROOT} .seat.you.busted"):
                loser = player
                break
            if not await page.is_visible(f"{ROOT} .actions"):
                continue
            # The buttons go as soon as the frame that ends the turn arrives: a click that
            # finds them gone is skipped (short bound), and the loop looks again.
            with contextlib.suppress(PlaywrightTimeout):
                if await page.is_visible(f"{ROOT} [data-preset='max']"):
                    await page.click(f"{ROOT} [data-preset='max']", timeout=1000)
                    await page.click(f"{ROOT} .raise", timeout=1000)
                else:
                    await page.click(f"{ROOT} .call", timeout=1000)
        await asyncio.sleep(0.05)
    assert loser is not None, "nobody busted"
    winner = bob if loser is ann else ann
    page = loser.page
    assert await page.inner_text(f"{ROOT} .seat.you .status") == "Busted"
    await page.wait_for_function(
        "(root) => /^rebuy within \\d+s$/.test("
        "document.querySelector(`${root} .seat.you .rebuy-clock`).textContent)",
        arg=ROOT,
    )
    frame = await version_frame(loser)
    me = frame["seats"][frame["you"] - 1]
    assert me["status"] == "busted" and 0 < me["rebuy_seconds_left"] <= 60  # the house's 60 s
    prompt = f"{ROOT} .rebuy-prompt"
    assert await page.is_visible(prompt)
    assert await page.inner_text(f"{prompt} h3") == "Rebuy"
    assert await page.get_attribute(prompt, "aria-label") == "Rebuy"
    assert "rebuy within" in await page.inner_text(f"{prompt} .rebuy-clock-you")
    # The winner sees the busted seat and its countdown; their own $400 is over the maximum.
    seat = f"{ROOT} .seat[data-seat='{frame['you']}']"
    await winner.page.wait_for_selector(f"{seat}.busted .rebuy-clock")
    await winner.page.wait_for_selector(f"{ROOT} .add-chips[disabled]")
    await screenshot(page, "table-busted")

    # Rebuy from the prompt: the dialog is titled so, and the seat plays on.
    await page.click(f"{prompt} .rebuy")
    await page.wait_for_selector("#buyin[open]")
    assert (await page.inner_text("#buyin-title")).startswith("Rebuy at Stockholm")
    assert await page.inner_text("#buyin-ok") == "Rebuy"
    await page.fill("#buyin-amount", "40")  # the minimum, 20 big blinds
    await page.click("#buyin-ok")
    await page.wait_for_selector(prompt, state="hidden")
    await page.wait_for_selector(f"{ROOT} .seat.you:not(.busted)")

    # The hand history list: every hand with its time, table, game, own cards and result.
    await page.click(f"{ROOT} [data-side='history']")
    await page.wait_for_selector(f"{ROOT} .history-list [data-hand]")
    async with httpx.AsyncClient(base_url=quiet_room.base, timeout=10) as http:
        response = await http.get(
            "/api/hands",
            params={"table": HEADS_UP},
            headers={"Authorization": f"Bearer {await loser.token()}"},
        )
    hands = [h for h in response.json() if h["status"] == "complete"]
    assert any(h["net"] == -20_000 for h in hands), hands  # the hand that busted the loser
    seen_cards = {
        f["hand"]["number"]: f["seats"][f["you"] - 1]["cards"]
        for f in loser.tables(HEADS_UP)
        if f["you"] and f["hand"] and f["seats"][f["you"] - 1].get("cards")
    }
    for hand in hands:
        row = page.locator(f"{ROOT} .history-list li:has([data-hand='{hand['id']}'])")
        text = await row.inner_text()
        assert "Stockholm" in text and "No Limit Hold'em" in text, text
        net = await row.locator(".hl-net").inner_text()
        assert net == dollars(hand["net"], signed=True), (net, hand)
        assert "$-" not in text
        assert await row.locator("time").get_attribute("datetime") == hand["started_at"]
        cards = await row.locator(".card").evaluate_all("(cs) => cs.map((c) => c.dataset.card)")
        assert cards == hand["cards"] == seen_cards[hand["number"]], (cards, hand)
    await screenshot(page, "history-list")
    await assert_books_balance(quiet_room)  # duck-typed: it reads .database


def hilo_side_pot_hand() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A real Omaha Hi-Lo hand from the engine, as the server reports it: three players all
    in with $6, $14 and $50 at $1/$2, so a side pot and the main pot each split high and low.
    The hand result, and the three seats as a table frame lists them."""
    hand = hilo_all_in_hand()
    result = hand_result("o8-2-4", 7, hand=hand, events=hand.events)
    seats = [
        {
            "seat": seat,
            "empty": False,
            "name": name,
            "stack": hand.stacks[seat - 1],
            "status": "playing",
            "missed_big": False,
            "missed_small": False,
            "connected": True,
            "time_bank": 30.0,
            "in_hand": False,
            "cards": None,
            "bet": 0,
            "last_action": None,
        }
        for seat, name in ((1, "ann"), (2, "bob"), (3, "cat"))
    ]
    return result.model_dump(mode="json", by_alias=True), seats


SHOW_RESULT = """([frame, result]) => {
  const view = window.pokerroom.tables.get(frame.table);
  view.update(frame);
  view.result(result);
  const root = view.root;
  return {
    awarded: root.dataset.awarded,
    rows: [...root.querySelectorAll('.pots .award')].map((r) => [r.className, r.dataset.pot]),
  };
}"""

MARKED = """([root, step]) => {
  const node = document.querySelector(root);
  if (node.dataset.awarded !== step) return false;
  const cards = (mark) => [...node.querySelectorAll(`.card.${mark}`)].map((c) => c.dataset.card);
  return { high: cards('best'), low: cards('best-low') };
}"""


async def test_a_hi_lo_showdown_awards_each_pot_in_turn_names_hands_and_marks_both_fives(
    browser: Browser, quiet_room: Room
) -> None:
    """Side pot first, then the main pot, high before low, one award at a time;
    every shown hand named at its seat; Hi and Lo tags; the high five and the low five
    highlighted. The hand is the engine's and the frames the server's models: they are
    handed to the page's table view as the socket would (no room deals such a hand)."""
    table = "o8-2-4"
    root = f".table-view[data-table='{table}']"
    ann = await new_player(browser, quiet_room, "ann")
    page = ann.page
    await page.click(f"tr[data-table='{table}'] .watch")
    await page.wait_for_selector(f"{root} .seat")
    watched = next(f for f in reversed(ann.frames) if f.get("table") == table)
    result, seats = hilo_side_pot_hand()
    frame = {**watched, "version": watched["version"] + 1000, "hand": None}
    frame["seats"] = seats + frame["seats"][len(seats) :]
    protocol.TableFrame.model_validate(frame)  # a frame the server could send
    protocol.HandResult.model_validate(result)
    first = await page.evaluate(SHOW_RESULT, [frame, result])
    # The first award at once: side pot 1's high half; the others wait their turn.
    assert first["awarded"] == "1"
    assert [pot for _, pot in first["rows"]] == ["1", "1", "0", "0"]
    assert "current" in first["rows"][0][0]
    assert all("pending" in cls for cls, _ in first["rows"][1:])
    shown = {s["seat"]: s for s in result["shown"]}
    # Step 2, side pot 1's low half: only its winner's low five is lit.
    low_winner = result["pots"][1]["winners"][0]["seat"]
    marked = await (await page.wait_for_function(MARKED, arg=[root, "2"])).json_value()
    assert len(marked["low"]) == 5 and set(marked["low"]) == set(shown[low_winner]["low_best"])
    assert marked["high"] == []
    final = await (await page.wait_for_function(MARKED, arg=[root, "4"])).json_value()
    rows = page.locator(f"{root} .pots .award")
    order = [
        (await r.get_attribute("data-pot"), await r.get_attribute("data-share"))
        for r in await rows.all()
    ]
    assert order == [("1", "high"), ("1", "low"), ("0", "high"), ("0", "low")]
    assert [await r.locator(".tag").inner_text() for r in await rows.all()] == [
        "Hi",
        "Lo",
        "Hi",
        "Lo",
    ]
    for award, row in zip(sorted_awards(result), await rows.all(), strict=True):
        who = await row.locator(".who").inner_text()
        hand = award["hand"] and protocol.HandName.model_validate(award["hand"]).english()
        named = hand or award["low"]
        assert named in who, (award, who)
    # The rows do not overlap each other (one line each).
    boxes = [await r.bounding_box() for r in await rows.all()]
    for upper, lower in itertools.pairwise(boxes):
        assert upper and lower and upper["y"] + upper["height"] <= lower["y"] + 0.5
    # Every shown hand is named at its seat, its low too.
    for seat, hand in shown.items():
        plate = f"{root} .seat[data-seat='{seat}']"
        named = protocol.HandName.model_validate(hand["high"]).english()
        assert await page.inner_text(f"{plate} .shown-name") == named
        if hand["low"]:
            assert hand["low"] in await page.inner_text(f"{plate} .shown-low")
    # At the end the high winners' five and the low winners' five are lit, each its colour.
    high = {
        c
        for a in result["pots"]
        if a["share"] == "high"
        for w in a["winners"]
        for c in shown[w["seat"]]["best"]
    }
    low = {
        c
        for a in result["pots"]
        if a["share"] == "low"
        for w in a["winners"]
        for c in shown[w["seat"]]["low_best"]
    }
    assert set(final["high"]) == high and set(final["low"]) == low
    assert low and high
    await screenshot(page, "showdown-hilo")


def sorted_awards(result: dict[str, Any]) -> list[dict[str, Any]]:
    order = {"whole": 0, "high": 0, "low": 1}
    return sorted(result["pots"], key=lambda a: (-a["pot"], order[a["share"]]))
