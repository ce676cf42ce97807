"""The replayer opens in a panel of its own beside the live table, never over it: while a
finished hand is replayed the live felt, every live seat, the player's own buttons and clock
stay in view, none of them under the replayer, and a decision in the live hand can be made
(the Fold button is the element at its own centre)."""

from __future__ import annotations

import time

from playwright.async_api import Browser

from tests.browser.conftest import HEADS_UP, Room, screenshot
from tests.helpers.browser import sit_both, whose_turn
from tests.helpers.browser_layout import boxes, overlaps

ROOT = f".table-view[data-table='{HEADS_UP}']"
STAGE = f"{ROOT} .replayer"
TOP = """(selector) => {
  const node = document.querySelector(selector);
  const r = node.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return Boolean(top && node.contains(top));
}"""


async def test_the_replayer_is_a_panel_beside_the_live_table_never_over_it(
    browser: Browser, quiet_room: Room
) -> None:
    ann, bob = await sit_both(browser, quiet_room, 10_000)
    first = await whose_turn([ann, bob])
    await first.page.click(f"{ROOT} .actions .fold")  # the hand ends: one to replay
    page = ann.page
    await page.click(f"{ROOT} [data-side='history']")
    await page.wait_for_selector(f"{ROOT} .history-list [data-hand]")
    await page.click(f"{ROOT} .history-list [data-hand] >> nth=0")
    await page.wait_for_selector(f"{STAGE}[data-step='0']")

    # Ann's own decision in the live hand, the replayer still open (bob checks or calls).
    deadline = time.monotonic() + 60
    while not await page.is_visible(f"{ROOT} .actions"):
        assert time.monotonic() < deadline, "ann was never asked to act"
        if await bob.page.is_visible(f"{ROOT} .actions"):
            await bob.page.click(f"{ROOT} .actions .call")
        await page.wait_for_timeout(100)
    assert await page.is_visible(STAGE)
    await page.evaluate("window.scrollTo(0, 0)")
    (panel,) = await boxes(page, STAGE)
    live = [
        *(await boxes(page, f"{ROOT} > .felt-wrap > .felt")),
        *(await boxes(page, f"{ROOT} > .felt-wrap .seat")),
        *(await boxes(page, f"{ROOT} .actions .fold")),
        *(await boxes(page, f"{ROOT} .actions .clock")),
    ]
    assert len(live) >= 5, live  # the felt, two seats, the button and the clock
    for box in live:
        assert box["visible"], live
        assert not overlaps(box, panel), (box, panel)
    assert await page.evaluate(TOP, f"{ROOT} .actions .fold")
    await screenshot(page, "replayer-beside-the-table")
    await page.click(f"{ROOT} .actions .fold")
    await page.wait_for_selector(f"{ROOT} .actions", state="hidden")
    await page.click(f"{STAGE} .rp-close")
    await page.wait_for_selector(STAGE, state="hidden")
