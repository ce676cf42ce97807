"""Small things a regular notices: two tiled tables at 1366x768 keep the chat's Send button
whole and the seats' text readable (10 px or more); a notice (a tournament started) is shown
as information, not in the error's red; Hungarian says raise *to* ("Emelés eddig: 4 $"), not
raise *by*; a tournament's table is named in the page's language, not the server's English.
The frames are the server's models handed to the page as its socket would."""

from __future__ import annotations

from playwright.async_api import Browser

from pokerroom.server.sockets import protocol
from tests.browser.conftest import Room, new_player, screenshot
from tests.helpers.browser import INJECT, TOURNAMENT_INFO, dealt, watch
from tests.helpers.browser_i18n import switch
from tests.helpers.browser_layout import boxes, inside

NAMES = ["ann", "bob", "cat", "dan", "eve", "fay"]
SOCKET = (
    "(frame) => window.pokerroom.socket.dispatchEvent(new MessageEvent('message', { data: frame }))"
)


async def test_two_tiles_at_1366_keep_send_whole_and_seat_text_readable(
    browser: Browser, quiet_room: Room
) -> None:
    ann = await new_player(browser, quiet_room, "ann")
    page = ann.page
    await page.set_viewport_size({"width": 1366, "height": 768})
    frames = {table: await watch(ann, table) for table in ("nlhe-1-2", "plo-1-2")}
    await page.click("#tabs .tile-toggle")
    await page.wait_for_selector("#tables.tiled")
    for table, frame in frames.items():
        await page.evaluate(INJECT, dealt(frame, NAMES, 2, you=1, turn=table == "plo-1-2"))
    await screenshot(page, "tiled-two-1366")
    window: dict[str, float] = {"x": 0, "y": 0, "width": 1366, "height": 768}
    for table in frames:
        root = f"#tables .table-view[data-table='{table}']"
        (tile,) = await boxes(page, root)
        (send,) = await boxes(page, f"{root} .chat-form button")
        assert send["visible"] and inside(send, tile) and inside(send, window), (table, send)
        sizes = await page.eval_on_selector_all(
            f"{root} .seat .plate .name, {root} .seat .plate .stack",
            "(ns) => ns.map((n) => parseFloat(getComputedStyle(n).fontSize))",
        )
        assert sizes and min(sizes) >= 10, (table, sizes)


async def test_notices_are_information_hungarian_raises_to_and_event_tables_are_named_here(
    browser: Browser, quiet_room: Room
) -> None:
    ann = await new_player(browser, quiet_room, "ann")
    page = ann.page
    # A tournament's notice, on the lobby: information, not an error.
    notice = protocol.TournamentNotice(
        tournament="sng6-1",
        kind="started",
        text="Sit & Go has started",
        code="tournament.started",
        params={"event": "Sit & Go"},
    )
    await page.evaluate(SOCKET, notice.model_dump_json())
    toast = page.locator(".toast", has_text="has started")
    await toast.wait_for()
    assert await toast.get_attribute("class") == "toast info"
    assert await toast.get_attribute("role") == "status"

    watched = await watch(ann, "nlhe-1-2")
    await switch(page, "hu")
    root = ".table-view[data-table='nlhe-1-2']"
    await page.evaluate(INJECT, dealt(watched, NAMES, 2, you=1, turn=True))
    raise_text = await page.inner_text(f"{root} .actions .raise")
    assert raise_text.startswith("Emelés eddig: 4"), raise_text

    # The event's table, named in Hungarian ("1. asztal"), not as the server's English.
    frame = dealt(watched, NAMES, 2, you=1, turn=False)
    frame = {
        **frame,
        "version": frame["version"] + 1,
        "tournament": TOURNAMENT_INFO,
        "name": "sng6-1 table 1",
    }
    protocol.TableFrame.model_validate(frame)
    await page.evaluate(INJECT, frame)
    name = await page.inner_text(f"{root} .table-name")
    assert name == "Sit & Go \u00b7 2. asztal", name  # the table's number: its id's last part
