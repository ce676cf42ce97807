"""All my hands in the lobby: the hands a player played, searched by number, downloaded as
one PokerStars-style file named as trackers look for it (HH...), and one opened in the
replayer beside its table."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser

from tests.browser.conftest import HEADS_UP, Room, screenshot
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
