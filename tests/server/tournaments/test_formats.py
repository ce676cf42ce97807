"""Knockout events in a running room, over real sockets, played to the end by bots: every
bounty paid through the ledger to the knocker's balance, the winner's own included; the
lobby, the felt and the notices show them; the audit reconciles the pool and the bounties
to the cent (S-AUDIT-2), on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest

from pokerroom.rules.schedule import load_schedule
from pokerroom.store.accounts.accounts import STARTING_GRANT
from tests.helpers.accounts import signup
from tests.helpers.audit import assert_books_balance
from tests.helpers.tournaments import Fast, person
from tests.helpers.waiting import eventually
from tests.server.conftest import Server


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def room(request: pytest.FixtureRequest) -> Server:
    running: Server = request.getfixturevalue(
        "server" if request.param == "sqlite" else "postgres_server"
    )
    return running


async def play_to_the_end(
    server: Server, structure: str, prefix: str, players: int, **create: Any
) -> tuple[Any, dict[str, dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """An event of ``structure`` played to its end by ``players`` signed-up bots: the
    runner, each bot's sign-up and the frames each one saw."""
    hall = server.app.state.tournaments
    hall.clock, hall.speed = Fast(30), 30  # five-minute levels in ten seconds
    runner = await hall.create(structure, **create)
    people = {f"{prefix}{k}": await signup(server.base, f"{prefix}{k}") for k in range(players)}
    return await play(server, runner, people)


async def play(
    server: Server, runner: Any, people: dict[str, dict[str, Any]]
) -> tuple[Any, dict[str, dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """``runner``'s event played to its end by ``people`` with the rule bot's choices."""
    players = len(people)
    frames: dict[str, list[dict[str, Any]]] = {name: [] for name in people}
    tasks = [
        person(server, runner.id, name, data, on_frame=frames[name].append)
        for name, data in people.items()
    ]
    results = await asyncio.wait_for(asyncio.gather(*tasks), timeout=900)
    assert sorted(r.place for r in results) == list(range(1, players + 1))
    return runner, people, frames


async def balances(server: Server, people: dict[str, dict[str, Any]]) -> dict[str, int]:
    async with httpx.AsyncClient(base_url=server.base) as http:
        found = {}
        for name, data in people.items():
            me = await http.get("/api/me", headers={"Authorization": f"Bearer {data['token']}"})
            found[name] = me.json()["balance"]
        return found


async def test_a_progressive_knockout_sit_and_go_pays_every_bounty_to_the_cent(
    room: Server,
) -> None:
    runner, people, frames = await play_to_the_end(room, "sng6_pko", "pko", 6)
    t, s = runner.t, runner.t.structure
    assert s.bounty is not None and s.bounty.progressive
    assert t.finished and len(t.bounties) == 6  # five knockouts and the winner's own
    assert t.prize_pool == 6 * s.pool_share
    async with httpx.AsyncClient(base_url=room.base) as http:
        event = (await http.get(f"/api/tournaments/{runner.id}")).json()
    assert event["structure"]["bounty"] == [s.bounty.amount, True]
    assert event["bounties"]["paid"] == 6 * s.bounty.amount
    assert event["bounties"]["on_heads"] == 0
    won = {p["name"]: p["bounties_won"] for p in event["players"]}
    prizes = {p["name"]: p["prize"] for p in event["players"]}
    assert sum(won.values()) == 6 * s.bounty.amount
    assert sum(prizes.values()) == t.prize_pool
    cost = s.buy_in + s.fee
    assert await balances(room, people) == {
        name: STARTING_GRANT - cost + prizes[name] + won[name] for name in people
    }
    seen = [
        f["tournament"]["bounties"]
        for received in frames.values()
        for f in received
        if f.get("type") == "table" and f.get("tournament")
    ]
    assert any(seen) and all(amount >= 0 for b in seen for _, amount in b)
    notices = [f for got in frames.values() for f in got if f.get("kind") == "bounty"]
    told = sum(int(f["params"]["amount"]) for f in notices)
    assert told == 6 * s.bounty.amount  # each payment told once, in the player's language
    assert {f["code"] for f in notices} <= {"tournament.bounty_won", "tournament.bounty_own"}
    report = await assert_books_balance(room)
    assert report.tournaments == 1 and report.totals.get("bounty", 0) == 0


async def test_a_plain_knockout_pays_the_whole_bounty_to_the_knocker(server: Server) -> None:
    runner, _, _ = await play_to_the_end(server, "sng6_knockout", "ko", 6)
    t = runner.t
    rule = t.structure.bounty
    assert rule is not None and not rule.progressive
    shares = [share for won in t.bounties for share in won.shares]
    assert all(added == 0 for _, _, added, _ in shares)
    assert all(sum(c for _, c, _, _ in won.shares) == rule.amount for won in t.bounties)
    await assert_books_balance(server)


async def test_a_satellite_plays_its_bubble_hand_for_hand_and_its_seats_register_with_tickets(
    room: Server,
) -> None:
    hall = room.app.state.tournaments
    target = await hall.create("mtt_turbo6", starts_at=hall.clock() + 10**6)
    runner, people, frames = await play_to_the_end(
        room, "satellite_turbo6", "sat", 18, target=target.id
    )
    t, rule = runner.t, runner.t.structure.satellite
    assert rule is not None and rule.seat == 2200
    assert t.prize_pool == 18 * 1000 and t.seats() == 8  # 18,000 // 2,200, and 400 over
    places = {p.entry: p for p in t.places()}
    by_place = sorted(places.values(), key=lambda p: p.place)
    assert [p.prize for p in by_place[:8]] == [2200] * 8
    # Place 9's 400 in cash; players out in one hand with equal stacks tie for it, and share
    # what their places pay (place 9's 400 and nothing).
    cash = [p for p in by_place[8:] if p.prize]
    assert sum(p.prize for p in cash) == 400 and all(p.prize < 2200 for p in cash)
    assert len(cash) == 1 or all(p.tie is not None and p.tie[0] == 9 for p in cash), cash
    # The bubble is played hand for hand once the field stands just above the money with two
    # tables or more, unless one hand took it from above that straight into the money. A
    # satellite's bubble is its last seat (place N + 1's cash is no seat): 6-max, 9 or 10 left
    # of 8 seats.
    paid = t.paid_places()
    assert paid == t.seats() == 8
    left, stood = len(t.entries), []
    for group in t.groups:
        left -= len(group)
        stood.append(left)
    if any(paid < n <= paid + 2 for n in stood):
        told = [f for got in frames.values() for f in got if f.get("kind") == "hand_for_hand"]
        assert told, f"no hand-for-hand notice; the field stood at {stood}"
    winners = {int(p.entry) for p in places.values() if p.prize == rule.seat}
    # The seat winners are registered with their tickets after the last hand's write, one
    # registration (a transaction each) after another: on a loaded machine that takes a while.
    registered = lambda: {int(e) for e in target.t.entries} == winners  # noqa: E731
    await eventually(registered, lambda: f"registered {sorted(target.t.entries)}", 180)
    ids = {name: data["account_id"] for name, data in people.items()}
    got = {ids[name]: balance for name, balance in (await balances(room, people)).items()}
    for account, balance in got.items():
        prize = places[str(account)].prize
        cash = 0 if prize == rule.seat else prize  # a seat is a ticket, used: no cash
        assert balance == STARTING_GRANT - 1100 + cash, (account, prize)
    report = await assert_books_balance(room)
    assert report.tournaments == 2 and report.totals.get("ticket", 0) == 0
    assert target.t.prize_pool == 8 * target.t.structure.buy_in


async def test_a_scheduled_run_starts_at_its_time_and_the_house_pays_the_overlay(
    room: Server,
) -> None:
    hall = room.app.state.tournaments
    people = {f"sch{k}": await signup(room.base, f"sch{k}") for k in range(4)}
    schedule = load_schedule("demo")
    start = schedule.event("Hourly PKO").starts(time.time())[0]
    base = start - 60  # the room's clock a minute before the run ...
    since: list[float] = []  # ... held there until the four have registered, then 30x faster

    def clock() -> float:
        return base + (time.time() - since[0]) * 30 if since else base

    hall.clock, hall.speed = clock, 30
    hall.schedule = schedule
    await hall._keep_open()
    runs = {r.config["scheduled"]: r for r in hall.runners.values() if r.config.get("scheduled")}
    runner = runs[f"Hourly PKO@{int(start)}"]
    async with httpx.AsyncClient(base_url=room.base) as http:
        listed = (await http.get(f"/api/tournaments/{runner.id}")).json()
    assert listed["starts_at"] == start and listed["guarantee"] == 50_000
    assert listed["status"] == "registering" and listed["overlay"] == 0

    async def start_the_clock() -> None:
        # (two seconds of the clock's minute would not do for four registrations on a
        # busy machine: the run found too few entrants at its time and was cancelled)
        for _ in range(1200):  # bounded: 60 s
            if len(runner.t.entries) == len(people):
                break
            await asyncio.sleep(0.05)
        since.append(time.time())

    clock_started = asyncio.create_task(start_the_clock())
    runner, people, _ = await play(room, runner, people)
    await clock_started
    t, s = runner.t, runner.t.structure
    assert t.clock.start is not None and t.clock.start >= start  # not before its time
    assert t.overlay == 50_000 - 4 * s.pool_share and t.prize_pool == 50_000
    places = {p.entry: p for p in t.places()}
    assert sum(p.prize for p in places.values()) == 50_000
    ids = {name: data["account_id"] for name, data in people.items()}
    for name, balance in (await balances(room, people)).items():
        e = t.entries[str(ids[name])]
        assert balance == STARTING_GRANT - 2200 + places[e.id].prize + e.bounties_won
    report = await assert_books_balance(room)
    assert report.totals["house"] == 4 * s.fee - t.overlay  # the fees in, the overlay out
    for _ in range(100):  # bounded: the next run, and its satellite tied to the run after it
        scheduled = [r for r in hall.runners.values() if r.config.get("scheduled")]
        satellites = [r for r in scheduled if r.config["scheduled"].startswith("Hourly PKO Sat")]
        if satellites:
            break
        await asyncio.sleep(0.1)
    target = hall.get(satellites[0].config["target"])
    assert target.config["scheduled"].startswith("Hourly PKO@")
    assert target.starts_at > satellites[0].starts_at > start
