"""A finished hand replayed on a felt drawn by the table's own felt.js (step back
and forward, play and pause, speed), not as text in a side panel. What the felt shows at
each step (board, stacks, bets, the pot) is checked against the hand's stored record,
replayed here in Python by the engine from the database."""

from __future__ import annotations

import sqlite3
from typing import Any

import httpx
from playwright.async_api import Browser, Page

from pokerroom.engine.events import ForcedBet
from pokerroom.engine.hand import Hand
from pokerroom.history.record import read_record
from tests.browser.conftest import Room, new_player, screenshot
from tests.helpers.browser import dollars, join, play

TABLE = "nlhe-1-2"
ROOT = f".table-view[data-table='{TABLE}']"
STAGE = f"{ROOT} .replayer"

SHOWN = """(stage) => {
  const node = document.querySelector(stage);
  const seats = {};
  for (const seat of node.querySelectorAll('.seat:not(.empty)')) {
    const bet = seat.querySelector('.bet');
    seats[seat.dataset.seat] = {
      stack: Number(seat.querySelector('.stack').dataset.chips),
      bet: bet ? Number(bet.dataset.chips) : 0,
      cards: [...seat.querySelectorAll('.hole .card')].map((c) => c.dataset.card || null),
    };
  }
  const pot = node.querySelector('.pot-total');
  return {
    step: Number(node.dataset.step),
    board: [...node.querySelectorAll('.board .card')].map((c) => c.dataset.card),
    pot: pot.hidden ? null : pot.textContent,
    seats,
  };
}"""


def stored_hand(room: Room, hand_id: int) -> Hand:
    """The hand as stored: its record read from the database and replayed by the engine."""
    path = room.database.split(":///", 1)[1]
    with sqlite3.connect(path) as db:
        (text,) = db.execute("SELECT record FROM hands WHERE id = ?", (hand_id,)).fetchone()
    return read_record(text)


async def replay_of(room: Room, token: str, hand_id: int) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=room.base, timeout=10) as http:
        response = await http.get(
            f"/api/hands/{hand_id}/replay", headers={"Authorization": f"Bearer {token}"}
        )
    response.raise_for_status()
    return dict(response.json())


async def on_felt(page: Page) -> dict[str, Any]:
    return dict(await page.evaluate(SHOWN, STAGE))


def check(shown: dict[str, Any], frame: dict[str, Any]) -> None:
    assert shown["board"] == frame["board"], (shown, frame)
    for seat in frame["seats"]:
        drawn = shown["seats"][str(seat["seat"])]
        assert drawn["stack"] == seat["stack"], (drawn, seat)
        assert drawn["bet"] == seat["bet"], (drawn, seat)
        if seat["cards"] and not seat["folded"]:  # a folded hand leaves the felt
            assert drawn["cards"] == seat["cards"]
    if frame["result"] is None:
        assert shown["pot"] == f"Pot: {dollars(sum(frame['pots']))}"
    else:
        assert shown["pot"] is None  # the awards instead


async def test_a_finished_hand_replays_on_the_felt_step_by_step_and_at_speed(
    browser: Browser, room: Room
) -> None:
    ann = await new_player(browser, room, "ann")
    page = ann.page
    await join(ann, TABLE)
    await play([ann], TABLE, hands=3)
    token = await ann.token()
    async with httpx.AsyncClient(base_url=room.base, timeout=10) as http:
        hands = (
            await http.get(
                "/api/hands",
                params={"table": TABLE},
                headers={"Authorization": f"Bearer {token}"},
            )
        ).json()
    done = [h for h in hands if h["status"] == "complete"]
    replays = {h["id"]: await replay_of(room, token, h["id"]) for h in done}
    # The hand that went furthest: the most board cards, then the most steps.
    hand_id = max(
        replays,
        key=lambda i: (len(replays[i]["frames"][-1]["board"]), len(replays[i]["frames"])),
    )
    replay = replays[hand_id]
    frames = replay["frames"]
    # The frames agree with the stored hand: blinds first, the flop, the end.
    hand = stored_hand(room, hand_id)
    forced = {e.seat: 0 for e in hand.events if isinstance(e, ForcedBet)}
    for e in hand.events:
        if isinstance(e, ForcedBet):
            forced[e.seat] += e.amount
    start = {p.seat: p.stack for p in hand.setup.players}
    first = {s["seat"]: s for s in frames[0]["seats"]}
    for seat, posted in forced.items():
        assert first[seat]["bet"] == posted and first[seat]["stack"] == start[seat] - posted
    board = [str(c) for c in hand.board_cards()]
    flop = next((f for f in frames if len(f["board"]) == 3), None)
    assert flop is None or flop["board"] == board[:3]
    assert frames[-1]["board"] == board
    end = {s["seat"]: s["stack"] for s in frames[-1]["seats"]}
    assert end == {hand.seats[i]: hand.stacks[i] for i in range(hand.n)}

    await page.click(f"{ROOT} [data-side='history']")
    await page.click(f"{ROOT} .history-list [data-hand='{hand_id}']")
    await page.wait_for_selector(f"{STAGE}[data-step='0']")
    assert await page.is_visible(f"{ROOT} > .felt-wrap")  # a panel beside the live felt
    check(await on_felt(page), frames[0])
    assert await page.is_disabled(f"{STAGE} .rp-prev")
    # Forward a step at a time, and back one.
    for n in range(1, min(len(frames), 6)):
        await page.click(f"{STAGE} .rp-next")
        await page.wait_for_selector(f"{STAGE}[data-step='{n}']")
        check(await on_felt(page), frames[n])
    if len(frames) > 2:
        await page.click(f"{STAGE} .rp-prev")
        shown = await on_felt(page)
        check(shown, frames[shown["step"]])
    # The end: the result's board, stacks, and the awards in the middle.
    await page.click(f"{STAGE} .rp-last")
    last = len(frames) - 1
    await page.wait_for_selector(f"{STAGE}[data-step='{last}']")
    check(await on_felt(page), frames[last])
    assert await page.locator(f"{STAGE} .pots .award").count() == len(
        frames[last]["result"]["pots"]
    )
    await screenshot(page, "replayer-end")
    # Play at 4x from the start: it runs to the end by itself and stops.
    await page.select_option(f"{STAGE} .rp-speed", "4")
    await page.click(f"{STAGE} .rp-play")
    assert await page.get_attribute(f"{STAGE} .rp-play", "aria-pressed") == "true"
    await page.wait_for_selector(f"{STAGE}[data-step='{last}'] .rp-play[aria-pressed='false']")
    check(await on_felt(page), frames[last])
    # Back to the table.
    await page.click(f"{STAGE} .rp-close")
    assert await page.is_hidden(STAGE) and await page.is_visible(f"{ROOT} > .felt-wrap")
