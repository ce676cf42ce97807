"""Two decisions made safer: F when checking is free asks first (a second F folds), or checks
(Options); and the raise amount moves a big blind a step, by the arrow keys in its box and by
the wheel over the slider, never by odd cents. The frames are the server's models handed to
the page's table view as the socket would (nothing is dealt); what the page sends is read
off its socket."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Browser, expect

from tests.browser.conftest import Room, new_player
from tests.helpers.browser import INJECT, LEGAL, dealt, watch
from tests.helpers.browser_sent import acts, record_sent

TABLE = "nlhe-1-2"
ROOT = f".table-view[data-table='{TABLE}']"
NAMES = ["ann", "bob", "cat", "dan", "eve", "fay"]

FREE = {**LEGAL, "can_check": True, "call": 0}  # the big blind, checked to


async def wait_acts(page: Any, sent: list[dict[str, Any]], count: int) -> list[str]:
    for _ in range(100):  # bounded: a sent frame reaches Python within moments
        if len(acts(sent)) >= count:
            break
        await page.wait_for_timeout(100)
    return acts(sent)


async def test_f_when_checking_is_free_asks_first_or_checks_as_the_option_says(
    browser: Browser, quiet_room: Room
) -> None:
    ann = await new_player(browser, quiet_room, "ann")
    page = ann.page
    sent: list[dict[str, Any]] = []
    record_sent(page, sent)
    await page.reload()
    await page.wait_for_selector("#lobby-rows tr")
    frame = await watch(ann, TABLE)
    turn = dealt(frame, NAMES, 2, you=1, turn=True)
    turn["hand"]["legal"] = FREE
    await page.evaluate(INJECT, turn)
    await page.wait_for_selector(f"{ROOT} .actions .raise-range")
    await page.click(f"{ROOT} .table-head")

    # The default: F asks (nothing is sent), a second F folds.
    await page.keyboard.press("f")
    notice = page.locator(f"{ROOT} .table-error[data-kind='notice']")
    await expect(notice).to_contain_text("Checking is free")
    await page.wait_for_timeout(300)  # a fold would have gone by now
    assert acts(sent) == []
    await page.keyboard.press("f")
    assert await wait_acts(page, sent, 1) == ["fold"]

    # Checking instead, as the option says: F checks.
    await page.click("#options-open")
    await page.wait_for_selector("#options-form:not([inert])")
    await page.check("#options [name='free-check-f'][value='check']")
    await page.click("#options-save")
    await expect(page.locator("#options")).not_to_be_visible()
    assert (await ann.page.evaluate("window.pokerroom.preferences.free_check_f")) == "check"
    turn = {**turn, "version": turn["version"] + 1}
    await page.evaluate(INJECT, turn)
    await page.wait_for_selector(f"{ROOT} .actions:not([hidden])")
    await page.click(f"{ROOT} .table-head")
    await page.keyboard.press("f")
    assert await wait_acts(page, sent, 2) == ["fold", "check_or_call"]

    # Facing a bet F folds at once, whatever the option.
    turn = dealt(frame, NAMES, 2, you=1, turn=True)
    turn["version"] += 10
    await page.evaluate(INJECT, turn)
    await page.wait_for_selector(f"{ROOT} .actions:not([hidden])")
    await page.click(f"{ROOT} .table-head")
    await page.keyboard.press("f")
    assert await wait_acts(page, sent, 3) == ["fold", "check_or_call", "fold"]


async def test_the_amount_steps_by_the_big_blind_and_the_wheel_moves_the_slider(
    browser: Browser, quiet_room: Room
) -> None:
    ann = await new_player(browser, quiet_room, "ann")
    page = ann.page
    frame = await watch(ann, TABLE)
    await page.evaluate(INJECT, dealt(frame, NAMES, 2, you=1, turn=True))
    await page.wait_for_selector(f"{ROOT} .actions .raise-range")
    amount = page.locator(f"{ROOT} .raise-amount")
    slider = page.locator(f"{ROOT} .raise-range")
    big = frame["big_blind"]
    assert await amount.get_attribute("step") == str(big / 100).removesuffix(".0")
    assert await slider.get_attribute("step") == str(big)
    start = LEGAL["min_raise_to"]
    await expect(amount).to_have_value(str(start / 100).removesuffix(".0"))
    await amount.focus()
    await page.keyboard.press("ArrowUp")
    await page.keyboard.press("ArrowUp")
    assert round(float(await amount.input_value()) * 100) == start + 2 * big
    # The wheel over the slider: a notch up, a big blind more; the page does not scroll.
    box = await slider.bounding_box()
    assert box is not None
    await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    before = await page.evaluate("window.scrollY")
    await page.mouse.wheel(0, -100)
    await expect(slider).to_have_value(str(start + 3 * big))
    assert round(float(await amount.input_value()) * 100) == start + 3 * big
    await page.mouse.wheel(0, 100)
    await expect(slider).to_have_value(str(start + 2 * big))
    assert await page.evaluate("window.scrollY") == before
