"""Verifiable shuffles in Chromium: the replayer's "Verify this shuffle" panel recomputes a real
hand's shuffle with Web Crypto and shows its deck, and rejects a tampered verification file; the
page's code computes the same deck as pokerroom/fairness.py; a player who switches it on adds a
seed of her own to every shuffle, and the page checks each reveal (docs/fairness.md)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from playwright.async_api import Browser, Page

from pokerroom.cards import FULL_DECK
from pokerroom.fairness import verify
from tests.browser.conftest import Room, new_player, screenshot
from tests.helpers.browser import finished_hands, join, play
from tests.helpers.fairness import CLIENT_SEEDS, KNOWN_DECK, SERVER_SEED

SEEDED_DECK = """async ([seed, seeds]) => {
  const fairness = await import('/static/js/fairness.js');
  return fairness.seededDeck(Uint8Array.from(seed), seeds);
}"""

CHECKED = """([table, hand]) => {
  const { verified, failed } = window.pokerroom.shuffles;
  return failed.length > 0 || verified.some((e) => e.table === table && e.hand === hand);
}"""


async def shuffle_file(room: Room, token: str, table: str, number: int) -> dict[str, Any]:
    """The verification file of hand ``number`` at ``table``, once its end is written (a hand's
    end is group-committed: it may be listed a moment after its result frame)."""
    async with httpx.AsyncClient(base_url=room.base, timeout=10) as http:
        http.headers["Authorization"] = f"Bearer {token}"
        for _ in range(100):  # bounded: a group commit lands within a few hundred ms
            hands = (await http.get("/api/hands", params={"table": table})).json()
            hand = next((h for h in hands if h["number"] == number), None)
            if hand is not None and hand["status"] == "complete":
                break
            await asyncio.sleep(0.2)
        else:
            raise AssertionError(f"hand {number} at {table} is not listed complete: {hands}")
        response = await http.get(f"/api/hands/{hand['id']}/shuffle.json")
    response.raise_for_status()
    return dict(response.json())


async def seeded_hands(page: Page, table: str) -> set[int]:
    """The hands at ``table`` whose reveal the page checked with its own seed in the shuffle."""
    await asyncio.sleep(0.5)  # (a reveal is checked as it arrives, after the hand's result)
    checked = await page.evaluate("() => window.pokerroom.shuffles")
    return {v["hand"] for v in checked["verified"] if v["table"] == table and v["seeded"]}


async def test_verify_this_shuffle_accepts_a_real_hand_and_rejects_a_tampered_one(
    browser: Browser, room: Room
) -> None:
    vera = await new_player(browser, room, "vera")
    page = vera.page
    # The page's shuffle is the package's, on the documented known answer.
    deck = await page.evaluate(SEEDED_DECK, [list(SERVER_SEED), CLIENT_SEEDS])
    assert deck == KNOWN_DECK

    table = "nlhe-1-2"
    await join(vera, table)
    # Vera adds her own seed to every shuffle (the switch atop the hand history).
    root = f".table-view[data-table='{table}']"
    await page.click(f"{root} [data-side='history']")
    await page.check(f"{root} .vs-seed-on")
    await play([vera], table, hands=2)
    # Her seed goes with the next hand's commitment: a hand dealt before the switch, or before
    # that seed arrived, has none of hers (the page then seeds the one after). The hand
    # checked is her last one the page says it seeded, once its reveal was checked there.
    seeded: set[int] = set()
    for hands in range(3, 9):  # bounded: a seed is late for one hand at most, on a busy machine
        seeded = await seeded_hands(page, table) & finished_hands(vera, table)
        if seeded:
            break
        await play([vera], table, hands=hands)
    assert seeded, await page.evaluate("() => window.pokerroom.shuffles")
    last = max(seeded)
    document = await shuffle_file(room, await vera.token(), table, last)
    verify(document)  # what the room serves checks out in Python too
    assert len(document["client_seeds"]) == 1, document  # hers: the bots add none
    # The page checked every hand's reveal as it came, her seed in each one it seeded (the
    # check runs as the reveal arrives: wait for it, bounded by the page's timeout).
    await page.wait_for_function(CHECKED, arg=[table, document["hand"]])
    checked = await page.evaluate("() => window.pokerroom.shuffles")
    assert checked["failed"] == [], checked
    assert {"table": table, "hand": document["hand"], "seeded": True} in checked["verified"], (
        checked
    )
    # The page received the same reveal after the hand's result (and only then).
    reveals = [
        f
        for f in vera.frames
        if f.get("type") == "deck_reveal" and f["hand_id"] == document["hand_id"]
    ]
    assert [r["deck"] for r in reveals] == [document["deck"]]
    assert reveals[0]["commitment"] == document["commitment"]

    await page.click(f"{root} [data-side='chat']")
    await page.click(f"{root} [data-side='history']")  # the list again, with the new hands
    await page.click(f"{root} .history-list [data-hand='{document['hand_id']}']")
    panel = f"{root} .verify-shuffle"
    await page.click(f"{panel} .vs-run")
    await page.wait_for_selector(f"{panel} .vs-status[data-verdict]")
    assert await page.get_attribute(f"{panel} .vs-status", "data-verdict") == "ok"
    assert (await page.inner_text(f"{panel} .vs-status")).startswith("Verified")
    shown = await page.eval_on_selector_all(
        f"{panel} .vs-deck .card", "(cards) => cards.map((c) => c.dataset.card)"
    )
    assert shown == [str(FULL_DECK[c]) for c in document["deck"]]
    checks = await page.inner_text(f"{panel} .vs-checks")
    assert "your cards" in checks and "make exactly this deck" in checks
    await screenshot(page, "verify-shuffle")

    # A tampered file, checked in the same panel: two cards swapped after the hand.
    tampered = dict(document)
    tampered["deck"] = list(document["deck"])
    tampered["deck"][20], tampered["deck"][30] = tampered["deck"][30], tampered["deck"][20]
    await page.set_input_files(
        f"{panel} .vs-file",
        files=[
            {
                "name": "tampered.json",
                "mimeType": "application/json",
                "buffer": json.dumps(tampered).encode(),
            }
        ],
    )
    await page.wait_for_selector(f"{panel} .vs-status[data-verdict='bad']")
    status = await page.inner_text(f"{panel} .vs-status")
    assert "Not verified (file tampered.json)" in status
    assert "the deck is not the one the seeds make: card 21" in status
    assert await page.locator(f"{panel} .vs-deck .card").count() == 0
    await screenshot(page, "verify-shuffle-tampered")
