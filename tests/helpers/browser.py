"""A person in Chromium at a room's table: joining it, taking a turn, playing along, reading the
amounts and the seats shown, axe's findings."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page, Route

from pokerroom.server.sockets import protocol
from tests.browser.conftest import HEADS_UP, Player, Room, new_player

INJECT = """(frame) => {
  const view = window.pokerroom.tables.get(frame.table);
  view.update(frame);
  return view.root.dataset.version;
}"""
HEADS_UP_VIEW = f".table-view[data-table='{HEADS_UP}']"
AXE = Path(__file__).resolve().parents[1] / "browser" / "vendor" / "axe.min.js"
AXE_PATH = "/__tests__/axe.min.js"  # routed by Playwright to the vendored file
RUN_AXE = """async () => {
  const results = await axe.run(document);
  const ran = results.passes.some((p) => p.id === 'color-contrast');
  if (!ran) throw new Error('axe checked no contrast');
  return results.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => [n.target.join(' '), n.failureSummary]),
  }));
}"""
LEGAL = {
    "can_check": False,
    "call": 200,
    "call_all_in": False,
    "min_raise_to": 400,
    "max_raise_to": 20_000,
    "is_bet": False,
    "current_bet": 200,
    "pot": 900,
    "all_in_to": 20_000,
    "half_pot_raise_to": 650,
    "pot_raise_to": 1_100,
}
SCREEN = """(table) => {
  const root = document.querySelector(`.table-view[data-table="${table}"]`);
  const seats = {};
  for (const seat of root.querySelectorAll('.seat:not(.empty)')) {
    const bet = seat.querySelector('.bet');
    seats[seat.dataset.seat] = {
      stack: Number(seat.querySelector('.stack').dataset.chips),
      bet: bet ? Number(bet.dataset.chips) : 0,
      cards: [...seat.querySelectorAll('.hole .card')].map((c) => c.dataset.card || null),
    };
  }
  return {
    version: Number(root.dataset.version),
    seats,
    pots: [...root.querySelectorAll('.pots .pot')].map((p) => Number(p.dataset.chips)),
    board: [...root.querySelectorAll('.center .board .card')].map((c) => c.dataset.card),
    presets: [...root.querySelectorAll('[data-preset]')]
      .map((b) => [b.dataset.preset, Number(b.dataset.amount)]),
    actionsShown: !root.querySelector('.actions').hidden,
  };
}"""


async def serious_violations(page: Page, base: str) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""

    async def serve(route: Route) -> None:
        await route.fulfill(path=str(AXE), content_type="text/javascript")

    await page.route(base + AXE_PATH, serve)
    if not await page.evaluate("() => typeof window.axe === 'object'"):
        await page.add_script_tag(url=base + AXE_PATH)  # same origin: the room's CSP allows it
    found = await page.evaluate(RUN_AXE)
    return [v for v in found if v["impact"] in ("serious", "critical")]


def to_cents(text: str) -> int:
    return round(float(text) * 100)


async def join(player: Player, table: str, buy_in: int | None = None) -> None:
    page = player.page
    await page.click("#tabs .tab >> text=Lobby")
    await page.click(f"tr[data-table='{table}'] .join")
    await page.wait_for_selector("#buyin[open]")
    if buy_in is not None:
        await page.fill("#buyin-amount", str(buy_in / 100))
    await page.click("#buyin-ok")
    await page.wait_for_selector(f".table-view[data-table='{table}'] .seat.you")


async def take_turn(player: Player, table: str, turn: int) -> bool:
    """Act if it is this player's turn, by click or by keyboard: check when free, call small
    bets, sometimes raise the minimum from the preset button, fold to big bets (so the test
    player does not bust). True if it acted."""
    page = player.page
    root = f".table-view[data-table='{table}']"
    if not await page.is_visible(f"{root} .actions"):
        return False
    frame = await check_screen_equals_server(player, table)
    legal = frame["hand"] and frame["hand"]["legal"]
    if not legal:  # the frame on screen is not a decision (a frame is on its way)
        return False
    stack = frame["seats"][frame["you"] - 1]["stack"]
    await page.click(f"{root} .table-head")  # focus this table for keyboard shortcuts
    if legal["call"] * 5 > stack:
        await page.keyboard.press("f")
    elif turn % 3 == 1 and await page.is_visible(f"{root} [data-preset='min']"):
        await presets_fill_the_box(player, table, legal)
        await page.click(f"{root} [data-preset='min']")
        await page.click(f"{root} .raise")
    elif turn % 3 == 2:
        await page.keyboard.press("c")
    else:
        await page.click(f"{root} .call")
    return True


async def play(players: list[Player], table: str, hands: int, seconds: float = 150) -> None:
    """Play by clicking until every player has finished ``hands`` hands (bounded)."""
    deadline = time.monotonic() + seconds
    turn = 0
    while time.monotonic() < deadline:
        if all(len(finished_hands(p, table)) >= hands for p in players):
            return
        acted = False
        for player in players:
            if await take_turn(player, table, turn):
                turn += 1
                acted = True
        if not acted:
            await asyncio.sleep(0.1)
    raise AssertionError(
        f"only {[len(finished_hands(p, table)) for p in players]} hands finished in {seconds} s"
    )


async def watch(player: Player, table: str) -> dict[str, Any]:
    """Open ``table`` from the lobby as a watcher; the server's last frame of it."""
    page = player.page
    await page.click("#tabs .tab >> text=Lobby")
    await page.click(f"tr[data-table='{table}'] .watch")
    await page.wait_for_selector(f".table-view[data-table='{table}'] .seat")
    return next(f for f in reversed(player.frames) if f.get("table") == table)


def dealt(
    watched: dict[str, Any], names: list[str], cards: int, *, you: int, turn: bool
) -> dict[str, Any]:
    """A frame of ``watched``'s table with every seat dealt ``cards`` cards, the button on
    the last seat, the blinds after it; with ``turn`` it is seat ``you``'s decision."""
    count = len(names)
    seats = [seat(n, name, cards, you=n == you) for n, name in enumerate(names, 1)]
    hand = {
        "number": 41,
        "phase": "betting",
        "street": "preflop",
        "board": [],
        "pots": [900],
        "collected": [],
        "button": count,
        "small_blind_seat": 1,
        "big_blind_seat": 2,
        "actor": you if turn else 3,
        "seconds_left": 25.0,
        "warning_left": 20.0,
        "time_bank": False,
        "legal": LEGAL if turn else None,
    }
    frame = {
        **watched,
        "version": watched["version"] + 1000,
        "you": you,
        "seats": seats,
        "hand": hand,
    }
    protocol.TableFrame.model_validate(frame)  # a frame the server could send
    return frame


async def save(
    page: Page, *, deck: str, auto_muck: bool, hotkeys: bool, presets: list[int]
) -> None:
    await page.click("#options-open")
    await page.wait_for_selector("#options-form:not([inert])")  # filled from the account
    await page.check(f"#options [name='deck'][value='{deck}']")
    await page.set_checked("#opt-auto-muck", auto_muck)
    await page.set_checked("#opt-hotkeys", hotkeys)
    boxes = page.locator(".opt-preset")
    for n in range(4):
        await boxes.nth(n).fill(str(presets[n]) if n < len(presets) else "")
    await page.click("#options-save")


def dollars(cents: int, *, signed: bool = False) -> str:
    """The client's money format (web/js/format.js): "$3", "$3.50", "-$6.00", "+$6.00"."""
    whole = not signed and cents % 100 == 0
    text = f"${abs(cents) / 100:,.0f}" if whole else f"${abs(cents) / 100:,.2f}"
    if cents < 0:
        return "-" + text
    return "+" + text if signed and cents > 0 else text


async def whose_turn(players: list[Player], seconds: float = 30) -> Player:
    """The player whose page offers the action buttons (bounded wait)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for player in players:
            if await player.page.is_visible(f"{HEADS_UP_VIEW} .actions"):
                return player
        await asyncio.sleep(0.05)
    raise AssertionError("no page offered a decision")


async def check_screen_equals_server(player: Player, table: str) -> dict[str, Any]:
    """What the page shows (stacks, bets, pots, board, own cards, raise presets) is exactly
    the server's frame that it last rendered."""
    screen = await player.page.evaluate(SCREEN, table)
    frame = await player.frame(table, screen["version"])
    hand = frame["hand"]
    if hand is None:  # the hand ended since the buttons were seen: nothing to compare
        return frame
    for entry in frame["seats"]:
        if entry["empty"]:
            assert str(entry["seat"]) not in screen["seats"]
            continue
        shown = screen["seats"][str(entry["seat"])]
        assert shown["stack"] == entry["stack"], (entry, shown)
        assert shown["bet"] == entry["bet"], (entry, shown)
        if entry["seat"] == frame["you"] and entry.get("cards"):
            assert shown["cards"] == entry["cards"]
    assert screen["pots"] == hand["collected"]
    assert screen["board"] == hand["board"]
    legal = hand["legal"]
    if legal and legal["min_raise_to"] is not None and screen["actionsShown"]:
        for _, amount in screen["presets"]:  # the buttons never offer an illegal amount
            assert legal["min_raise_to"] <= amount <= legal["max_raise_to"]
        # Min, ½ Pot, Pot and All-in are the server's amounts, none the page's own;
        # The account's own sizes between them (by default 50%, 75% and 100%).
        names = [name for name, _ in screen["presets"]]
        assert names == ["min", "half", "p75", "pot", "max"], screen
        server = {
            "min": legal["min_raise_to"],
            "half": legal["half_pot_raise_to"],
            "pot": legal["pot_raise_to"],
            "max": legal["max_raise_to"],
        }
        for name, amount in screen["presets"]:
            assert amount == server.get(name, amount), (screen, legal)
    return frame


async def presets_fill_the_box(player: Player, table: str, legal: dict[str, Any]) -> None:
    """Clicking ½ Pot and Pot puts the server's amounts in the raise box."""
    page = player.page
    root = f".table-view[data-table='{table}']"
    for button, key in (("half", "half_pot_raise_to"), ("pot", "pot_raise_to")):
        await page.click(f"{root} [data-preset='{button}']")
        assert to_cents(await page.input_value(f"{root} .raise-amount")) == legal[key]
        assert int(await page.get_attribute(f"{root} .raise", "data-amount") or -1) == legal[key]
    player.presets_checked += 1


def finished_hands(player: Player, table: str) -> set[int]:
    return {r["hand"] for r in player.results(table)} & my_hands(player, table)


def seat(n: int, name: str, cards: int, *, you: bool = False) -> dict[str, Any]:
    faces = ["As", "Kd", "Qh", "Jc"][:cards]
    return {
        "seat": n,
        "empty": False,
        "name": name,
        "stack": 19_800,
        "status": "playing",
        "missed_big": False,
        "missed_small": False,
        "connected": True,
        "time_bank": 30.0,
        "in_hand": True,
        "bet": 200 if n % 3 == 0 else 0,
        "folded": False,
        "all_in": False,
        "cards": faces if you else None,
        "card_count": cards,
        "shown": False,
        "last_action": {"action": "call", "amount": 200} if n % 3 == 0 else None,
    }


def my_hands(player: Player, table: str) -> set[int]:
    """Hands the player was dealt into, by number."""
    hands = set()
    for frame in player.tables(table):
        you, hand = frame["you"], frame["hand"]
        if you and hand and frame["seats"][you - 1].get("in_hand"):
            hands.add(hand["number"])
    return hands


async def sit_both(browser: Browser, room: Room, buy_in: int) -> tuple[Player, Player]:
    ann = await new_player(browser, room, "ann")
    bob = await new_player(browser, room, "bob")
    await join(ann, HEADS_UP, buy_in)
    await join(bob, HEADS_UP, buy_in)
    return ann, bob


# A tournament table's standing as its frames carry it (protocol.TournamentInfo).
TOURNAMENT_INFO = {
    "id": "sng6-1",
    "name": "Sit & Go",
    "level": 3,
    "small_blind": 25,
    "big_blind": 50,
    "ante": 0,
    "big_blind_ante": 0,
    "next_level_seconds": 200.0,
    "on_break": False,
    "hand_for_hand": False,
    "final_table": True,
    "players_left": 5,
    "entrants": 6,
    "prize_pool": 6000,
    "payouts": [3900, 2100],
    "ranks": [[1, 1], [2, 2], [3, 3], [4, 4], [5, 5]],
}
