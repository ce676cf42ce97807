"""Private games in Chromium (web/js/private*.js): creating one from the form, asking to sit,
taking a seat, the host's controls and their confirmations, and the room's own answers read
over HTTP with a player's token to compare the page with."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from playwright.async_api import Page

from tests.browser.conftest import Player, Room
from tests.helpers.browser import take_turn

GAME_PAGE = "#private-game:not([hidden])"


async def api(room: Room, player: Player, path: str) -> Any:
    """GET one of the room's routes as ``player``."""
    async with httpx.AsyncClient(base_url=room.base, timeout=10) as http:
        response = await http.get(path, headers={"Authorization": f"Bearer {await player.token()}"})
    response.raise_for_status()
    return response.json() if "json" in response.headers["content-type"] else response.text


async def fill_form(page: Page, settings: dict[str, Any]) -> None:
    """The create form from the lobby's Private games link, filled with ``settings`` (the
    route's names; big_blind in dollars as the box holds it; booleans tick boxes)."""
    if not await page.is_visible("#private-form"):
        await page.click("#tabs .tab >> nth=0")  # the lobby
        await page.click("#private-open")
        if not await page.is_visible("#private-form"):
            await page.click("#private-home-open")
    for name, value in settings.items():
        box = f"#private-form [name='{name}']"
        if isinstance(value, bool):
            await page.set_checked(box, value)
        elif name in ("kind", "preset", "variant", "structure", "blinds"):
            await page.select_option(box, value)
        else:
            await page.fill(box, str(value))


async def status(page: Page) -> str:
    """The player's status the game page shows (host, approved, pending, denied, removed,
    ended)."""
    await page.wait_for_selector(f"{GAME_PAGE} #pg-status[data-status]")
    return str(await page.get_attribute("#pg-status", "data-status"))


async def wait_status(page: Page, wanted: str, seconds: float = 30) -> None:
    """Bounded: the game page (refreshed every few seconds) comes to show ``wanted``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await page.is_visible(GAME_PAGE) and await status(page) == wanted:
            return
        await asyncio.sleep(0.2)
    raise AssertionError(f"the game page shows {await status(page)!r}, not {wanted!r}")


async def take_seat(player: Player, game: str) -> None:
    """From the game's page: Take a seat, the buy-in dialog's default amount, seated."""
    page = player.page
    await page.click("#pg-sit")
    await page.wait_for_selector("#buyin[open]")
    await page.click("#buyin-ok")
    await page.wait_for_selector(f".table-view[data-table='{game}'] .seat.you")


async def confirm(page: Page, selector: str) -> str:
    """Click ``selector`` and say yes to the question it asks; the question."""
    await page.click(selector)
    await page.wait_for_selector("#private-confirm[open]")
    question = await page.inner_text("#private-confirm-text")
    await page.click("#private-confirm-ok")
    await page.wait_for_selector("#private-confirm", state="hidden")
    return question


def bar(game: str) -> str:
    """The private bar of the game's table."""
    return f".table-view[data-table='{game}'] .private-bar"


def root(game: str) -> str:
    """The game's table on the page."""
    return f".table-view[data-table='{game}']"


async def play_until(players: list[Player], game: str, shown: str, seconds: float) -> Player:
    """Play by clicking (``take_turn``) until ``shown`` (a selector in the game's table) is
    on one player's page; that player. Bounded by ``seconds``."""
    deadline = time.monotonic() + seconds
    turn = 0
    while time.monotonic() < deadline:
        for player in players:
            if await player.page.is_visible(f"{root(game)} {shown}"):
                return player
        acted = False
        for player in players:
            if await take_turn(player, game, turn):
                turn += 1
                acted = True
        if not acted:
            await asyncio.sleep(0.1)
    raise AssertionError(f"{shown} was not shown within {seconds} s")


async def shove_until(players: list[Player], game: str, shown: str, seconds: float) -> Player:
    """Each player at their turn all-in when a raise is open to them (the Max preset), else
    check or call, until ``shown`` (a selector in the game's table) is on one player's page;
    that player. Bounded by ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for player in players:
            if await player.page.is_visible(f"{root(game)} {shown}"):
                return player
        acted = False
        for player in players:
            page = player.page
            if not await page.is_visible(f"{root(game)} .actions"):
                continue
            frames = player.tables(game)
            hand = frames[-1].get("hand") if frames else None
            legal = hand and hand.get("legal")
            if not legal:
                continue
            if legal.get("min_raise_to") and await page.is_visible(
                f"{root(game)} [data-preset='max']"
            ):
                await page.click(f"{root(game)} [data-preset='max']")
                await page.click(f"{root(game)} .raise")
            else:
                await page.click(f"{root(game)} .call")
            acted = True
        if not acted:
            await asyncio.sleep(0.1)
    raise AssertionError(f"{shown} was not shown within {seconds} s")
