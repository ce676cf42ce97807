"""The keyboard at the table: the Options switch turns off the single-key shortcuts that act
(F, C/K, R, 1-4) and nothing else (the arrow keys still nudge the raise, Escape still closes
a dialog); and no shortcut acts at a table while a dialog has the keyboard."""

from __future__ import annotations

import asyncio
from typing import Any

from playwright.async_api import Browser, Route, expect

from tests.browser.conftest import Room, new_player
from tests.helpers.browser import INJECT, dealt, save, watch
from tests.helpers.browser_sent import acts, record_sent

TABLE = "nlhe-1-2"
ROOT = f".table-view[data-table='{TABLE}']"
NAMES = ["ann", "bob", "cat", "dan", "eve", "fay"]


async def test_hotkeys_off_turns_off_only_the_action_keys_and_dialogs_keep_the_keyboard(
    browser: Browser, quiet_room: Room
) -> None:
    ann = await new_player(browser, quiet_room, "ann")
    page = ann.page
    sent: list[dict[str, Any]] = []
    record_sent(page, sent)
    await page.reload()  # the socket again, now recorded
    await page.wait_for_selector("#lobby-rows tr")
    frame = await watch(ann, TABLE)
    turn = dealt(frame, NAMES, 2, you=1, turn=True)
    await page.evaluate(INJECT, turn)  # ann's decision (the client's view; nothing is sent)
    await page.wait_for_selector(f"{ROOT} .actions .raise-range")
    amount = page.locator(f"{ROOT} .raise-amount")

    # Shortcuts on, but a dialog open: its keys are its own; Escape closes it.
    await page.click("#options-open")
    await page.wait_for_selector("#options[open]")
    await page.focus("#opt-hotkeys")
    await page.keyboard.press("f")
    await page.keyboard.press("c")
    await page.keyboard.press("Escape")
    await expect(page.locator("#options")).not_to_be_visible()
    await page.wait_for_timeout(300)  # a fold would have gone by now
    assert acts(sent) == []

    # Shortcuts off: F, C, K, R and 1-4 do nothing; the arrows still nudge the raise.
    await save(page, deck="four", auto_muck=True, hotkeys=False, presets=[50, 75, 100])
    await expect(page.locator("#options")).not_to_be_visible()
    await page.click(f"{ROOT} .table-head")
    before = await amount.input_value()
    for key in ("f", "c", "k", "r", "1", "4"):
        await page.keyboard.press(key)
    assert await amount.input_value() == before
    await page.keyboard.press("ArrowUp")
    await expect(amount).not_to_have_value(before)  # one big blind more
    await page.click("#options-open")
    await page.wait_for_selector("#options[open]")
    await page.keyboard.press("Escape")
    await expect(page.locator("#options")).not_to_be_visible()
    await page.wait_for_timeout(300)
    assert acts(sent) == []

    # On again: F folds at the table.
    await save(page, deck="four", auto_muck=True, hotkeys=True, presets=[50, 75, 100])
    await expect(page.locator("#options")).not_to_be_visible()
    await page.click(f"{ROOT} .table-head")
    await page.keyboard.press("f")
    for _ in range(50):  # bounded: the frame event reaches Python within moments
        if acts(sent):
            break
        await page.wait_for_timeout(100)
    assert acts(sent) == ["fold"]


async def test_the_options_dialog_has_the_keyboard_from_the_click_not_from_the_answer(
    browser: Browser, quiet_room: Room
) -> None:
    """The dialog opens at the click, before the account's preferences are read: a key
    pressed meanwhile is the dialog's, not a shortcut at the table; the form takes input
    once they are read."""
    ann = await new_player(browser, quiet_room, "ann")
    page = ann.page
    sent: list[dict[str, Any]] = []
    record_sent(page, sent)
    await page.reload()
    await page.wait_for_selector("#lobby-rows tr")
    frame = await watch(ann, TABLE)
    await page.evaluate(INJECT, dealt(frame, NAMES, 2, you=1, turn=True))
    await page.wait_for_selector(f"{ROOT} .actions .raise-range")
    answer = asyncio.Event()

    async def slow(route: Route) -> None:
        if route.request.method == "GET":
            await asyncio.wait_for(answer.wait(), 30)  # bounded
        await route.continue_()

    await page.route("**/api/preferences", slow)
    await page.click(f"{ROOT} .table-head")
    await page.click("#options-open")
    await expect(page.locator("#options")).to_be_visible()  # the answer is still held
    assert await page.locator("#options-form").evaluate("form => form.inert")
    await page.keyboard.press("f")
    await page.keyboard.press("c")
    await page.wait_for_timeout(300)  # a fold would have gone by now
    assert acts(sent) == []
    answer.set()
    await expect(page.locator("#options-form")).to_have_js_property("inert", False)
    await page.keyboard.press("Escape")
    await expect(page.locator("#options")).not_to_be_visible()
    assert acts(sent) == []
