"""R-PRIV-1, a private sit & go: its host sets it up (game, seats, buy-in and fee, stack, blind
levels), lets players in with the code, and the room's tournaments run it as any event, unlisted:
registration through the game by the approved only, prizes paid by the event's payout, a cancel
before the start refunding every registration (over real sockets and HTTP; each test ends with
the audit reconciling, S-AUDIT-2)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from pokerroom.bots.strategy import RuleBot
from pokerroom.bots.tournament import run_tournament_bot
from pokerroom.server.clock import utcnow
from pokerroom.store.accounts.accounts import STARTING_GRANT
from tests.helpers.audit import assert_books_balance
from tests.helpers.private_games import (
    SIT_AND_GO,
    api,
    balance,
    call,
    host_act,
    hosted,
    let_in,
    refused,
)
from tests.helpers.tournaments import Fast
from tests.server.conftest import Person, Server, person


async def registered(server: Server, who: Person, game: dict[str, Any], key: str) -> Any:
    return await call(server, who, "POST", f"/{game['id']}/register", {"request": key})


async def test_R_PRIV_1_a_private_sit_and_go_is_played_to_its_prizes(server: Server) -> None:
    hall = server.app.state.tournaments
    hall.clock, hall.speed = Fast(60), 60  # one-minute levels in a second
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    cat = await person(server.base, "cat")
    game = await hosted(server, ann, **SIT_AND_GO)
    event_id = game["id"]
    assert game["settings"]["kind"] == "sit_and_go" and game["event"]["status"] == "registering"
    assert game["event"]["structure"]["levels"][0][:2] == [50, 100]  # hyper: 15 big blinds
    # Unlisted: not in the tournament lobby, and the tournament routes do not know it.
    async with api(server) as http:
        lobby = (await http.get("/api/tournaments")).json()
        assert event_id not in [e["id"] for e in lobby]
        assert (await http.get(f"/api/tournaments/{event_id}")).status_code == 404
    async with api(server, bob) as http:
        answer = await http.post(f"/api/tournaments/{event_id}/register", json={"request": "b"})
        assert answer.status_code == 404
    await let_in(server, ann, game, bob, cat)
    # The three play it to the end as bots do, registering through the game (full: it starts).
    places = await asyncio.wait_for(
        asyncio.gather(
            *(
                run_tournament_bot(
                    server.base,
                    who.name,
                    RuleBot(random.Random(who.name)),
                    tournament=event_id,
                    token=who.token,
                    private=True,
                )
                for who in (ann, bob, cat)
            )
        ),
        timeout=600,
    )
    assert sorted(p.place for p in places) == [1, 2, 3]
    pool = 3 * 1000
    assert sorted(p.prize or 0 for p in places) == [0, 0, pool]  # 2-3 entrants: all to one
    finals = {who.name: p for who, p in zip((ann, bob, cat), places, strict=True)}
    for who in (ann, bob, cat):
        won = finals[who.name].prize or 0
        assert await balance(server, who) == STARTING_GRANT - 1100 + won
    event = (await call(server, bob, "GET", f"/{event_id}/event")).json()
    assert event["status"] == "finished" and event["prize_pool"] == pool
    # The game ends with its event (the room's act), and its log has every act.
    assert await server.app.state.private.sweep(utcnow()) == [event_id]
    acts = (await call(server, cat, "GET", f"/{event_id}/log")).json()["acts"]
    assert [a["act"] for a in acts] == ["create", "approve", "approve", "finish"]
    report = await assert_books_balance(server)
    assert report.tournaments == 1


async def test_R_PRIV_1_only_the_approved_register_or_watch_a_private_sit_and_go(
    server: Server,
) -> None:
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    eve = await person(server.base, "eve")
    game = await hosted(server, ann, **{**SIT_AND_GO, "seats": 2})
    event_id = game["id"]
    # A stranger (no code) gets nothing: the game's routes are 404, registering too.
    stranger = await registered(server, eve, game, "e1")
    assert stranger.status_code == 404 and stranger.json()["code"] == "private.not_found"
    guessed = await call(server, eve, "POST", "/ask", {"code": "ABCDEFG"})
    assert guessed.status_code == 404
    # With the code, pending: still no registration.
    asked = await call(server, eve, "POST", "/ask", {"code": game["code"]})
    assert asked.status_code == 200 and asked.json()["you"] == "pending"
    pending = await registered(server, eve, game, "e2")
    assert pending.status_code == 403 and pending.json()["code"] == "private.not_approved"
    assert await balance(server, eve) == STARTING_GRANT
    await let_in(server, ann, game, bob)
    for who, key in ((ann, "a1"), (bob, "b1")):
        answer = await registered(server, who, game, key)
        assert answer.status_code == 200, answer.text
    # Full at two: it started; its table is the event's first.
    table = f"{event_id}-1"
    event = (await call(server, bob, "GET", f"/{event_id}/event")).json()
    assert event["status"] == "running" and table in [t["id"] for t in event["tables"]]
    # Spectators off: neither the pending player nor the stranger may watch its table.
    for who in (eve, await person(server.base, "zed")):
        error = await refused(who, table, type="watch")
        assert error["code"] == "table.not_found"
    error = await refused(eve, table, type="chat", text="hi")
    assert error["code"] == "table.not_found"
    # Once it runs, the host can neither cancel it nor remove a player from it.
    ended = await call(server, ann, "POST", f"/{event_id}/end")
    assert ended.status_code == 409 and ended.json()["code"] == "private.running"
    removed = await call(server, ann, "POST", f"/{event_id}/remove", {"account": bob.account_id})
    assert removed.status_code == 409 and removed.json()["code"] == "private.running"
    stakes = await call(server, ann, "POST", f"/{event_id}/stakes", {"big_blind": 400})
    assert stakes.status_code == 409 and stakes.json()["code"] == "private.cash_only"
    await assert_books_balance(server)


async def test_R_PRIV_1_a_private_sit_and_go_cancelled_before_its_start_refunds_every_chip(
    server: Server,
) -> None:
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    cat = await person(server.base, "cat")
    game = await hosted(server, ann, **{**SIT_AND_GO, "seats": 4})
    event_id = game["id"]
    await let_in(server, ann, game, bob, cat)
    for who, key in ((ann, "a1"), (bob, "b1"), (cat, "c1")):
        answer = await registered(server, who, game, key)
        assert answer.status_code == 200, answer.text
        assert await balance(server, who) == STARTING_GRANT - 1100
    again = await registered(server, bob, game, "b1")  # a retry: registered once
    assert again.status_code == 200 and await balance(server, bob) == STARTING_GRANT - 1100
    # The host removes cat before the start: refunded, and out of the event.
    await host_act(server, ann, game, "remove", {"account": cat.account_id})
    assert await balance(server, cat) == STARTING_GRANT
    event = (await call(server, ann, "GET", f"/{event_id}/event")).json()
    assert event["entrants"] == 2 and event["status"] == "registering"
    # Then cancels it: every registration back, to the chip.
    after = await host_act(server, ann, game, "end")
    assert after["ended"]
    for who in (ann, bob, cat):
        assert await balance(server, who) == STARTING_GRANT
    late = await registered(server, bob, game, "b2")
    assert late.status_code == 404  # an ended game: no registration
    acts = (await call(server, bob, "GET", f"/{event_id}/log")).json()["acts"]
    assert [a["act"] for a in acts] == ["create", "approve", "approve", "remove", "cancel"]
    report = await assert_books_balance(server)
    assert report.tournaments == 1


async def test_R_PRIV_1_the_host_starts_a_private_sit_and_go_before_it_is_full(
    server: Server,
) -> None:
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    game = await hosted(server, ann, **{**SIT_AND_GO, "seats": 6, "buy_in": 0, "fee": 0})
    event_id = game["id"]
    await let_in(server, ann, game, bob)
    assert (await registered(server, ann, game, "a1")).status_code == 200
    early = await call(server, ann, "POST", f"/{event_id}/start")
    assert early.status_code == 409 and early.json()["code"] == "private.too_few"
    refused_start = await call(server, bob, "POST", f"/{event_id}/start")
    assert refused_start.status_code == 403
    assert (await registered(server, bob, game, "b1")).status_code == 200
    started = await host_act(server, ann, game, "start")
    assert started["event"]["status"] == "running" and started["event"]["entrants"] == 2
    assert await balance(server, bob) == STARTING_GRANT  # a free sit & go
    acts = (await call(server, bob, "GET", f"/{event_id}/log")).json()["acts"]
    assert acts[-1]["act"] == "start" and acts[-1]["detail"] == {"entrants": 2}
    await assert_books_balance(server)
