"""Accessibility: axe-core (vendored from its npm package in ``vendor/``, served to
the page by Playwright only, never by the room) finds no serious or critical violation on
the sign-in page, the lobby and a table with a hand in progress; cards, seats, markers and
controls have the names a screen reader says; other players' actions are announced in a
polite live region; and Enter in sign-up mode signs up."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import Browser

from tests.browser.conftest import EVERY_TABLE, Player, Room, new_player, screenshot
from tests.helpers.browser import join, serious_violations, take_turn

TABLE = "nlhe-1-2"
ROOT = f".table-view[data-table='{TABLE}']"

RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "9": "nine"}
RANKS |= {"8": "eight", "7": "seven", "6": "six", "5": "five", "4": "four", "3": "three"}
RANKS |= {"2": "two"}
SUITS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}


# The face-up cards as one moment of the page shows them (null while there are none: the
# hand can end, and the felt clear, between a wait for the cards and a later read of them).
ACCESSIBLE_CARDS = """(root) => {
  const cards = [...document.querySelectorAll(`${root} .card[data-card]`)]
    .map((c) => [c.dataset.card, c.getAttribute('role'), c.getAttribute('aria-label')]);
  return cards.length ? cards : null;
}"""


def spoken(card: str) -> str:
    return f"{RANKS[card[0]]} of {SUITS[card[1]]}"


@pytest.mark.room(bot_tables=EVERY_TABLE, sit_and_go=True)  # the lobby as the room shows it
async def test_axe_finds_nothing_serious_on_sign_in_lobby_and_a_table_in_play(
    browser: Browser, room: Room
) -> None:
    context = await browser.new_context(viewport={"width": 1360, "height": 900})
    page = await context.new_page()
    await page.goto(room.base + "/")
    await page.wait_for_selector("#auth-form")
    assert await serious_violations(page, room.base) == []
    await context.close()

    ann = await new_player(browser, room, "ann")
    page = ann.page
    assert await serious_violations(page, room.base) == []
    await join(ann, TABLE)
    await page.wait_for_selector(f"{ROOT} .seat.you .hole .card[data-card]")  # a hand is on
    await page.wait_for_selector(f"{ROOT} .badge")
    found = await serious_violations(page, room.base)
    assert found == [], found
    await screenshot(page, "accessibility-table")


# The table's button and blind badges' texts in one reading, once a hand shows its button.
BADGES = """(root) => {
  const texts = (kind) => [...document.querySelectorAll(`${root} .badge.${kind}`)]
    .map((badge) => badge.textContent);
  const dealer = texts("dealer");
  return dealer.length ? { dealer, blinds: texts("blind") } : null;
}"""


async def test_cards_seats_markers_and_controls_are_named_and_actions_announced(
    browser: Browser, room: Room
) -> None:
    ann = await new_player(browser, room, "ann")
    page = ann.page
    await join(ann, TABLE)
    await page.wait_for_selector(f"{ROOT} .seat.you .hole .card[data-card]")
    # Every face-up card is an image named as it is said: "ace of spades".
    cards = await (await page.wait_for_function(ACCESSIBLE_CARDS, arg=ROOT)).json_value()
    assert cards
    for code, role, label in cards:
        assert role == "img" and label.lower() == spoken(code), (code, role, label)
    hidden = await page.get_attribute(f"{ROOT} .card.back", "aria-label")
    assert hidden in (None, "face-down card")
    # Each seat is a region named by its number and player; stack and bet are labelled.
    frame = await last_frame(ann)
    for seat in frame["seats"]:
        region = page.get_by_role("region", name=re.compile(rf"^Seat {seat['seat']}: "))
        assert await region.count() == 1
        if seat["empty"]:
            continue
        name = f"Seat {seat['seat']}: {seat['name']}"
        if seat["seat"] == frame["you"]:
            name += " (you)"
        assert await region.get_attribute("aria-label") == name
    mine = page.get_by_role("region", name=re.compile(r"\(you\)$"))
    assert (await mine.locator(".stack").text_content() or "").startswith("Stack $")
    # The button and the blinds are said in words, not only shown as a disc: read at once,
    # in a hand (between hands, as the bots may have got to by now, none is shown).
    shown = await page.wait_for_function(BADGES, arg=ROOT)
    badges = await shown.json_value()
    assert len(badges["dealer"]) == 1
    assert "Dealer button" in badges["dealer"][0]
    blinds = badges["blinds"]
    assert any("Small blind" in b for b in blinds) and any("Big blind" in b for b in blinds)
    # Controls say what they do.
    close = page.get_by_role("button", name="Close table")
    assert await close.count() == 1
    # Another player's action is said in the polite log, as the felt shows it.
    log = page.get_by_role("log", name="Table actions")
    assert await log.get_attribute("aria-live") == "polite"
    announced = (
        "(root) => /^(?!ann:)\\S+: (Fold|Check|Call|Bet|Raise|All-in)/m.test("
        "document.querySelector(`${root} .announcer`).innerText)"
    )
    for turn in range(240):  # bounded; ann acts on her turns so that the others can act
        if await page.evaluate(announced, ROOT):
            break
        await take_turn(ann, TABLE, turn)
        await page.wait_for_timeout(250)
    else:
        raise AssertionError("no other player's action was announced in a minute")
    said = await log.locator("p").all_text_contents()
    assert not any(line.startswith("ann:") for line in said), said  # her own are not
    await close.click()
    await page.wait_for_selector(ROOT, state="detached")


async def last_frame(player: Player) -> dict[str, Any]:
    version = int(await player.page.get_attribute(ROOT, "data-version") or -1)
    return await player.frame(TABLE, version)


async def test_enter_in_sign_up_mode_signs_up(browser: Browser, room: Room) -> None:
    context = await browser.new_context(viewport={"width": 1360, "height": 900})
    page = await context.new_page()
    await page.goto(room.base + "/")
    await page.click("#mode-signup")
    assert await page.get_attribute("#mode-signup", "aria-pressed") == "true"
    await page.fill("#username", "nina")
    await page.fill("#password", "correct horse battery")
    await page.press("#password", "Enter")
    await page.wait_for_selector("#lobby-rows tr")
    token = str(await page.evaluate("localStorage.getItem('pokerroom.token')"))
    assert (await room.me(token))["display_name"] == "nina"  # a new account, signed up
    # Log in is still the default elsewhere: a fresh page logs in on Enter.
    other = await (await browser.new_context()).new_page()
    await other.goto(room.base + "/")
    await other.fill("#username", "nina")
    await other.fill("#password", "correct horse battery")
    await other.press("#password", "Enter")
    await other.wait_for_selector("#lobby-rows tr")
    await context.close()
