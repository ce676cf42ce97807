"""What the browser's tournament lobby and deal dialog ask the room: a player's own
entry (``/me``: which of Unregister, Rebuy, Add-on and Open my table apply now) and the two
deals the room offers at the final table (``/deal/offers``), refused clearly elsewhere; the
books balance afterwards (S-AUDIT-2)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import httpx

from pokerroom.tournament.deals import chip_split, icm_split
from tests.helpers.accounts import signup
from tests.helpers.audit import assert_books_balance
from tests.helpers.tournaments import person
from tests.server.conftest import Server


def bearer(who: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {who['token']}"}


async def test_my_entry_says_what_i_may_do_before_and_after_the_start(server: Server) -> None:
    hall = server.app.state.tournaments
    runner = await hall.create("mtt_rebuy")  # no start time: the director starts it
    ann, bob = await signup(server.base, "ann_me"), await signup(server.base, "bob_me")
    path = f"/api/tournaments/{runner.id}/me"
    async with httpx.AsyncClient(base_url=server.base) as http:
        assert (await http.get(path)).status_code == 401  # whose entry? log in first
        assert (await http.get("/api/tournaments/nope/me", headers=bearer(ann))).status_code == 404
        none = (await http.get(path, headers=bearer(ann))).json()
        assert none["entry"] is None and none["table"] is None
        assert not (none["can_rebuy"] or none["can_addon"] or none["out"])
        for k, who in enumerate((ann, bob)):
            await runner.register(who["account_id"], who["username"], f"me{k}")
        waiting = (await http.get(path, headers=bearer(ann))).json()
        assert waiting["entry"] == str(ann["account_id"]) and waiting["table"] is None
        assert not waiting["can_rebuy"]  # no rebuy before the start
        runner.starts_at = hall.clock()
        await runner.maybe_start()
        for actor in runner.actors.values():  # hold the first deal while we look
            actor.next_hand_at = float("inf")
        seated = (await http.get(path, headers=bearer(ann))).json()
        assert seated["table"] == runner.my_table(ann["account_id"]) is not None
        assert seated["can_rebuy"] and not seated["can_addon"] and seated["rebuys"] == 0
        done = await http.post(f"/api/tournaments/{runner.id}/rebuy", headers=bearer(ann))
        assert done.status_code == 200, done.text
        assert done.json()["number"] == 1 and not done.json()["addon"]
        after = (await http.get(path, headers=bearer(ann))).json()
        assert after["rebuys"] == 1 and not after["addon"]
        assert after["can_rebuy"] == runner.t.can_rebuy(after["entry"], runner.now())
    await assert_books_balance(server)
    for actor in runner.actors.values():
        actor.next_hand_at = 0.0
        actor.wake()


def held(runner: Any) -> bool:
    """Between hands, with the last one's end stored, the next deal put off while we look.
    (A hold set while a hand's end is being written is undone by the write: it schedules
    the next deal when it is done.) No await between the look and the hold."""
    actors = list(runner.actors.values())
    if not actors or any(a.table.hand is not None or a.started is not None for a in actors):
        return False
    for actor in actors:
        actor.next_hand_at = float("inf")
    return True


async def test_deal_offers_at_the_final_table_only_between_hands(server: Server) -> None:
    hall = server.app.state.tournaments
    for attempt in range(5):  # a heads-up may end in its first hand: then another one
        runner = await hall.create("sng_heads_up")
        offers = f"/api/tournaments/{runner.id}/deal/offers"
        async with httpx.AsyncClient(base_url=server.base) as http:
            early = await http.get(offers)
            assert early.status_code == 400
            assert early.json()["code"] == "tournament.deal_final_table"
            names = (f"ann_offer{attempt}", f"bob_offer{attempt}")
            people = {n: await signup(server.base, n) for n in names}
            tasks = [
                asyncio.create_task(person(server, runner.id, n, d)) for n, d in people.items()
            ]
            try:
                deadline = time.monotonic() + 60
                while not runner.t.closed and time.monotonic() < deadline:  # the first deal
                    await asyncio.sleep(0.02)
                deadline = time.monotonic() + 60
                while not runner.t.finished and not held(runner):
                    assert time.monotonic() < deadline, "never between two hands"
                    await asyncio.sleep(0.02)
                if runner.t.finished:
                    continue
                response = await http.get(offers)
                assert response.status_code == 200, response.text
                got = response.json()
            finally:
                for task in tasks:
                    task.cancel()
                for task in tasks:
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
        players = got["players"]
        assert {p["name"] for p in players} == set(names)
        stacks = [p["stack"] for p in players]
        assert sum(stacks) == runner.t.chips_issued
        prizes = ([*runner.t.prizes(), 0, 0])[:2]
        entries = [p["entry"] for p in players]
        assert got["icm"] == dict(zip(entries, icm_split(stacks, prizes), strict=True))
        assert got["chip"] == dict(zip(entries, chip_split(stacks, prizes), strict=True))
        assert sum(got["icm"].values()) == sum(got["chip"].values()) == runner.t.prize_pool
        assert set(got) == {"icm", "chip", "players"}  # amounts, names, stacks: no cards
        break
    else:
        raise AssertionError("five heads-ups ended in their first hand")
    await assert_books_balance(server)
