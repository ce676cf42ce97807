"""The table's layout: phone width (390x844), ten seats and Omaha's four cards on
the felt, and tiled tables at 1400x900. Measured by the boxes Chromium lays out. Where no
room deals such a table (ten long names, a turn at each of four tables), the frames are
the server's models handed to the page's table view as the socket would."""

from __future__ import annotations

import itertools

from playwright.async_api import Browser, Page

from tests.browser.conftest import HEADS_UP, Room, new_player, screenshot
from tests.helpers.browser import INJECT, dealt, join, watch, whose_turn
from tests.helpers.browser_layout import PHONE, boxes, inside, overlaps

DESK = {"width": 1400, "height": 900}
LONG = "Maximilian_Oppenheimer_Strand_32"  # the longest username (32 characters)

OVERFLOW = """() => ({
  scrollWidth: document.documentElement.scrollWidth,
  scrollHeight: document.documentElement.scrollHeight,
  innerWidth: window.innerWidth,
  innerHeight: window.innerHeight,
})"""


async def no_overflow(page: Page, *, vertical: bool = False) -> None:
    size = await page.evaluate(OVERFLOW)
    assert size["scrollWidth"] <= size["innerWidth"], size
    if vertical:
        assert size["scrollHeight"] <= size["innerHeight"], size


async def test_phone_width_has_no_overflow_a_compact_header_and_the_actions_on_screen(
    browser: Browser, quiet_room: Room
) -> None:
    """Phone width (390x844): the lobby and the table never scroll sideways, the
    header is one compact row, and at your turn the action buttons and the bet slider are
    within the first screen (no scrolling to act)."""
    ann = await new_player(browser, quiet_room, "ann", width=PHONE["width"])
    bob = await new_player(browser, quiet_room, "bob", width=PHONE["width"])
    for player in (ann, bob):
        await player.page.set_viewport_size(PHONE)
    await no_overflow(ann.page)
    header = (await boxes(ann.page, ".topbar"))[0]
    assert header["height"] <= 52, header  # one row: brand, tabs, balance, log out
    await screenshot(ann.page, "phone-lobby")
    await join(ann, HEADS_UP, 10_000)
    await join(bob, HEADS_UP, 10_000)
    me = await whose_turn([ann, bob])
    page = me.page
    root = f".table-view[data-table='{HEADS_UP}']"
    await page.wait_for_selector(f"{root} .raise-range")
    await no_overflow(page)
    header = (await boxes(page, ".topbar"))[0]
    assert header["height"] <= 52, header
    controls = [
        f"{root} .fold",
        f"{root} .call",
        f"{root} .raise",
        f"{root} .raise-range",
        f"{root} .raise-amount",
    ]
    for selector in controls:
        (box,) = await boxes(page, selector)
        assert box["visible"], selector
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (selector, box)
        assert box["y"] + box["height"] <= PHONE["height"], (selector, box)
    await page.evaluate("window.scrollTo(0, 0)")
    await screenshot(page, "phone-your-turn")


async def test_ten_seats_fit_the_felt_long_names_are_cut_and_omaha_cards_leave_markers_free(
    browser: Browser, quiet_room: Room
) -> None:
    """Big tables and Omaha: ten seats with the longest names each stay on the
    felt and clear of every other seat; a cut name ends in an ellipsis and keeps the whole
    name as its tooltip; four hole cards at an Omaha table cover neither the dealer button
    nor the blind markers."""
    ann = await new_player(browser, quiet_room, "ann")
    page = ann.page
    await page.set_viewport_size(DESK)
    watched = await watch(ann, "casino-nlhe")
    names = [f"{LONG[: 26 + n % 7]}" for n in range(10)]
    await page.evaluate(INJECT, dealt(watched, names, 2, you=1, turn=False))
    root = ".table-view[data-table='casino-nlhe']"
    for viewport, shot in ((DESK, "ten-seats"), (PHONE, "ten-seats-phone")):
        await page.set_viewport_size(viewport)
        await screenshot(page, shot)
        (felt,) = await boxes(page, f"{root} .felt")
        seats = await boxes(page, f"{root} .seat")
        assert len(seats) == 10
        for n, box in enumerate(seats, 1):
            assert inside(box, felt), (viewport, n, box, felt)
        for (a, first), (b, second) in itertools.combinations(enumerate(seats, 1), 2):
            assert not overlaps(first, second), (viewport, a, b, first, second)
    await page.set_viewport_size(DESK)
    cut = await page.eval_on_selector_all(
        f"{root} .seat .name",
        """(nodes) => nodes.map((n) => ({
             title: n.title, text: n.textContent, cut: n.scrollWidth > n.clientWidth,
             ellipsis: getComputedStyle(n).textOverflow }))""",
    )
    assert [c["title"] for c in cut] == names
    assert all(c["cut"] and c["ellipsis"] == "ellipsis" for c in cut), cut

    watched = await watch(ann, "o8-2-4")
    names = ["ann", LONG, "cat", "dan", LONG[:20], "eve"]
    await page.evaluate(INJECT, dealt(watched, names, 4, you=1, turn=False))
    root = ".table-view[data-table='o8-2-4']"
    await screenshot(page, "omaha-markers")
    markers = await boxes(page, f"{root} .badge")
    assert len(markers) == 3  # D, SB, BB
    cards = await boxes(page, f"{root} .seat .hole .card")
    assert len(cards) == 24
    for marker in markers:
        assert marker["visible"]
        for card in cards:
            assert not overlaps(marker, card), (marker, card)


async def within_tiles(page: Page) -> None:
    """Every table's seats and controls lie inside its own tile, and the tiles in the window."""
    for table in await page.eval_on_selector_all(
        "#tables .table-view", "(views) => views.map((v) => v.dataset.table)"
    ):
        root = f"#tables .table-view[data-table='{table}']"
        (tile,) = await boxes(page, root)
        assert inside(tile, {"x": 0, "y": 0, **DESK}), (table, tile)
        for selector in (".fold", ".raise", ".raise-range", ".raise-amount", ".seat", ".felt"):
            for box in await boxes(page, f"{root} {selector}"):
                if box["visible"]:
                    assert inside(box, tile), (table, selector, box, tile)


async def test_tiled_tables_fit_the_window_and_the_table_that_needs_you_stands_out(
    browser: Browser, quiet_room: Room
) -> None:
    """Multi-tabling at 1400x900: two and then four tiled tables fit the window
    without scrolling, the controls of a table at your turn included; that table is
    outlined, and the keyboard's shortcuts act on it even when another table was clicked
    last."""
    ann = await new_player(browser, quiet_room, "ann")
    page = ann.page
    await page.set_viewport_size(DESK)
    frames = {}
    for table in ("nlhe-1-2", "plo-1-2"):
        frames[table] = await watch(ann, table)
    await page.click("#tabs .tile-toggle")
    await page.wait_for_selector("#tables.tiled")
    names = ["ann", "bob", "cat", "dan", "eve", "fay"]
    await page.evaluate(INJECT, dealt(frames["plo-1-2"], names, 4, you=1, turn=True))
    plo = ".table-view[data-table='plo-1-2']"
    await page.wait_for_selector(f"{plo} .actions .raise-range")
    await screenshot(page, "tiled-two")
    await no_overflow(page, vertical=True)
    await within_tiles(page)

    for table in ("flhe-2-4", "casino-nlhe"):
        frames[table] = await watch(ann, table)
    await page.wait_for_selector("#tables.tiled")  # opening more tables keeps them tiled
    await screenshot(page, "tiled-four")
    tiles = await boxes(page, "#tables .table-view")
    assert len(tiles) == 4 and all(t["visible"] for t in tiles)
    await no_overflow(page, vertical=True)
    for a, b in itertools.combinations(tiles, 2):
        assert not overlaps(a, b)
    await within_tiles(page)
    # The table at your turn is outlined; the others are not.
    needs = await page.eval_on_selector_all(
        "#tables .table-view",
        """(views) => views.map((v) => [v.dataset.table, v.classList.contains('needs-you'),
                                        getComputedStyle(v).outlineStyle])""",
    )
    assert [t for t, flag, _ in needs if flag] == ["plo-1-2"], needs
    assert all((style != "none") == flag for _, flag, style in needs), needs
    # Another table was clicked last; the shortcut still folds at the table that needs you.
    await page.click(".table-view[data-table='casino-nlhe'] .table-head")
    await page.keyboard.press("f")
    await page.wait_for_selector(f"{plo} .actions", state="hidden")
