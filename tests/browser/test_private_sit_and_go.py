"""A private sit & go in the browser (R-PRIV-1): the host picks "Sit & go" in the create form
(the cash game's stakes and options give way to the buy-in, fee, stack and blind levels),
registers from the game's page, approves a friend who asked with the code; the friend
registers, which fills it: it starts, both pay the buy-in and fee through the ledger, and the
audit reconciles."""

from __future__ import annotations

from playwright.async_api import Browser, expect

from tests.browser.conftest import Room, new_player
from tests.helpers.audit import audit_database
from tests.helpers.browser_private import GAME_PAGE, api, fill_form, status, wait_status

SETTINGS = {
    "name": "Sunday sit & go",
    "kind": "sit_and_go",
    "preset": "titan",
    "variant": "holdem",
    "structure": "no_limit",
    "seats": "2",
    "buy_in": "10",
    "fee": "1",
    "starting_stack": "3000",
    "blinds": "turbo",
    "level_minutes": "5",
}


async def test_a_private_sit_and_go_created_from_the_form_starts_when_full(
    browser: Browser, quiet_room: Room
) -> None:
    room = quiet_room
    ann = await new_player(browser, room, "ann")
    bob = await new_player(browser, room, "bob")
    errors: list[str] = []
    for player in (ann, bob):
        player.page.on("pageerror", lambda error: errors.append(str(error)))
    page = ann.page
    before = {p.name: int((await room.me(await p.token()))["balance"]) for p in (ann, bob)}

    await fill_form(page, {"name": SETTINGS["name"]})
    await expect(page.locator("#private-form [name='buy_in']")).to_be_hidden()
    await fill_form(page, {"kind": "sit_and_go"})
    await expect(page.locator("#private-form [name='big_blind']")).to_be_hidden()
    await expect(page.locator("#private-form [name='straddle']")).to_be_hidden()
    await fill_form(page, SETTINGS)
    await page.click("#private-create")
    await page.wait_for_selector(GAME_PAGE)
    assert await status(page) == "host"
    (mine,) = (await api(room, ann, "/api/private-games"))["games"]
    game = mine["id"]
    assert mine["settings"]["kind"] == "sit_and_go" and mine["settings"]["buy_in"] == 1000
    assert mine["settings"]["fee"] == 100 and mine["event"]["status"] == "registering"
    assert mine["event"]["structure"]["starting_stack"] == 3000
    await expect(page.locator("#pg-facts")).to_contain_text("3,000")
    code = await page.inner_text("#pg-code")
    await page.click("#pg-register")
    await expect(page.locator("#pg-register")).to_be_hidden()
    assert (await api(room, ann, f"/api/private-games/{game}/event"))["entrants"] == 1

    # Bob asks with the code and is approved: his page offers the registration; his
    # registration fills it, and it starts.
    await bob.page.click("#private-open")
    await bob.page.wait_for_selector("#private-form")
    await bob.page.fill("#private-code", code)
    await bob.page.click("#private-code-ask")
    await wait_status(bob.page, "pending")
    assert not await bob.page.is_visible("#pg-register")
    bob_id = (await room.me(await bob.token()))["account_id"]
    row = f"#pg-host .ph-player-list li[data-account='{bob_id}']"
    await page.wait_for_selector(f"{row}[data-status='pending']")
    await page.click(f"{row} .approve")
    await wait_status(bob.page, "approved")
    await bob.page.wait_for_selector("#pg-register:not([hidden])")
    await bob.page.click("#pg-register")
    # The click's request is on its way; the button goes once the page reads it accepted.
    await expect(bob.page.locator("#pg-register")).to_be_hidden()
    event = await api(room, bob, f"/api/private-games/{game}/event")
    assert event["entrants"] == 2 and event["status"] == "running"
    for player in (ann, bob):
        after = int((await room.me(await player.token()))["balance"])
        assert after == before[player.name] - 1100
    lobby = await api(room, bob, "/api/tournaments")
    assert game not in [e["id"] for e in lobby]
    assert not errors, errors
    report = await audit_database(room.database)
    assert report.ok, report.problems
