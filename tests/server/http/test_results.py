"""My results over HTTP: the logged-in player's own page (the same a replay of their
records gives, whatever account a request names), its filters, a bad filter refused with a
clear 422, and 401 without a session. The floor's integrity reports: operators only (401
anonymous, 403 a player). A WebSocket's hello records the account's address and device."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from websockets.asyncio.client import connect

from pokerroom.history.results import Filters
from pokerroom.server.http.socket import device_of
from pokerroom.store.db import Database
from pokerroom.store.models import ConnectionSeen
from tests.helpers.accounts import operator_headers
from tests.helpers.audit import assert_books_balance
from tests.helpers.results import recounted
from tests.helpers.room_tables import ann_and_bob_seated, play_along
from tests.helpers.tournaments import Fast
from tests.helpers.tournaments import person as tournament_player
from tests.helpers.waiting import eventually
from tests.server.conftest import Server, person

TABLE = "results-1"


def today() -> date:
    """The room's day (it counts days in UTC), read when asked: a run can cross midnight."""
    return datetime.now(UTC).date()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _agrees(
    http: httpx.AsyncClient, token: str, server: Server, account: int, filters: Filters
) -> dict[str, Any] | None:
    """The page the route gives, if a recount of the records gives the same (hands go on
    at the table meanwhile: both read again until they agree)."""
    params = {
        name: str(value)
        for name, value in (
            ("position", filters.position),
            ("since", filters.since),
            ("game", filters.game),
        )
        if value is not None
    }
    response = await http.get("/api/me/results", params=params, headers=bearer(token))
    assert response.status_code == 200, response.text
    page: dict[str, Any] = response.json()
    hands = {kind: {k: v for k, v in part.items() if k != "events"} for kind, part in page.items()}
    return page if hands == await recounted(server.database, account, filters) else None


async def test_my_results_are_my_own_filtered_and_as_the_records_recount(server: Server) -> None:
    ann, bob = await ann_and_bob_seated(server, TABLE, (1, 2))
    await asyncio.gather(play_along(ann, TABLE, 4), play_along(bob, TABLE, 4))
    cy = await person(server.base, "cyd")  # played nothing
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        page = await eventually(
            lambda: _agrees(http, ann.token, server, ann.account_id, Filters()),
            "ann's page as her records recount it",
        )
        cash = page["cash"]
        assert cash["overall"]["hands"] >= 3 and page["tournament"]["overall"]["hands"] == 0
        assert sum(p["hands"] for p in cash["by_position"].values()) == cash["overall"]["hands"]
        assert cash["by_hands"][-1]["hands"] == cash["overall"]["hands"]
        assert cash["by_hands"][-1]["net"] == cash["overall"]["net"]
        # Another account's id in the query changes nothing: the page is the session's.
        mine = await http.get(
            "/api/me/results", params={"account": bob.account_id}, headers=bearer(ann.token)
        )
        assert mine.json()["cash"]["overall"]["hands"] >= cash["overall"]["hands"]
        theirs = (await http.get("/api/me/results", headers=bearer(cy.token))).json()
        assert theirs["cash"]["overall"]["hands"] == 0 and theirs["cash"]["by_hands"] == []
        # Filters: a position (heads-up: BTN or BB), a day, a game; one kind only.
        for filters in (
            Filters(position="BTN"),
            Filters(since=today() + timedelta(days=1)),
            Filters(game="NT"),
        ):
            await eventually(
                lambda f=filters: _agrees(http, ann.token, server, ann.account_id, f),  # type: ignore[misc]
                f"ann's page filtered by {filters}",
            )
        later = (
            await http.get(
                "/api/me/results",
                params={"since": str(today() + timedelta(days=1))},
                headers=bearer(ann.token),
            )
        ).json()
        assert later["cash"]["overall"]["hands"] == 0
        cash_only = await http.get(
            "/api/me/results", params={"kind": "cash"}, headers=bearer(ann.token)
        )
        assert set(cash_only.json()) == {"cash"}
        # Bad filters: a clear 422, with the code a client shows in its language.
        for params, code in (
            ({"position": "DEALER"}, "results.position"),
            ({"since": "2026-12-05", "until": "2026-12-01"}, "results.dates"),
            ({"big_blind": "two"}, "request.invalid"),
            ({"kind": "sit-and-go"}, "request.invalid"),
            ({"since": "yesterday"}, "request.invalid"),
        ):
            bad = await http.get("/api/me/results", params=params, headers=bearer(ann.token))
            assert bad.status_code == 422, (params, bad.text)
            assert bad.json()["code"] == code, (params, bad.json())
        position = await http.get(
            "/api/me/results", params={"position": "DEALER"}, headers=bearer(ann.token)
        )
        assert "UTG+1" in position.json()["detail"]  # says which positions there are
        assert (await http.get("/api/me/results")).status_code == 401
        assert (await http.get("/api/me/results", headers=bearer("nonsense"))).status_code == 401
    await assert_books_balance(server)


async def test_the_floors_reports_are_for_operators_only(server: Server) -> None:
    ann, bob = await ann_and_bob_seated(server, TABLE, (1, 2))
    await asyncio.gather(play_along(ann, TABLE, 2), play_along(bob, TABLE, 2))
    floor = await operator_headers(server)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        assert (await http.get("/api/floor/reports")).status_code == 401
        assert (await http.get("/api/floor/reports", headers=bearer(ann.token))).status_code == 403
        response = await http.get("/api/floor/reports", headers=floor)
        assert response.status_code == 200, response.text
        body = response.json()
        reports = body["reports"]
        assert set(reports) == {"chip_dumping", "soft_play", "shared_connections"}
        # ann and bob played from one address (the loopback): the report pairs them.
        shared = reports["shared_connections"]["rows"]
        pair = sorted((ann.account_id, bob.account_id))
        assert any(sorted(row["accounts"]) == pair and row["hands"] for row in shared), shared
        assert body["until"] == today().isoformat()
        old = await http.get(
            "/api/floor/reports",
            params={"since": "2020-01-01", "until": "2020-01-02"},
            headers=floor,
        )
        # No hand then: nothing flagged, no hand cited (shared connections still lists who
        # shares an address, at a score of 0).
        assert all(
            r["flagged"] == 0 and all(row["hands"] == [] for row in r["rows"])
            for r in old.json()["reports"].values()
        )
        too_long = await http.get(
            "/api/floor/reports",
            params={"since": "2020-01-01", "until": "2021-01-01"},
            headers=floor,
        )
        assert too_long.status_code == 422 and too_long.json()["code"] == "floor.period"


async def _seen(url: str, account: int) -> list[tuple[str, str]]:
    db = Database(url)
    try:
        async with db.transaction() as session:
            rows = await session.execute(
                select(ConnectionSeen.address, ConnectionSeen.device).where(
                    ConnectionSeen.account_id == account
                )
            )
            return [(address, device) for address, device in rows]
    finally:
        await db.close()


async def test_a_sockets_hello_records_its_address_and_device(server: Server) -> None:
    ann = await person(server.base, "ann")
    async with connect(
        server.base.replace("http", "ws", 1) + "/ws", user_agent_header="Phone Browser 1.0"
    ) as ws:
        await ws.recv()  # welcome
        await ws.send(f'{{"type": "hello", "token": "{ann.token}"}}')
        await ws.recv()
        await eventually(
            lambda: _seen_both(server.database, ann.account_id),
            "ann's second device recorded",
        )
    seen = await _seen(server.database, ann.account_id)
    assert ("127.0.0.1", device_of("Phone Browser 1.0")) in seen
    assert all(address == "127.0.0.1" and len(device) == 32 for address, device in seen)


async def _seen_both(url: str, account: int) -> bool:
    return len(await _seen(url, account)) == 2


@pytest.mark.postgres
async def test_my_results_and_the_floors_reports_on_postgresql(postgres_server: Server) -> None:
    """The same page and reports from PostgreSQL's rows (its own day grouping and the
    reports' read on the async driver)."""
    server = postgres_server
    ann, bob = await ann_and_bob_seated(server, TABLE, (1, 2))
    await asyncio.gather(play_along(ann, TABLE, 2), play_along(bob, TABLE, 2))
    floor = await operator_headers(server)
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        page = await eventually(
            lambda: _agrees(http, ann.token, server, ann.account_id, Filters()),
            "ann's page as her records recount it",
        )
        assert page["cash"]["overall"]["hands"] >= 1 and len(page["cash"]["by_day"]) == 1
        reports = (await http.get("/api/floor/reports", headers=floor)).json()["reports"]
        pair = sorted((ann.account_id, bob.account_id))
        shared = reports["shared_connections"]["rows"]
        assert any(sorted(row["accounts"]) == pair and row["hands"] for row in shared), shared


async def _sit_and_go(server: Server, names: tuple[str, str]) -> tuple[list[Any], Any]:
    """Two players play a heads-up sit & go to its end (the rule bot's choices, the
    room's clock fast); gives them and the event's runner."""
    players = [await person(server.base, name) for name in names]
    hall = server.app.state.tournaments
    hall.clock, hall.speed = Fast(30), 30
    runner = await hall.create("sng_heads_up")
    await asyncio.wait_for(
        asyncio.gather(
            *(tournament_player(server, runner.id, p.name, {"token": p.token}) for p in players)
        ),
        timeout=600,
    )
    return players, runner


async def _events_recounted(http: httpx.AsyncClient, token: str, runner: Any, account: int) -> Any:
    """The route's tournament results, once they are as the event's own record gives them:
    the player's place and prize from the runner's places (the prizes paid) and the cost
    from its structure (events finish a moment after their last hand's write)."""
    events = (await http.get("/api/me/results", headers=bearer(token))).json()["tournament"]
    mine = [p for e, p in runner.places.items() if runner.t.entries[e].player == str(account)]
    s = runner.t.structure
    if runner.status != "finished" or events["events"]["played"] != 1 or len(mine) != 1:
        return None
    (row,) = events["events"]["events"]
    want = (runner.id, mine[0].place, 2, s.buy_in + s.fee, mine[0].prize)
    got = (row["id"], row["place"], row["entries"], row["cost"], row["prize"])
    return events if got == want else None


async def test_my_tournament_results_are_the_events_finish_and_money(server: Server) -> None:
    (ann, bob), runner = await _sit_and_go(server, ("ann_sng", "bob_sng"))
    s = runner.t.structure
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        for someone in (ann, bob):
            part = await eventually(
                lambda p=someone: _events_recounted(http, p.token, runner, p.account_id),  # type: ignore[misc]
                f"{someone.name}'s finished sit & go in her results",
            )
            events = part["events"]
            (row,) = events["events"]
            won = row["place"] == 1
            assert events["itm"] == int(won) and events["itm_rate"] == (100.0 if won else 0.0)
            assert events["cost"] == s.buy_in + s.fee and row["bounties"] == 0
            profit = row["prize"] - events["cost"]
            assert events["roi"] == pytest.approx(100.0 * profit / events["cost"])
            assert events["best"] == [runner.id]
            # Tournament chips stay in the tournament part: they never reach the cash profit.
            assert part["overall"]["hands"] >= 1
            assert abs(part["overall"]["net"]) == s.starting_stack
            cash = (await http.get("/api/me/results", headers=bearer(someone.token))).json()["cash"]
            assert cash["overall"]["hands"] == 0 and cash["overall"]["net"] == 0
            # The last hand of the event and each point of its line open in the replayer.
            assert row["hand"] == part["by_hands"][-1]["hand"] and row["table"] == runner.id + "-1"
            url = f"/api/hands/{row['hand']}/replay"
            replay = await http.get(url, headers=bearer(someone.token))
            assert replay.status_code == 200, replay.text
        # The winner's prize is the whole pool: a heads-up sit & go pays one place.
        rows = [await _row(http, p.token) for p in (ann, bob)]
        assert sum(r["prize"] for r in rows) == 2 * s.buy_in
        # Filters: the dates choose events by their end; a kind keeps its own part only.
        later = await http.get(
            "/api/me/results",
            params={"since": str(today() + timedelta(days=1))},
            headers=bearer(ann.token),
        )
        assert later.json()["tournament"]["events"]["played"] == 0
        day = await http.get(
            "/api/me/results",
            params={"since": str(today()), "until": str(today()), "kind": "tournament"},
            headers=bearer(ann.token),
        )
        assert set(day.json()) == {"tournament"}
        assert day.json()["tournament"]["events"]["played"] == 1
        cash_only = await http.get(
            "/api/me/results", params={"kind": "cash"}, headers=bearer(ann.token)
        )
        assert "events" not in cash_only.json()["cash"]
    await assert_books_balance(server)


async def _row(http: httpx.AsyncClient, token: str) -> dict[str, Any]:
    page = (await http.get("/api/me/results", headers=bearer(token))).json()
    row: dict[str, Any] = page["tournament"]["events"]["events"][0]
    return row


@pytest.mark.postgres
async def test_my_tournament_results_on_postgresql(postgres_server: Server) -> None:
    """The same events read from PostgreSQL's ledger and records (its times come back in
    the session's zone)."""
    server = postgres_server
    (ann, _), runner = await _sit_and_go(server, ("ann_pg", "bob_pg"))
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        part = await eventually(
            lambda: _events_recounted(http, ann.token, runner, ann.account_id),
            "ann's finished sit & go in her results",
        )
        assert part["events"]["events"][0]["finished_at"].startswith(today().isoformat())
    await assert_books_balance(server)
