"""A table frame whose version skips one (frames lost between the room's nodes):
the page asks for the whole table once (``resync``, as lila-ws's clients do), shows the
frame meanwhile, and asks again only after a later gap; the room answers with the table."""

from __future__ import annotations

import asyncio

from playwright.async_api import Browser

from tests.browser.conftest import Room, new_player

# The page's sends recorded, then frames handed to its table view as the socket would.
FRAMES = """(frames) => {
  const sent = [];
  const socket = window.pokerroom.socket;
  const send = socket.send.bind(socket);
  socket.send = (text) => { sent.push(JSON.parse(text)); send(text); };
  const view = window.pokerroom.tables.get(frames[0].table);
  const shown = [];
  for (const frame of frames) { view.update(frame); shown.push(view.state.version); }
  socket.send = send;
  return { sent, shown };
}"""


async def test_a_skipped_version_asks_for_the_whole_table_once(
    browser: Browser, quiet_room: Room
) -> None:
    table = "nlhe-1-2"
    ann = await new_player(browser, quiet_room, "ann")
    await ann.page.click(f"tr[data-table='{table}'] .watch")
    await ann.page.wait_for_selector(f".table-view[data-table='{table}'] .seat")
    watched = ann.tables(table)[-1]
    v = watched["version"]
    # v+1 in order; v+3 skips v+2 (ask); v+5 while asking (no second ask); v+6 is the
    # answer's next (asking done); v+8 skips again (ask again).
    steps = [v + 1, v + 3, v + 5, v + 6, v + 8]
    answers_before = len(ann.tables(table))
    got = await ann.page.evaluate(FRAMES, [{**watched, "version": n} for n in steps])
    assert got["shown"] == steps  # each frame is the whole table: shown at once
    assert got["sent"] == [{"type": "resync", "table": table}] * 2
    for _ in range(100):  # bounded: the room answers within a few round trips
        if len(ann.tables(table)) >= answers_before + 2:
            break
        await asyncio.sleep(0.05)
    answers = ann.tables(table)[answers_before:]
    assert len(answers) >= 2 and all(a["table"] == table for a in answers)
