"""The back office in Chromium: an operator, at a phone's width, opens the floor's tab, voids
the hand in progress at a table where ann sits (her chips come back: the hand stored as
cancelled with no chip moved, her stack as it was before it), suspends ann's account (her
page is logged out) and runs the audit from the page: a difference made in the books is
named and linked to ann's account, and once undone the audit shows none. A player gets
no back-office tab and 403 from every route behind it."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from playwright.async_api import Browser, Page
from typer.testing import CliRunner

from pokerroom.cli import app as cli
from tests.browser.conftest import BOT_TABLES, Player, Room, new_player, screenshot
from tests.helpers.audit import assert_books_balance
from tests.helpers.backoffice import BACK_OFFICE_ROUTES, bearer, shift_balance
from tests.helpers.browser import join

TABLE = BOT_TABLES[0]
PASSWORD = "correct horse battery"
PHONE = 390
ROUTES = (  # the floor's routes before the back office, then the back office's own
    ("GET", "/api/floor/tables", None),
    ("POST", f"/api/floor/tables/{TABLE}/void", {"reason": "test"}),
    ("POST", f"/api/floor/tables/{TABLE}/close", {"reason": "test"}),
    ("POST", "/api/floor/accounts/1/suspend", {"reason": "test"}),
    ("POST", "/api/floor/hands/1/correct", {"account_id": 1, "amount": 1, "reason": "test"}),
    ("GET", "/api/floor/acts", None),
    ("GET", "/api/floor/reports", None),
    *BACK_OFFICE_ROUTES,
)


async def operator_page(browser: Browser, room: Room, name: str) -> Page:
    """An account made an operator by ``pokerroom operator``, logged in on a phone."""
    async with httpx.AsyncClient(base_url=room.base, timeout=60) as http:
        signed = await http.post("/api/signup", json={"username": name, "password": PASSWORD})
        signed.raise_for_status()
    for _ in range(20):  # bounded: the room's own writes may hold SQLite's lock a moment
        made = await asyncio.to_thread(
            CliRunner().invoke, cli, ["operator", name, "--database", room.database]
        )
        if made.exit_code == 0:
            break
        await asyncio.sleep(0.5)
    assert made.exit_code == 0, made.output
    context = await browser.new_context(viewport={"width": PHONE, "height": 800})
    page = await context.new_page()
    page.set_default_timeout(15_000)
    await page.goto(room.base + "/")
    await page.fill("#username", name)
    await page.fill("#password", PASSWORD)
    await page.click("#login")
    await page.wait_for_selector("#tabs .backoffice-tab", timeout=60_000)
    return page


def seat_of(frame: dict[str, Any]) -> dict[str, Any]:
    return dict(frame["seats"][frame["you"] - 1])


def owned(frame: dict[str, Any]) -> int:
    """Ann's chips at the table in a frame: her stack and what she has put in this street."""
    seat = seat_of(frame)
    return int(seat["stack"]) + int(seat.get("bet") or 0)


async def void_ann_s_hand(page: Page, ann: Player) -> None:
    """Void, from the table's live view, a hand ann is dealt in (a retry when the hand
    ended between the view and the click: the dialog says so and nothing is voided)."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        frames = ann.tables(TABLE)
        live = frames[-1] if frames else None
        if live is None or live["hand"] is None or not seat_of(live).get("cards"):
            await asyncio.sleep(0.1)
            continue
        await page.click(f"#floor-tables-rows tr[data-table='{TABLE}'] .floor-open")
        await page.wait_for_selector("#floor-table-view:not([hidden])")
        if await page.is_disabled("#floor-table-view .floor-void"):
            continue
        await page.click("#floor-table-view .floor-void")
        await page.wait_for_selector("#floor-act[open]")
        await page.click("#floor-act-ok")  # no reason yet: refused on the page
        assert await page.text_content("#floor-act-error")
        await page.fill("#floor-act-reason", "a card was exposed in the deal")
        await page.click("#floor-act-ok")
        await page.wait_for_function(
            "() => !document.querySelector('#floor-act').open"
            " || document.querySelector('#floor-act-error').textContent !== ''"
        )
        if not await page.evaluate("document.querySelector('#floor-act').open"):
            return
        await page.click("#floor-act-cancel")
    raise AssertionError("no hand of ann's could be voided in 90 s")


async def cancelled_hand(room: Room, token: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=room.base, timeout=10) as http:
        for _ in range(100):  # bounded: the void's write lands within moments
            hands = (
                await http.get("/api/hands", params={"table": TABLE}, headers=bearer(token))
            ).json()
            cancelled = [h for h in hands if h["status"] == "cancelled"]
            if cancelled:
                return dict(cancelled[0])
            await asyncio.sleep(0.1)
    raise AssertionError("no cancelled hand of ann's was stored")


async def run_audit(page: Page) -> int:
    """Click Run the audit; the number of differences the page shows."""
    await page.evaluate("document.querySelector('#floor-audit-result').replaceChildren()")
    await page.click("#floor-audit-run")
    verdict = await page.wait_for_selector("#floor-audit-result .floor-verdict")
    return int(await verdict.get_attribute("data-problems") or "0")


async def test_an_operator_voids_a_hand_suspends_an_account_and_audits_from_the_page(
    browser: Browser, room: Room
) -> None:
    ann = await new_player(browser, room, "ann")
    ann_token = await ann.token()
    ann_id = (await room.me(ann_token))["account_id"]
    await join(ann, TABLE)
    page = await operator_page(browser, room, "floor")
    await page.click("#tabs .backoffice-tab")
    await page.wait_for_selector(f"#floor-tables-rows tr[data-table='{TABLE}']")
    # The page fits a phone: nothing wider than the screen.
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE

    await void_ann_s_hand(page, ann)
    voided = await cancelled_hand(room, ann_token)
    assert voided["net"] == 0  # every chip she had put in came back
    number = voided["number"]
    frames = ann.tables(TABLE)
    during = [k for k, f in enumerate(frames) if f["hand"] and f["hand"]["number"] == number]
    before = owned(frames[during[0]])  # dealt: her stack and her blind, if she posted one
    for _ in range(100):  # bounded: the next frame after the void comes within moments
        after = [f for f in ann.tables(TABLE)[during[-1] + 1 :] if seat_of(f)]
        if after:
            break
        await asyncio.sleep(0.1)
    assert owned(after[0]) == before, (before, after[0])

    # Suspend ann from the table's live view: her page is logged out, her session gone.
    await page.click(f"#floor-table-view li[data-account='{ann_id}'] .floor-suspend")
    await page.wait_for_selector("#floor-act[open]")
    await page.fill("#floor-act-reason", "collusion with a bot")
    await page.click("#floor-act-ok")
    await page.wait_for_function("() => !document.querySelector('#floor-act').open")
    await ann.page.wait_for_selector("#auth:not([hidden])", timeout=30_000)
    async with httpx.AsyncClient(base_url=room.base, timeout=10) as http:
        me = await http.get("/api/me", headers=bearer(ann_token))
        acts = (await http.get("/api/floor/acts", headers=await _headers(page))).json()
    assert me.status_code == 401
    assert [a["act"] for a in acts] == ["void_hand", "suspend_account"]

    # The audit from the page: a difference made in the books is named and linked to ann.
    await shift_balance(room.database, ann_id, 5)
    try:
        assert await run_audit(page) >= 1
        problems = await page.inner_text("#floor-audit-problems")
        assert f"player {ann_id}: balance" in problems
        link = page.locator(
            f"#floor-audit-problems .floor-ref[data-kind='account'][data-id='{ann_id}']"
        )
        assert await link.count() >= 1
    finally:
        await shift_balance(room.database, ann_id, -5)
    assert await run_audit(page) == 0
    assert await page.is_visible("#floor-audit-result .floor-verdict.ok")
    await screenshot(page, "backoffice_phone")
    await assert_books_balance(room)


async def _headers(page: Page) -> dict[str, str]:
    return bearer(await page.evaluate("localStorage.getItem('pokerroom.token')"))


async def test_a_player_gets_no_back_office_tab_and_403_from_every_route(
    browser: Browser, room: Room
) -> None:
    bob = await new_player(browser, room, "bob")
    page = bob.page
    assert await page.locator("#tabs .backoffice-tab").count() == 0
    assert await page.is_hidden("#backoffice")
    headers = await _headers(page)
    async with httpx.AsyncClient(base_url=room.base, timeout=10) as http:
        events = {e["id"] for e in (await http.get("/api/tournaments")).json()}
        for method, path, body in ROUTES:
            answer = await http.request(method, path, json=body, headers=headers)
            assert answer.status_code == 403, (path, answer.status_code, answer.text)
        events_after = {e["id"] for e in (await http.get("/api/tournaments")).json()}
        acts = await http.get("/api/floor/acts", headers=headers)
    assert acts.status_code == 403 and events_after <= events  # refused: nothing made
    assert await page.locator("#tabs .backoffice-tab").count() == 0
    assert await page.is_hidden("#backoffice")
    await assert_books_balance(room)
