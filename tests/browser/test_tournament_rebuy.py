"""Register, Unregister, Rebuy and Add-on in the tournament lobby: shown only when
the room allows them now, with their price. A person registers and unregisters (refunded)
and registers again; a rebuy event started by the director with them and one other
entrant (the director holds the first deal, so stacks stay where they start): the person's
panel offers a rebuy (their stack is at or below the limit) and no add-on (its break is
later); the rebuy's answer is lost on the way and the page sends it again with the same key;
the rebuy is paid once from their balance, their stack grows in the players' list, and the
button goes (their stack is now above the limit). The books balance."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import Browser, Route

from tests.browser.conftest import Room, new_player
from tests.helpers.audit import audit_database
from tests.helpers.browser_tournaments import shut, start_room

ROOM = """
import pokerroom.server.tournaments.hall as tours
import pokerroom.server.tournaments.runner as runners
import pokerroom.tournament.coordinator as coordinator
start = tours.Tournaments.start
maybe_start = runners.TournamentRunner.maybe_start
async def start_with_event(self):
    await start(self)
    await self.create("mtt_rebuy", name="Rebuy Night")
async def start_with_two(self):  # the director starts it with two entrants
    if self.t.structure.kind == "mtt" and len(self.t.entries) >= 2:
        self.starts_at = self.now()
    await maybe_start(self)
coordinator.Tournament.can_start = lambda self, number, now: False  # no deal: stacks stay
tours.Tournaments.start = start_with_event
runners.TournamentRunner.maybe_start = start_with_two
from pokerroom.cli.app import main
main()
"""


async def test_rebuy_is_offered_with_its_price_paid_and_then_no_longer_offered(
    browser: Browser, tmp_path: Path
) -> None:
    process, base, database = await start_room(tmp_path, ROOM)
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            events = (await http.get("/api/tournaments")).json()
            tid = next(e["id"] for e in events if e["name"] == "Rebuy Night")
            path = f"/api/tournaments/{tid}"
            ann = await new_player(browser, Room(base=base, database=database), "ann_rebuy")
            page = ann.page
            before = (await http.get("/api/me", headers=await bearer(ann))).json()["balance"]
            await page.locator(f"#tournament-rows tr[data-tournament='{tid}'] .details").click()
            panel = page.locator("#tournament-detail")
            register = panel.locator("button.register")
            assert await register.inner_text() == "Register ($100+$10)"
            await register.click()
            unregister = panel.locator("button.unregister")  # registered, not started
            await unregister.wait_for()
            assert await panel.locator("button.rebuy").count() == 0  # not before the start
            assert (await http.get("/api/me", headers=await bearer(ann))).json()[
                "balance"
            ] == before - 11000
            await unregister.click()  # the buy-in and the fee back
            await register.wait_for()
            assert (await http.get(path)).json()["entrants"] == 0
            assert (await http.get("/api/me", headers=await bearer(ann))).json()[
                "balance"
            ] == before
            await register.click()
            await unregister.wait_for()
            other = await http.post(
                "/api/signup", json={"username": "rb_other", "password": "pw" * 6}
            )
            theirs = {"Authorization": f"Bearer {other.json()['token']}"}
            done = await http.post(f"{path}/register", json={"request": "r1"}, headers=theirs)
            assert done.status_code == 200, done.text  # two: the director starts it
            await page.locator(f".table-view[data-table='{tid}-1']:not([hidden])").wait_for()
            await page.click("#tabs .tab >> nth=0")  # back to the lobby: the panel is open
            rebuy = panel.locator("button.rebuy")
            await rebuy.wait_for()
            assert await rebuy.inner_text() == "Rebuy: 10,000 chips for $100"
            assert await panel.locator("button.addon").count() == 0  # its break is later
            assert await panel.locator("button.unregister").count() == 0  # it has started
            # The rebuy names which one it is and carries the click's key. Its answer is lost
            # on the way (the room made it): the page sends it again, the same, and the
            # room answers it the same without buying again.
            sent: list[Any] = []

            async def lose_the_first_answer(route: Route) -> None:
                sent.append(route.request.post_data_json)
                if len(sent) > 1:
                    await route.continue_()
                    return
                await route.fetch()  # the room makes the rebuy
                await route.abort()  # and the page never hears it

            await page.route("**/rebuy", lose_the_first_answer)
            await rebuy.click()
            me = (await http.get(f"{path}/me", headers=await bearer(ann))).json()
            deadline = time.monotonic() + 15
            while me["rebuys"] != 1 or len(sent) < 2:
                assert time.monotonic() < deadline, me
                await asyncio.sleep(0.1)
                me = (await http.get(f"{path}/me", headers=await bearer(ann))).json()
            assert sent[0] == sent[1] and sent[0]["number"] == 1 and sent[0]["request"], sent
            row = panel.locator(f"#td-players tr[data-entry='{me['entry']}']")
            await row.locator("td", has_text="20,000").wait_for()
            await panel.locator("button.rebuy").wait_for(state="detached")  # above the limit
            after = (await http.get("/api/me", headers=await bearer(ann))).json()["balance"]
            assert before - after == 11000 + 10000  # the buy-in and fee, then the rebuy
            event = (await http.get(path)).json()
            assert event["prize_pool"] == 2 * 10000 + 10000
        report = await audit_database(database)
        assert report.ok and report.problems == [], report.problems
    finally:
        await shut(process, [])


async def bearer(player: Any) -> dict[str, str]:
    return {"Authorization": f"Bearer {await player.token()}"}
