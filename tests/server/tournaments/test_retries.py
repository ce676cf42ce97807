"""A rebuy or the add-on sent again is applied once and answered the same: the
client's ``request`` key names the click, the same on each retry of it. A retry of the add-on
made is answered what it bought and moves nothing; another add-on is refused
(``tournament.addon_taken``). A rebuy sent from a view that did not show the rebuy made
(the same ``number``, a new click) is refused (``tournament.rebuy_not_next``: nothing was
bought), not answered "done" for chips the player was not given; the next one is made. The
books balance after each (S-AUDIT-2). One node, in process; the same through another node
is in test_nodes_tournament_requests.py."""

from __future__ import annotations

import time
from typing import Any

import httpx

from pokerroom.store.accounts.accounts import STARTING_GRANT
from tests.helpers.accounts import signup
from tests.helpers.audit import assert_books_balance
from tests.server.conftest import Server


async def started_rebuy_event(server: Server) -> tuple[Any, list[dict[str, Any]]]:
    """A rebuy event with ann and bob, started by the director with no hand dealt (so that
    nothing but the requests moves a chip)."""
    hall = server.app.state.tournaments
    runner = await hall.create("mtt_rebuy")
    people = [await signup(server.base, name) for name in ("ann_retry", "bob_retry")]
    for k, who in enumerate(people):
        await runner.register(who["account_id"], who["username"], f"r{k}")
    runner.starts_at = hall.clock()
    await runner.maybe_start()
    for actor in runner.actors.values():
        actor.next_hand_at = float("inf")
    return runner, people


def bearer(who: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {who['token']}"}


async def test_the_add_on_sent_again_is_answered_the_same_and_another_is_refused(
    server: Server,
) -> None:
    runner, (ann, _) = await started_rebuy_event(server)
    s, hall = runner.t.structure, server.app.state.tournaments
    assert s.addon is not None
    on_break = runner.t.clock.start + sum(lv.minutes for lv in s.levels[:4]) * 60 + 1
    offset = on_break - time.time()
    hall.clock = lambda: time.time() + offset  # its break, after level 4
    seat = runner.t.tables[1].seat_of(runner.entry_of(ann["account_id"]))
    path = f"/api/tournaments/{runner.id}/addon"
    async with httpx.AsyncClient(base_url=server.base, headers=bearer(ann)) as http:
        done = await http.post(path, json={"request": "click-1"})
        assert done.status_code == 200, done.text
        assert done.json() == {
            "tournament": runner.id,
            "entry": str(ann["account_id"]),
            "addon": True,
            "number": 1,
            "chips": s.addon.chips,
            "price": s.addon.price,
        }
        stack = seat.stack
        assert stack == s.starting_stack + s.addon.chips
        again = await http.post(path, json={"request": "click-1"})  # its answer was lost
        assert again.status_code == 200, again.text
        assert again.json() == done.json() and seat.stack == stack
        for second in ({"request": "click-2"}, None):  # a new click, an old client
            refused = await http.post(path, json=second)
            assert refused.status_code == 400
            assert refused.json()["code"] == "tournament.addon_taken", refused.text
            assert "one per entry" in refused.json()["detail"]
        me = (await http.get("/api/me")).json()
    assert seat.stack == stack and runner.t.addons == 1
    assert me["balance"] == STARTING_GRANT - s.buy_in - s.fee - s.addon.price
    assert runner.t.prize_pool == 2 * s.buy_in + s.addon.price
    await assert_books_balance(server)


async def test_a_rebuy_from_a_view_out_of_date_is_refused_and_a_retry_answered_the_same(
    server: Server,
) -> None:
    runner, (ann, bob) = await started_rebuy_event(server)
    s = runner.t.structure
    assert s.rebuy is not None
    table = runner.t.tables[1]
    mine = table.seat_of(runner.entry_of(ann["account_id"]))
    theirs = table.seat_of(runner.entry_of(bob["account_id"]))
    path = f"/api/tournaments/{runner.id}/rebuy"
    async with httpx.AsyncClient(base_url=server.base, headers=bearer(ann)) as http:
        first = await http.post(path, json={"number": 1, "request": "click-1"})
        assert first.status_code == 200, first.text
        assert first.json()["number"] == 1 and first.json()["chips"] == s.rebuy.chips
        assert mine.stack == s.starting_stack + s.rebuy.chips
        again = await http.post(path, json={"number": 1, "request": "click-1"})
        assert again.status_code == 200 and again.json() == first.json()
        assert mine.stack == s.starting_stack + s.rebuy.chips  # nothing moved
        # ann loses a pot to bob: at the limit again, she may make her second rebuy.
        mine.stack, theirs.stack = mine.stack - s.rebuy.chips, theirs.stack + s.rebuy.chips
        assert runner.t.can_rebuy(runner.entry_of(ann["account_id"]), runner.now())
        # Her view still shows no rebuy made (a node that has not read the event since):
        # the click names rebuy 1. Not a retry (another click): refused, nothing bought.
        stale = await http.post(path, json={"number": 1, "request": "click-2"})
        assert stale.status_code == 400, stale.text
        assert stale.json()["code"] == "tournament.rebuy_not_next"
        assert {"done": "1", "number": "1"}.items() <= stale.json()["params"].items()
        assert "nothing was bought" in stale.json()["detail"]
        assert mine.stack == s.starting_stack and runner.t.rebuys == 1
        # She looks again and asks for rebuy 2: made, once.
        second = await http.post(path, json={"number": 2, "request": "click-3"})
        assert second.status_code == 200, second.text
        assert second.json()["number"] == 2
        again = await http.post(path, json={"number": 2, "request": "click-3"})
        assert again.status_code == 200 and again.json() == second.json()
        me = (await http.get("/api/me")).json()
    assert mine.stack == s.starting_stack + s.rebuy.chips and runner.t.rebuys == 2
    assert me["balance"] == STARTING_GRANT - s.buy_in - s.fee - 2 * s.rebuy.price
    assert runner.t.prize_pool == 2 * s.buy_in + 2 * s.rebuy.price
    await assert_books_balance(server)
