"""The options, saved with the account (GET/PUT /api/preferences): the deck's colours,
auto-muck (applied by the server: the seat's option in the frames), keyboard shortcuts and
the bet-size buttons in percent of the pot, on keys 1 to 4. Changed, they stay after a reload
and on another device; a bad value is refused and changes nothing."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from playwright.async_api import Browser, Page

from tests.browser.conftest import Player, Room, new_player, screenshot
from tests.helpers.browser import join, save, to_cents

TABLE = "nlhe-1-2"
ROOT = f".table-view[data-table='{TABLE}']"

# The colour of a card of each suit, as the page draws them with its current deck.
SUIT_COLOURS = """async () => {
  const { cardEl } = await import('/static/js/dom.js');
  const colours = {};
  for (const suit of 'shdc') {
    const card = cardEl('A' + suit);
    document.body.append(card);
    colours[suit] = getComputedStyle(card).color;
    card.remove();
  }
  return colours;
}"""


async def options_shown(page: Page) -> dict[str, Any]:
    await page.click("#options-open")
    await page.wait_for_selector("#options[open]")
    # The form takes input (and shows what it holds) once the account's preferences are
    # read: inert until then (options.js), showing what the page had before.
    await page.wait_for_selector("#options-form:not([inert])")
    shown = {
        "deck": await page.eval_on_selector("#options [name='deck']:checked", "(r) => r.value"),
        "auto_muck": await page.is_checked("#opt-auto-muck"),
        "hotkeys": await page.is_checked("#opt-hotkeys"),
        "bet_presets": [
            int(v)
            for v in await page.eval_on_selector_all(
                ".opt-preset", "(inputs) => inputs.map((i) => i.value)"
            )
            if v
        ],
    }
    await page.click("#options-cancel")
    return shown


async def my_turn(player: Player, seconds: float = 90) -> dict[str, Any]:
    """Wait (bounded) until the player may raise; the frame on screen then. Other decisions
    are answered by a call or check so the hand goes on."""
    page = player.page
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await page.is_visible(f"{ROOT} .actions"):
            version = int(await page.get_attribute(ROOT, "data-version") or -1)
            frame = await player.frame(TABLE, version)
            legal = frame["hand"] and frame["hand"]["legal"]
            if (
                legal
                and legal["min_raise_to"] is not None
                and frame["hand"]["actor"] == frame["you"]
            ):
                if legal["max_raise_to"] > legal["min_raise_to"]:
                    return frame
                await page.click(f"{ROOT} .call")
        await asyncio.sleep(0.1)
    raise AssertionError("the player was never offered a raise")


def share_of_pot(legal: dict[str, Any], percent: int) -> int:
    """A bet of ``percent`` of the pot after calling, on top of the current bet, kept legal."""
    to = legal["current_bet"] + (legal["pot"] + legal["call"]) * percent // 100
    return int(max(legal["min_raise_to"], min(legal["max_raise_to"], to)))


async def test_options_are_saved_per_account_and_work_at_the_table(
    browser: Browser, room: Room
) -> None:
    ann = await new_player(browser, room, "ann")
    page = ann.page
    defaults = {"deck": "four", "auto_muck": True, "hotkeys": True, "bet_presets": [50, 75, 100]}
    assert await options_shown(page) == defaults
    four = await page.evaluate(SUIT_COLOURS)
    assert len(set(four.values())) == 4, four

    # A bad value is refused by the server, named in the dialog, and nothing changes.
    await save(page, deck="two", auto_muck=True, hotkeys=True, presets=[50, 50])
    await page.wait_for_function("() => document.querySelector('#options-error').textContent")
    assert "distinct" in await page.inner_text("#options-error")
    await page.click("#options-cancel")
    assert await options_shown(page) == defaults

    chosen = {"deck": "two", "auto_muck": True, "hotkeys": True, "bet_presets": [33, 150]}
    await save(page, deck="two", auto_muck=True, hotkeys=True, presets=[33, 150])
    await page.wait_for_selector("#options[open]", state="detached")
    assert await options_shown(page) == chosen
    # The two-colour deck: hearts and diamonds one red, spades and clubs one black.
    two = await page.evaluate(SUIT_COLOURS)
    assert len(set(two.values())) == 2 and two["h"] == two["d"] and two["s"] == two["c"], two

    # At the table: the bet buttons are hers (Min, 33%, 150%, All-in), on keys 1 and 2; the
    # server applies auto-muck at her seat (its option in her frames).
    await join(ann, TABLE)
    frame = await my_turn(ann)
    assert frame["options"]["auto_muck"] is True
    names = await page.eval_on_selector_all(
        f"{ROOT} .presets [data-preset]", "(bs) => bs.map((b) => b.dataset.preset)"
    )
    assert names == ["min", "p33", "p150", "max"]
    legal = frame["hand"]["legal"]
    await page.click(f"{ROOT} .table-head")  # the shortcuts act on this table
    for key, percent in (("1", 33), ("2", 150)):
        await page.keyboard.press(key)
        assert to_cents(await page.input_value(f"{ROOT} .raise-amount")) == share_of_pot(
            legal, percent
        ), (key, legal)
        assert int(await page.get_attribute(f"{ROOT} .raise", "data-amount") or -1) == (
            share_of_pot(legal, percent)
        )
    await screenshot(page, "options-presets")
    await page.click(f"{ROOT} .call")

    # Kept after a reload, and on another device after logging in.
    await page.reload()
    await page.wait_for_selector(f"{ROOT} .seat.you")
    assert await options_shown(page) == chosen
    assert await page.evaluate("() => document.body.classList.contains('deck-two')")
    context = await browser.new_context(viewport={"width": 1360, "height": 900})
    other = await context.new_page()
    await other.goto(room.base + "/")
    await other.fill("#username", "ann")
    await other.fill("#password", "correct horse battery")
    await other.click("#login")
    await other.wait_for_selector(f"{ROOT} .seat.you")
    assert await options_shown(other) == chosen
    assert len(set((await other.evaluate(SUIT_COLOURS)).values())) == 2

    # Shortcuts off (from the other device): a key does nothing, the key hints go.
    await save(other, deck="four", auto_muck=False, hotkeys=False, presets=[100])
    await other.wait_for_selector("#options[open]", state="detached")
    await page.reload()
    await page.wait_for_selector(f"{ROOT} .seat.you")
    assert (await options_shown(page))["hotkeys"] is False
    frame = await my_turn(ann)
    assert frame["options"]["auto_muck"] is False  # the server follows the change
    before = await page.input_value(f"{ROOT} .raise-amount")
    await page.click(f"{ROOT} .table-head")
    await page.keyboard.press("1")
    await page.keyboard.press("f")
    assert await page.input_value(f"{ROOT} .raise-amount") == before
    assert await page.is_visible(f"{ROOT} .actions")  # not folded
    assert await page.is_hidden(f"{ROOT} .fold kbd")
    await context.close()
