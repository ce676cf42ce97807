"""Tournaments in a running room, over real sockets: a sit & go with bots and two
people to the end; registration through the REST API; the lobby; hole-card privacy
(S-VIEW-1) at tournament tables; the books balance (S-AUDIT-2)."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx

from pokerroom.bots.strategy import RuleBot
from pokerroom.bots.tournament import run_tournament_bot
from pokerroom.server.tournaments.buys import buy_chips
from pokerroom.store.accounts.accounts import STARTING_GRANT
from pokerroom.tournament.deals import chip_split
from tests.helpers.accounts import signup
from tests.helpers.audit import assert_books_balance
from tests.helpers.tournaments import Fast, person
from tests.server.conftest import Server


def assert_private(name: str, frames: list[dict[str, Any]]) -> int:
    """S-VIEW-1: no other seat's hole cards unless shown; gives the tournament frames seen."""
    tables = [f for f in frames if f.get("type") == "table"]
    leaked = [
        (frame["hand"], seat["seat"])
        for frame in tables
        for seat in frame["seats"]
        if seat["seat"] != frame.get("you") and seat.get("cards") and not seat.get("shown")
    ]
    assert not leaked, f"{name} saw others' hole cards: {leaked[:3]}"
    infos = [f["tournament"] for f in tables if f.get("tournament") is not None]
    for info in infos:
        assert info["big_blind"] > 0 and info["level"] >= 1
        assert info["players_left"] <= info["entrants"]
    return len(infos)


async def test_a_sit_and_go_with_bots_and_two_people_to_the_end(server: Server) -> None:
    hall = server.app.state.tournaments
    hall.clock, hall.speed = Fast(30), 30  # five-minute levels in ten seconds
    runner = await hall.create("sng6_turbo")
    people = {name: await signup(server.base, name) for name in ("ann_sng", "bob_sng")}
    frames: dict[str, list[dict[str, Any]]] = {name: [] for name in people}
    tasks = [
        run_tournament_bot(
            server.base, f"sngbot{k}", RuleBot(random.Random(k)), tournament=runner.id
        )
        for k in range(4)
    ]
    tasks += [
        person(server, runner.id, name, data, on_frame=frames[name].append)
        for name, data in people.items()
    ]
    results = await asyncio.wait_for(asyncio.gather(*tasks), timeout=900)
    assert sorted(r.place for r in results) == [1, 2, 3, 4, 5, 6]
    pool = 6 * 1000
    assert runner.t.prize_pool == pool
    assert sum(r.prize or 0 for r in results) == pool  # 65% and 35%, the pool emptied
    prizes = sorted((r.prize or 0 for r in results), reverse=True)
    # 65% to the winner, 35% to second: split when several bust in one hand with equal
    # stacks and tie for it (all in on the first hand, say)
    assert prizes[0] == 3900 and sum(prizes[1:]) == 2100
    for name, received in frames.items():
        assert assert_private(name, received) > 0, f"{name} saw no tournament table"
        assert any(f.get("type") == "tournament" and f["kind"] == "started" for f in received)
        notices = [f for f in received if f.get("type") == "tournament"]
        codes = {f["code"] for f in notices}  # each named for the client's language
        assert "tournament.started" in codes and all(c.startswith("tournament.") for c in codes)
        assert any(f["params"].get("entrants") == "6" for f in notices if f["kind"] == "finished")
    async with httpx.AsyncClient(base_url=server.base) as http:
        lobby = (await http.get("/api/tournaments")).json()
        ann = await http.get(
            "/api/me", headers={"Authorization": f"Bearer {people['ann_sng']['token']}"}
        )
    event = next(e for e in lobby if e["id"] == runner.id)
    assert event["status"] == "finished" and event["players_left"] == 1
    assert sorted(p["place"] for p in event["players"]) == [1, 2, 3, 4, 5, 6]
    assert sum(p["prize"] for p in event["players"]) == pool
    won = next(p["prize"] for p in event["players"] if p["name"] == "ann_sng")
    assert ann.json()["balance"] == STARTING_GRANT - 1100 + won
    report = await assert_books_balance(server)
    assert report.tournaments == 1


async def test_register_unregister_and_my_table_through_the_api(server: Server) -> None:
    hall = server.app.state.tournaments
    runner = await hall.create("sng_heads_up")
    ann, bob = await signup(server.base, "ann_api"), await signup(server.base, "bob_api")
    path = f"/api/tournaments/{runner.id}"
    async with httpx.AsyncClient(base_url=server.base) as http:

        def auth(who: dict[str, Any]) -> dict[str, str]:
            return {"Authorization": f"Bearer {who['token']}"}

        async def balance(who: dict[str, Any]) -> int:
            me: int = (await http.get("/api/me", headers=auth(who))).json()["balance"]
            return me

        cost = runner.t.structure.buy_in + runner.t.structure.fee
        for _ in range(2):  # a retried request registers once
            done = await http.post(f"{path}/register", json={"request": "a1"}, headers=auth(ann))
            assert done.status_code == 200, done.text
        assert await balance(ann) == STARTING_GRANT - cost
        assert (await http.get(f"{path}/table", headers=auth(ann))).json()["table"] is None
        assert (await http.post(f"{path}/unregister", headers=auth(ann))).status_code == 204
        assert await balance(ann) == STARTING_GRANT  # the buy-in and the fee back
        again = await http.post(f"{path}/register", json={"request": "a1"}, headers=auth(ann))
        assert again.status_code == 400 and "taken back" in again.text
        refused = await http.post(f"{path}/unregister", headers=auth(bob))
        assert refused.status_code == 400 and "not registered" in refused.text
        assert refused.json()["code"] == "tournament.account_not_registered"
        assert (
            await http.post(
                "/api/tournaments/nope/register", json={"request": "x"}, headers=auth(bob)
            )
        ).status_code == 404
        for who, key in ((ann, "a2"), (bob, "b1")):  # full: the heads-up starts
            response = await http.post(f"{path}/register", json={"request": key}, headers=auth(who))
            assert response.status_code == 200, response.text
        table = (await http.get(f"{path}/table", headers=auth(ann))).json()["table"]
        assert table == f"{runner.id}-1"
        late = await http.post(f"{path}/unregister", headers=auth(bob))
        assert late.status_code == 400 and "has started" in late.text
        view = (await http.get(path)).json()
        assert view["status"] == "running" and view["entrants"] == 2
        assert view["prize_pool"] == 2 * runner.t.structure.buy_in
        assert {p["name"] for p in view["players"]} == {"ann_api", "bob_api"}
        assert view["level"] == 1 and view["tables"] == [{"id": table, "players": 2}]
        lobby = (await http.get("/api/lobby")).json()
        assert all(not t.get("id", "").startswith(runner.id) for t in lobby)  # not cash tables
    await assert_books_balance(server)


async def test_a_rebuy_pays_the_pool_and_adds_chips_between_hands(server: Server) -> None:
    hall = server.app.state.tournaments
    runner = await hall.create("mtt_rebuy")  # no start time: the director starts it
    people = [await signup(server.base, name) for name in ("ann_rebuy", "bob_rebuy")]
    for k, who in enumerate(people):
        await runner.register(who["account_id"], who["username"], f"r{k}")
    runner.starts_at = hall.clock()
    await runner.maybe_start()
    for actor in runner.actors.values():  # hold the first deal while the rebuy is made
        actor.next_hand_at = float("inf")
    ann = people[0]["account_id"]
    rule = runner.t.structure.rebuy
    await buy_chips(runner, ann, addon=False)
    seat = runner.t.tables[1].seat_of(str(ann))
    assert seat.stack == runner.t.structure.starting_stack + rule.chips
    assert runner.t.prize_pool == 2 * runner.t.structure.buy_in + rule.price
    async with httpx.AsyncClient(base_url=server.base) as http:
        me = await http.get("/api/me", headers={"Authorization": f"Bearer {people[0]['token']}"})
        assert me.json()["balance"] == (
            STARTING_GRANT - runner.t.structure.buy_in - runner.t.structure.fee - rule.price
        )
        refused = await http.post(  # no add-on before its break
            f"/api/tournaments/{runner.id}/addon",
            headers={"Authorization": f"Bearer {people[1]['token']}"},
        )
    assert refused.status_code == 400 and "add-on" in refused.text
    report = await assert_books_balance(server)
    assert report.tournaments >= 1
    for actor in runner.actors.values():
        actor.next_hand_at = 0.0
        actor.wake()


async def test_a_multi_table_event_short_of_its_minimum_at_its_time_is_cancelled_and_refunded(
    server: Server,
) -> None:
    hall = server.app.state.tournaments
    now = [time.time()]
    hall.clock = lambda: now[0]
    runner = await hall.create("mtt_freezeout", starts_at=now[0] + 600)
    assert runner.t.structure.min_entrants == 2
    ann = await signup(server.base, "ann_short")
    path = f"/api/tournaments/{runner.id}"
    async with httpx.AsyncClient(
        base_url=server.base, headers={"Authorization": f"Bearer {ann['token']}"}
    ) as http:
        done = await http.post(f"{path}/register", json={"request": "r1"})
        assert done.status_code == 200, done.text
        cost = runner.t.structure.buy_in + runner.t.structure.fee
        assert (await http.get("/api/me")).json()["balance"] == STARTING_GRANT - cost
        await assert_books_balance(server)
        now[0] += 601  # its time: one entrant of the two it needs
        hall.changed()
        deadline = time.monotonic() + 30
        while runner.status != "cancelled" and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        view = (await http.get(path)).json()
        assert view["status"] == "cancelled" and not view["registration_open"]
        assert view["entrants"] == 0 and view["prize_pool"] == 0
        assert (await http.get("/api/me")).json()["balance"] == STARTING_GRANT
        again = await http.post(f"{path}/register", json={"request": "r2"})
        assert again.status_code == 400 and "cancelled" in again.text
        assert again.json()["code"] == "tournament.cancelled"
        assert again.json()["params"] == {"event": runner.t.name}
        assert (await http.get("/api/me")).json()["balance"] == STARTING_GRANT
    assert not runner.t.started
    report = await assert_books_balance(server)
    assert report.tournaments == 1


async def test_a_deal_at_the_final_table_is_agreed_paid_and_play_goes_on(server: Server) -> None:
    """Heads-up, so the final table from the first hand; a bust in the hand in play when the
    deal is proposed ends the event first (then a new one is tried: at most five)."""
    for attempt in range(5):
        if await deal_attempt(server, attempt):
            break
    else:
        raise AssertionError("five events ended before their deal could be agreed")
    report = await assert_books_balance(server)
    assert report.tournaments == attempt + 1


async def deal_attempt(server: Server, attempt: int) -> bool:
    hall = server.app.state.tournaments
    runner = await hall.create("sng_heads_up")
    names = (f"ann_deal{attempt}", f"bob_deal{attempt}")
    people = {name: await signup(server.base, name) for name in names}
    tasks = [asyncio.create_task(person(server, runner.id, n, d)) for n, d in people.items()]
    path = f"/api/tournaments/{runner.id}/deal"
    ann, bob = ({"Authorization": f"Bearer {d['token']}"} for d in people.values())
    async with httpx.AsyncClient(base_url=server.base) as http:
        deadline = time.monotonic() + 60
        while not runner.t.started and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert runner.t.started
        bad = await http.post(path, json={"kind": "half"}, headers=ann)
        assert bad.status_code == 422
        greedy = await http.post(path, json={"kind": "chip", "keep": 5000}, headers=ann)
        if greedy.status_code == 200:  # proposed in a hand: void once it ends (too much kept)
            while greedy.json()["proposal"] is not None and not runner.t.finished:
                await asyncio.sleep(0.02)
                greedy = await http.get(path)
        elif runner.t.finished or len(runner.t.remaining()) < 2:  # over first: again
            await asyncio.gather(*tasks)
            return False
        else:
            assert greedy.json()["code"] == "tournament.deal_keep", greedy.text
        proposed = await http.post(path, json={"kind": "chip", "keep": 500}, headers=ann)
        if runner.t.finished:
            await asyncio.gather(*tasks)
            return False
        assert proposed.status_code == 200, proposed.text
        twice = await http.post(path, json={"kind": "icm"}, headers=bob)
        assert twice.status_code == 400 and twice.json()["code"] == "tournament.deal_open"
        view = proposed.json()
        while view["amounts"] is None and not runner.t.finished:
            await asyncio.sleep(0.02)  # the hand in play ends; no new one is dealt meanwhile
            view = (await http.get(path)).json()
        if runner.t.finished:
            await asyncio.gather(*tasks)
            return False
        amounts = view["amounts"]
        table = runner.t.tables[1]
        stacks = {e: table.seat_of(e).stack for e in amounts}
        assert sum(amounts.values()) == runner.t.prize_pool - 500
        split = chip_split(list(stacks.values()), [runner.t.prize_pool - 500, 0])
        assert amounts == dict(zip(stacks, split, strict=True))
        entry_of = {runner.names[runner.t.entries[e].player]: e for e in amounts}
        assert view["proposal"]["waiting"] == [entry_of[names[1]]]  # ann accepted hers
        assert table.hand is None and not runner.t.finished
        done = await http.post(f"{path}/accept", headers=bob)
        assert done.status_code == 200, done.text
        assert done.json()["made"] and done.json()["amounts"] == amounts
    results = await asyncio.wait_for(asyncio.gather(*tasks), timeout=900)
    for name, result in zip(people, results, strict=True):  # paid through the ledger
        entry = entry_of[name]
        assert result.prize == amounts[entry] + (500 if entry == runner.t.winner else 0)
    return True


async def test_no_deal_before_the_final_table_nor_from_someone_not_in_it(server: Server) -> None:
    runner = await server.app.state.tournaments.create("sng6_turbo")
    ann, cy = await signup(server.base, "ann_nodeal"), await signup(server.base, "cy_nodeal")
    path = f"/api/tournaments/{runner.id}"
    async with httpx.AsyncClient(base_url=server.base) as http:
        done = await http.post(
            f"{path}/register",
            json={"request": "a"},
            headers={"Authorization": f"Bearer {ann['token']}"},
        )
        assert done.status_code == 200, done.text
        for who, code in ((ann, "tournament.deal_final_table"), (cy, "tournament.not_in")):
            refused = await http.post(
                f"{path}/deal",
                json={"kind": "icm"},
                headers={"Authorization": f"Bearer {who['token']}"},
            )
            assert refused.status_code == 400 and refused.json()["code"] == code, refused.text
        view = (await http.get(f"{path}/deal")).json()
        assert view == {"made": False, "amounts": None, "keep": 0, "proposal": None}
    assert runner.proposal is None
