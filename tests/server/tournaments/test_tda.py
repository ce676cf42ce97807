"""Tournament rules in a running room that a tournament director signs: a bust in the rebuy
period is offered the rebuy for the player's decision time (the seat waits, dealt out; only a
refusal or the time running out eliminates, stored at once); a deal proposal nobody answers
lapses after the decision time and the final table deals on; one proposal per player per
level. Over real sockets, the books balanced to the chip (S-AUDIT-2)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import httpx

from pokerroom.server.tournaments.runner import TournamentRunner
from pokerroom.tournament.events import HandDone
from tests.helpers.accounts import signup
from tests.helpers.audit import assert_books_balance
from tests.helpers.coordinator_hands import all_in_hand
from tests.server.conftest import Server


class Later:
    """The room's clock moved on by ``seconds`` from the clock it replaces."""

    def __init__(self, clock: Callable[[], float], seconds: float) -> None:
        self.clock, self.seconds = clock, seconds

    def __call__(self) -> float:
        return self.clock() + self.seconds


async def started(
    server: Server, structure: str, names: list[str]
) -> tuple[TournamentRunner, dict[str, Any]]:
    """An event of ``names`` started by the director; its tables deal no hand by themselves
    (the test deals them, as a table task does)."""
    hall = server.app.state.tournaments
    runner = await hall.create(structure)  # no start time: the director starts it
    people = {name: await signup(server.base, name) for name in names}
    for k, who in enumerate(people.values()):
        await runner.register(who["account_id"], who["username"], f"r{k}")
    runner.starts_at = hall.clock()
    await runner.maybe_start()
    for actor in runner.actors.values():
        actor.next_hand_at = float("inf")
    return runner, people


async def out_stored(server: Server, runner: TournamentRunner) -> set[str]:
    """The entries out in the event's stored state."""
    record = next(r for r in await runner.store.tournaments() if r.id == runner.id)
    return {e["id"] for e in json.loads(record.snapshot)["entries"] if e["out"]}


async def test_TDA_a_bust_in_the_rebuy_period_waits_dealt_out_for_a_rebuy_a_refusal_or_the_time(
    server: Server,
) -> None:
    for attempt in range(5):  # an all-in hand of five that busts fewer than three: again
        names = [f"p{k}_rb{attempt}" for k in range(5)]
        runner, people = await started(server, "mtt_rebuy", names)
        t = runner.t
        events = all_in_hand(t, 1, runner.now())  # as the table task deals and plays it
        runner.after(events)
        busted = next(e.busted for e in events if isinstance(e, HandDone))
        if len(busted) >= 3:
            break
    else:
        raise AssertionError("five all-in hands busted fewer than three players")
    account = {e: t.entries[e].player for e in busted}
    auth = {
        e: {"Authorization": f"Bearer {who['token']}"}
        for e in busted
        for who in people.values()
        if str(who["account_id"]) == account[e]
    }
    rebuys, declines, lapses = busted[0], busted[1], busted[2:]
    path = f"/api/tournaments/{runner.id}"
    async with httpx.AsyncClient(base_url=server.base) as http:
        for entry in busted:  # not out: the seat waits for their decision
            mine = (await http.get(f"{path}/me", headers=auth[entry])).json()
            assert not mine["out"] and mine["can_rebuy"], mine
            assert 0 < mine["rebuy_offer_seconds"] <= t.house.decision_seconds
            assert t.table_of(entry).seat_of(entry).stack == 0
        assert t.left == 5
        bought = await http.post(f"{path}/rebuy", json={"number": 1}, headers=auth[rebuys])
        assert bought.status_code == 200, bought.text
        rule = t.structure.rebuy
        assert rule is not None and t.table_of(rebuys).seat_of(rebuys).stack == rule.chips
        refused = await http.post(f"{path}/rebuy/decline", headers=auth[declines])
        assert refused.status_code == 204, refused.text
        assert t.entries[declines].out and t.left == 4
        assert await out_stored(server, runner) == {declines}  # stored at once
        again = await http.post(f"{path}/rebuy/decline", headers=auth[declines])
        assert again.status_code == 400 and again.json()["code"] == "tournament.no_rebuy_offer"
    # The others let their time run out: the table's clock puts them out, and stores it.
    hall = server.app.state.tournaments
    hall.clock = Later(hall.clock, t.house.decision_seconds + 1)
    runner.actors[1].wake()
    deadline = time.monotonic() + 30
    while await out_stored(server, runner) != {declines, *lapses}:
        assert time.monotonic() < deadline, "the lapsed offers were not stored in 30 s"
        await asyncio.sleep(0.05)
    assert t.left == 4 - len(lapses) and not t.offers and not t.entries[rebuys].out
    await assert_books_balance(server)


async def test_TDA_a_deal_nobody_answers_lapses_after_the_decision_time_one_a_level(
    server: Server,
) -> None:
    runner, people = await started(server, "mtt_freezeout", ["ann_lapse", "bob_lapse", "cy_lapse"])
    t = runner.t
    t.close_registration()  # three left at one table: the final table, the field final
    ann, bob = ({"Authorization": f"Bearer {who['token']}"} for who in list(people.values())[:2])
    path = f"/api/tournaments/{runner.id}/deal"
    decision = t.house.decision_seconds
    async with httpx.AsyncClient(base_url=server.base) as http:
        proposed = await http.post(path, json={"kind": "chip"}, headers=ann)
        assert proposed.status_code == 200, proposed.text
        assert 0 < proposed.json()["proposal"]["seconds_left"] <= decision
        actor = runner.actors[1]
        assert not await actor._maybe_start(runner.now())  # held while it is open
        # Nobody answers (bots never do): the decision time passes, the proposal lapses,
        # and the table deals its next hand at its time.
        hall = server.app.state.tournaments
        hall.clock = Later(hall.clock, decision + 1)
        actor.next_hand_at = runner.now()
        actor.wake()
        deadline = time.monotonic() + 30
        while t.hands == 0:
            assert time.monotonic() < deadline, "the final table dealt no hand in 30 s"
            await asyncio.sleep(0.02)
        assert runner.proposal is None
        view = (await http.get(path)).json()
        assert view["proposal"] is None and not view["made"]
        again = await http.post(path, json={"kind": "icm"}, headers=ann)  # the same level
        assert again.status_code == 400, again.text
        assert again.json()["code"] == "tournament.deal_once_a_level"
        other = await http.post(path, json={"kind": "icm"}, headers=bob)  # another player may
        assert other.status_code == 200, other.text  # (in the hand: its amounts at its end)
    await assert_books_balance(server)
