"""R-PRIV-1, a game's life outside its host's acts: a game nobody sits at for an hour ends and
cashes everyone out (the clock passed in: no hour slept), and a restart brings every open game
back with its table, its pause, its stakes, its members and its code (over real sockets; the
audit reconciles, S-AUDIT-2)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from pokerroom.server.clock import utcnow
from pokerroom.store.db import sqlite_url
from tests.helpers.audit import assert_books_balance
from tests.helpers.private_games import (
    call,
    host_act,
    hosted,
    ledger,
    let_in,
    refused,
    seated,
)
from tests.helpers.room_tables import back, room_on
from tests.server.conftest import Server, person


async def test_R_PRIV_1_a_game_nobody_sits_at_for_an_hour_ends(server: Server) -> None:
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    idle = await hosted(server, ann, name="empty")
    busy = await hosted(server, ann, name="busy")
    await let_in(server, ann, idle, bob)
    await seated(bob, idle["id"], 1)
    await bob.send(type="leave", table=idle["id"])  # no hand alone: cashed out at once
    await bob.until(lambda f: f.get("you") is None)
    await seated(ann, busy["id"], 1)
    private = server.app.state.private
    start = utcnow()
    assert await private.sweep(start) == []  # nobody at "empty" since now
    assert await private.sweep(start + timedelta(minutes=59)) == []
    ended = await private.sweep(start + timedelta(minutes=61))
    assert ended == [idle["id"]]
    assert server.room.actors[idle["id"]].closed
    assert not server.room.actors[busy["id"]].closed  # ann sits there
    log = (await call(server, bob, "GET", f"/{idle['id']}/log")).json()["acts"]
    assert log[-1]["act"] == "idle_close" and log[-1]["host"] is None
    book = await ledger(server, bob, idle)
    assert book["on_table"] == 0 and book["players"][0]["cash_outs"] == 10_000
    error = await refused(bob, idle["id"], type="watch")
    assert error["code"] == "table.not_found"
    # Ann's game ends too once she has left it an hour, and her chips come back.
    await ann.send(type="leave", table=busy["id"])
    await ann.until(lambda f: f.get("you") is None)
    later = start + timedelta(hours=2)
    assert await private.sweep(later) == []  # empty since this sweep
    assert await private.sweep(later + timedelta(hours=1)) == [busy["id"]]
    assert (await ledger(server, ann, busy))["on_table"] == 0
    await assert_books_balance(server)


async def test_R_PRIV_1_a_restart_brings_the_game_back(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "room.db")
    async with room_on(url) as first:
        ann = await person(first.base, "ann")
        bob = await person(first.base, "bob")
        eve = await person(first.base, "eve")
        game = await hosted(first, ann, bomb_pot=True)
        table = game["id"]
        await host_act(first, ann, game, "pause")
        await let_in(first, ann, game, bob)
        await host_act(first, ann, game, "stakes", {"big_blind": 400})
        await seated(bob, table, 2)
    async with room_on(url) as second:
        bob = await back(second, bob)
        eve = await back(second, eve)
        seen = (await call(second, bob, "GET", f"/{table}")).json()
        assert seen["paused"] and seen["big_blind"] == 400 and seen["you"] == "approved"
        assert second.room.actors[table].table.house.bomb_pot  # the options came back too
        await bob.send(type="watch", table=table)
        frame = await bob.until(lambda f: f.get("you") == 2)
        assert frame["table"] == table
        error = await refused(eve, table, type="watch")
        assert error["code"] == "table.not_found"
        asked = await call(second, eve, "POST", "/ask", {"code": game["code"]})
        assert asked.status_code == 200 and asked.json()["you"] == "pending"
        assert second.room.actors[table].table.hand_number == 0  # still paused: no hand
        await assert_books_balance(second)
