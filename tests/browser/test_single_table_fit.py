"""The single-table view fits the window from 1280x720 up, as tiles do: at your turn the
action buttons, the bet slider and box, the bet-size buttons and the clock lie inside the
viewport without scrolling, the felt and every seat too. The frames are the server's models
handed to the page's table view as the socket would (test_layout.py's way)."""

from __future__ import annotations

from playwright.async_api import Browser

from tests.browser.conftest import Room, new_player, screenshot
from tests.helpers.browser import INJECT, dealt, watch
from tests.helpers.browser_layout import boxes, inside

SIZES = ((1280, 720), (1366, 768), (1440, 900), (1920, 1080))
TEN = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ida", "jon"]

YOUR_TURN = (
    ".actions .fold",
    ".actions .call",
    ".actions .raise",
    ".actions .raise-range",
    ".actions .raise-amount",
    ".actions .presets button",
    ".actions .clock",
    ".felt",
    ".seat",
)


async def test_the_single_table_view_fits_the_window_from_1280x720_up(
    browser: Browser, quiet_room: Room
) -> None:
    """Six and ten seats at your turn, one table open, at 1280x720, 1366x768, 1440x900 and
    1920x1080: every button box, the slider, the amount box, the clock, the felt and the
    seats are inside the window with the page scrolled to its top, and the page does not
    scroll at all."""
    ann = await new_player(browser, quiet_room, "ann")
    page = ann.page
    for table, names in (("nlhe-1-2", TEN[:6]), ("casino-nlhe", TEN)):
        watched = await watch(ann, table)
        await page.evaluate(INJECT, dealt(watched, names, 2, you=1, turn=True))
        root = f".table-view[data-table='{table}']"
        await page.wait_for_selector(f"{root} .actions .raise-range")
        for width, height in SIZES:
            await page.set_viewport_size({"width": width, "height": height})
            await page.evaluate("window.scrollTo(0, 0)")
            window: dict[str, float] = {"x": 0, "y": 0, "width": width, "height": height}
            for selector in YOUR_TURN:
                found = await boxes(page, f"{root} {selector}")
                assert found, (table, selector)
                for box in found:
                    assert box["visible"], (table, width, height, selector)
                    assert inside(box, window), (table, width, height, selector, box)
            size = await page.evaluate(
                "() => [document.documentElement.scrollHeight, window.innerHeight]"
            )
            assert size[0] <= size[1], (table, width, height, size)
            if table == "nlhe-1-2" and (width, height) in ((1280, 720), (1366, 768)):
                await screenshot(page, f"single-table-{width}x{height}")
        await page.click(f"{root} .close-table")
