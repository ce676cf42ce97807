"""The back office's routes (server/http/backoffice.py): operators only (401 anonymous, 403
a player, for every route); the audit of ``pokerroom audit`` run over HTTP, each
difference linked to what it names; the metrics of the last hour; any finished hand
replayed with every card; the tournament hall's acts (create from a structure, start now,
cancel with refunds), bad input refused with a clear error that changes nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.helpers.accounts import operator_headers
from tests.helpers.audit import assert_books_balance
from tests.helpers.backoffice import BACK_OFFICE_ROUTES, bearer, shift_balance
from tests.helpers.room_tables import ann_and_bob_seated, play_along
from tests.server.conftest import PASSWORD_SECONDS, Server, person

TABLE = "bo-1"


async def _events(server: Server) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(base_url=server.base) as http:
        return list((await http.get("/api/tournaments")).json())


async def test_every_back_office_route_is_for_operators_only(server: Server) -> None:
    ann = await person(server.base, "ann")
    floor = await operator_headers(server)
    async with httpx.AsyncClient(base_url=server.base, timeout=PASSWORD_SECONDS) as http:
        for method, path, body in BACK_OFFICE_ROUTES:
            anonymous = await http.request(method, path, json=body)
            assert anonymous.status_code == 401, (path, anonymous.text)
            refused = await http.request(method, path, json=body, headers=bearer(ann.token))
            assert refused.status_code == 403, (path, refused.text)
        assert (await http.get("/api/me", headers=bearer(ann.token))).json()["role"] == "player"
        assert (await http.get("/api/me", headers=floor)).json()["role"] == "operator"
    assert await _events(server) == []  # the refused creation made nothing


async def test_the_audit_from_the_page_names_each_difference_and_what_it_is_about(
    server: Server,
) -> None:
    ann, bob = await ann_and_bob_seated(server, TABLE, (1, 2))
    await asyncio.gather(play_along(ann, TABLE, 2), play_along(bob, TABLE, 2))
    floor = await operator_headers(server)
    async with httpx.AsyncClient(base_url=server.base, headers=floor, timeout=30) as http:
        clean = (await http.get("/api/floor/audit")).json()
        assert clean["ok"] and clean["problems"] == [] and clean["tables"] >= 1
        assert sum(clean["totals"].values()) == 0
        tables = (await http.get("/api/floor/tables")).json()
        seated = {a["id"] for a in tables[0]["accounts"]}
        assert seated == {ann.account_id, bob.account_id}
        # Five cents appear in ann's balance from nowhere: the books no longer add up.
        await shift_balance(server.database, ann.account_id, 5)
        try:
            broken = (await http.get("/api/floor/audit")).json()
        finally:
            await shift_balance(server.database, ann.account_id, -5)
        again = (await http.get("/api/floor/audit")).json()
    assert not broken["ok"]
    about_ann = [p for p in broken["problems"] if f"player {ann.account_id}:" in p["text"]]
    assert about_ann and {"kind": "account", "id": str(ann.account_id)} in about_ann[0]["links"]
    assert any(p["text"].startswith("the books do not balance") for p in broken["problems"])
    assert again["ok"] and again["problems"] == []
    await assert_books_balance(server)


async def test_the_floor_replays_any_finished_hand_with_every_card(server: Server) -> None:
    ann, bob = await ann_and_bob_seated(server, TABLE, (1, 2))
    await asyncio.gather(play_along(ann, TABLE, 2), play_along(bob, TABLE, 2))
    floor = await operator_headers(server)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        hands = (await http.get("/api/hands", headers=bearer(ann.token))).json()
        hand = next(h for h in hands if h["status"] == "complete")
        replay = await http.get(f"/api/floor/hands/{hand['id']}/replay", headers=floor)
        missing = await http.get("/api/floor/hands/999999/replay", headers=floor)
        bad = await http.get("/api/floor/hands/0/replay", headers=floor)
    assert replay.status_code == 200, replay.text
    body = replay.json()
    assert body["id"] == hand["id"] and body["table"] == TABLE
    first = body["frames"][0]["seats"]
    assert len(first) == 2 and all(s["cards"] for s in first)  # both players' hole cards
    assert missing.status_code == 404 and "no finished hand 999999" in missing.text
    assert missing.json()["code"] == "floor.no_hand"
    assert bad.status_code == 422


async def test_the_hall_from_the_back_office_create_start_and_cancel_with_refunds(
    server: Server,
) -> None:
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    floor = await operator_headers(server)
    hall = server.app.state.tournaments
    async with httpx.AsyncClient(base_url=server.base, headers=floor, timeout=30) as http:
        assert "mtt_freezeout" in (await http.get("/api/floor/tournaments/structures")).json()
        unknown = await http.post("/api/floor/tournaments", json={"structure": "no_such"})
        assert unknown.status_code == 422 and "no tournament structure 'no_such'" in unknown.text
        assert unknown.json()["code"] == "floor.no_structure"
        assert await _events(server) == []
        made = await http.post(
            "/api/floor/tournaments", json={"structure": "mtt_freezeout", "name": "Friday"}
        )
        assert made.status_code == 200, made.text
        event = made.json()
        assert event["status"] == "registering" and event["name"] == "Friday"
        early = await http.post(f"/api/floor/tournaments/{event['id']}/start")
        assert early.status_code == 409 and "needs 2 entrants" in early.text
        assert early.json()["code"] == "floor.too_few_entrants"
        assert hall.get(event["id"]).status == "registering"
        before = (await http.get("/api/me", headers=bearer(ann.token))).json()["balance"]
        runner = hall.get(event["id"])
        for k, someone in enumerate((ann, bob)):
            await runner.register(someone.account_id, someone.name, f"r{k}")
        paid = (await http.get("/api/me", headers=bearer(ann.token))).json()["balance"]
        assert paid < before
        no_reason = await http.post(f"/api/floor/tournaments/{event['id']}/cancel", json={})
        assert no_reason.status_code == 422 and runner.status == "registering"
        cancelled = await http.post(
            f"/api/floor/tournaments/{event['id']}/cancel", json={"reason": "no dealers"}
        )
        assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
        refunded = (await http.get("/api/me", headers=bearer(ann.token))).json()["balance"]
        assert refunded == before
        again = await http.post(
            f"/api/floor/tournaments/{event['id']}/cancel", json={"reason": "twice"}
        )
        assert again.status_code == 409 and again.json()["code"] == "floor.not_registering"
        assert again.json()["params"]["state"] == "cancelled"
        second = (await http.post("/api/floor/tournaments", json={"structure": "sng9"})).json()
        for k, someone in enumerate((ann, bob)):
            await hall.get(second["id"]).register(someone.account_id, someone.name, f"s{k}")
        started = await http.post(f"/api/floor/tournaments/{second['id']}/start")
        assert started.status_code == 200, started.text
        assert started.json()["status"] == "running"
        late = await http.post(
            f"/api/floor/tournaments/{second['id']}/cancel", json={"reason": "too late"}
        )
        assert late.status_code == 409 and hall.get(second["id"]).status == "running"
        assert late.json()["code"] == "floor.not_registering"
        nobody = await http.post("/api/floor/tournaments/none-9/start")
        assert nobody.status_code == 404
        acts = [a["act"] for a in (await http.get("/api/floor/acts")).json()]
    assert acts == [
        "create_tournament",
        "cancel_tournament",
        "create_tournament",
        "start_tournament",
    ]
    await assert_books_balance(server)


async def test_the_metrics_of_the_last_hour_are_sampled_for_the_page(server: Server) -> None:
    ann, bob = await ann_and_bob_seated(server, TABLE, (1, 2))
    floor = await operator_headers(server)
    history = server.app.state.metric_history
    async with httpx.AsyncClient(base_url=server.base, headers=floor, timeout=30) as http:
        start = history.samples[-1][0]  # the lifespan's first sample
        history.sample(start + 1)  # before the hands; then a minute later, after them
        await asyncio.gather(play_along(ann, TABLE, 2), play_along(bob, TABLE, 2))
        history.sample(start + 61)
        body = (await http.get("/api/floor/metrics")).json()
    assert body["times"][-2:] == [start + 1, start + 61]
    series = body["series"]
    assert set(series) >= {"players", "tables", "hands", "http", "faults", "action_ms"}
    assert all(len(values) == len(body["times"]) for values in series.values())
    assert series["tables"][-1] == 1 and series["players"][-1] == 2
    assert series["hands"][0] is None  # the first sample has no rate
    assert series["hands"][-1] >= 1  # the second hand dealt: the first had ended
    assert series["action_ms"][-1] is not None and series["action_ms"][-1] > 0
