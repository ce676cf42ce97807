"""R-PRIV-1, the host's acts over real sockets: pause between hands and resume, new stakes and a
bomb pot from the next hand (R-BOMB-1), a player removed (cashed out after the hand in play),
the game ended (everyone cashed out, the table closed); each act logged and shown to the
game's players. The chips move only through the ledger: each test ends with the audit
reconciling (S-AUDIT-2)."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import select

from pokerroom.history.record import read_record
from pokerroom.store.accounts.accounts import STARTING_GRANT
from pokerroom.store.models import HandRecord
from tests.helpers.audit import assert_books_balance
from tests.helpers.database import rows
from tests.helpers.private_games import (
    balance,
    call,
    host_act,
    hosted,
    ledger,
    let_in,
    refused,
    seated,
)
from tests.helpers.room_tables import play_along
from tests.server.conftest import Person, Server, person

TURNS = 20  # the paused table's clock turns seen without a hand dealt


async def two_seated(server: Server, **settings: Any) -> tuple[Person, Person, dict[str, Any]]:
    """Ann's game, paused, with ann and bob seated (no hand dealt yet)."""
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    game = await hosted(server, ann, **settings)
    await host_act(server, ann, game, "pause")
    await let_in(server, ann, game, bob)
    await seated(ann, game["id"], 1)
    await seated(bob, game["id"], 2)
    return ann, bob, game


async def still_no_hand(server: Server, table: str) -> None:
    """The table's task turns ``TURNS`` times (its clock polls while paused) and deals none."""
    actor = server.room.actors[table]
    start = actor.turns
    for _ in range(1000):  # bounded: 50 s
        if actor.turns >= start + TURNS:
            break
        await asyncio.sleep(0.05)
    assert actor.turns >= start + TURNS
    assert actor.table.hand is None and actor.table.hand_number == 0


async def test_R_PRIV_1_paused_no_hand_is_dealt_and_resumed_it_is(server: Server) -> None:
    ann, bob, game = await two_seated(server)
    table = game["id"]
    await still_no_hand(server, table)
    again = await call(server, ann, "POST", f"/{table}/pause")
    assert again.status_code == 409 and again.json()["code"] == "private.paused"
    resumed = await host_act(server, ann, game, "resume")
    assert resumed["paused"] is False
    told = await bob.next("private_game")
    while told["act"]["act"] != "resume":
        told = await bob.next("private_game")
    assert told["game"]["paused"] is False and told["act"]["host"] == ann.account_id
    frame = await bob.until(lambda f: f.get("hand") is not None)
    assert frame["hand"]["number"] == 1
    log = (await call(server, bob, "GET", f"/{table}/log")).json()["acts"]
    assert [a["act"] for a in log] == ["create", "pause", "approve", "resume"]
    assert all(a["at"] and a["host"] == ann.account_id for a in log)
    assert log[2]["target"] == bob.account_id and log[2]["target_name"] == "bob"
    await assert_books_balance(server)


async def test_R_PRIV_1_new_stakes_and_a_bomb_pot_from_the_next_hand(server: Server) -> None:
    ann, bob, game = await two_seated(server, bomb_pot=True, straddle=True, run_it_twice=True)
    table = game["id"]
    house = server.room.actors[table].table.house
    assert house.bomb_pot and house.straddle and house.run_it_twice  # R-BOMB-1, -STRADDLE-1, -RIT-1
    too_big = await call(server, ann, "POST", f"/{table}/bomb-pot", {"big_blinds": 21})
    assert too_big.status_code == 422 and too_big.json()["code"] == "private.bomb_pot_size"
    assert too_big.json()["params"] == {"limit": 20, "field": "big_blinds"}
    bad_stakes = await call(server, bob, "POST", f"/{table}/stakes", {"big_blind": 400})
    assert bad_stakes.status_code == 403
    after = await host_act(server, ann, game, "stakes", {"big_blind": 400})
    assert after["big_blind"] == 400 and after["small_blind"] == 200
    marked = await host_act(server, ann, game, "bomb-pot", {"big_blinds": 3})
    assert marked["bomb_pot_next"] == 3
    await host_act(server, ann, game, "resume")
    frame = await bob.until(lambda f: f.get("hand") is not None)
    assert frame["big_blind"] == 400 and frame["hand"]["number"] == 1
    # Hand 3 begun: hands 1 and 2 are stored (a table deals after its last hand's write).
    await asyncio.gather(play_along(ann, table, 3), play_along(bob, table, 3))
    records = await rows(
        server,
        select(HandRecord)
        .where(HandRecord.table_id == table, HandRecord.status == "complete")
        .order_by(HandRecord.number),
    )
    bombs = [read_record(r.record).setup.bomb_pot for r in records]
    assert bombs[:2] == [3, 0]  # the marked hand only
    seen = (await call(server, bob, "GET", f"/{table}")).json()
    assert seen["bomb_pot_next"] == 0 and seen["big_blind"] == 400
    log = (await call(server, bob, "GET", f"/{table}/log")).json()["acts"]
    assert [a["act"] for a in log][-3:] == ["stakes", "bomb_pot", "resume"]
    assert log[-3]["detail"] == {"big_blind": 400, "small_blind": 200}
    assert log[-2]["detail"] == {"big_blinds": 3}
    await assert_books_balance(server)


async def test_R_PRIV_1_a_game_without_bomb_pots_refuses_one_and_its_house_has_no_options(
    server: Server,
) -> None:
    ann = await person(server.base, "ann")
    game = await hosted(server, ann)
    house = server.room.actors[game["id"]].table.house
    assert not (house.bomb_pot or house.straddle or house.run_it_twice)
    refused_bomb = await call(server, ann, "POST", f"/{game['id']}/bomb-pot", {"big_blinds": 2})
    assert refused_bomb.status_code == 422 and refused_bomb.json()["code"] == "private.no_bomb_pots"
    limit = await call(
        server,
        ann,
        "POST",
        "",
        {**game["settings"], "structure": "fixed_limit", "straddle": True},
    )
    assert limit.status_code == 422 and limit.json()["code"] == "private.invalid"
    await assert_books_balance(server)


async def test_R_PRIV_1_a_removed_player_is_cashed_out_after_the_hand_in_play(
    server: Server,
) -> None:
    ann, bob, game = await two_seated(server, decision_seconds=60)
    table = game["id"]
    await host_act(server, ann, game, "resume")
    frame = await ann.until(lambda f: f.get("hand") is not None and f["hand"]["actor"] == 1)
    await host_act(server, ann, game, "remove", {"account": bob.account_id})
    actor = server.room.actors[table]
    for _ in range(200):  # bounded: the table's task takes the removal in turn
        if actor.table.seat_of(str(bob.account_id)).leave_after:
            break
        await asyncio.sleep(0.05)
    seat = actor.table.seat_of(str(bob.account_id))
    assert seat.leave_after and actor.table.hand is not None  # still in the hand in play
    assert not (await ledger(server, ann, game))["players"][1]["cash_outs"]
    await ann.send(type="act", table=table, action="fold", hand=frame["hand"]["number"])
    await ann.until(lambda f: f["seats"][1]["empty"])
    book = await ledger(server, ann, game)
    bob_row = next(p for p in book["players"] if p["account"] == bob.account_id)
    assert bob_row["cash_outs"] > 10_000 and not bob_row["seated"]  # won ann's blind
    assert await balance(server, bob) == STARTING_GRANT - 10_000 + bob_row["cash_outs"]
    error = await refused(bob, table, type="chat", text="still here?")
    assert error["code"] == "table.not_found"
    seen = (await call(server, bob, "GET", f"/{table}")).json()
    assert seen["you"] == "removed"
    log = (await call(server, bob, "GET", f"/{table}/log")).json()["acts"]
    assert log[-2]["act"] == "resume" and log[-1]["act"] == "remove"
    assert log[-1]["target"] == bob.account_id
    await assert_books_balance(server)


async def test_R_PRIV_1_join_leave_join_each_in_the_game_ledger(server: Server) -> None:
    ann, bob, game = await two_seated(server)
    table = game["id"]
    await host_act(server, ann, game, "resume")
    ann_plays = asyncio.create_task(play_along(ann, table, 1_000))
    try:
        await bob.until(lambda f: f.get("hand") is not None)
        await bob.send(type="leave", table=table)  # folded if to act, gone after the hand
        await bob.until(lambda f: f.get("you") is None)
        await host_act(server, ann, game, "pause")  # no hand while bob comes back
        await bob.send(type="join", table=table, seat=3, buy_in=8_000, request="again")
        await bob.until(lambda f: f.get("you") == 3)
        await bob.send(type="add_chips", table=table, amount=1_000, request="more")
        book = await _until_entries(server, ann, game, 5)
    finally:
        ann_plays.cancel()
    mine = [e for e in book["entries"] if e["account"] == bob.account_id]
    assert [e["kind"] for e in mine] == ["buy_in", "cash_out", "buy_in", "top_up"]
    assert [e["amount"] for e in mine][::2] == [10_000, 8_000]
    row = next(p for p in book["players"] if p["account"] == bob.account_id)
    assert row["buy_ins"] == 18_000 and row["top_ups"] == 1_000 and row["seated"]
    assert row["net"] == row["cash_outs"] - 19_000
    csv_text = (await call(server, bob, "GET", f"/{table}/ledger.csv")).text
    lines = csv_text.splitlines()
    assert lines[0] == "account,name,buy_ins,top_ups,cash_outs,net"
    assert f"{bob.account_id},bob,18000,1000,{row['cash_outs']},{row['net']}" in lines
    await assert_books_balance(server)


async def _until_entries(server: Server, who: Person, game: dict[str, Any], n: int) -> Any:
    for _ in range(600):  # bounded: 30 s
        book = await ledger(server, who, game)
        if len(book["entries"]) >= n:
            return book
        await asyncio.sleep(0.05)
    raise AssertionError(f"fewer than {n} ledger entries: {book}")


async def test_R_PRIV_1_ending_the_game_cashes_everyone_out_and_closes_its_table(
    server: Server,
) -> None:
    await ended_in_play(server)


async def test_R_PRIV_1_ending_the_game_on_postgresql(postgres_server: Server) -> None:
    await ended_in_play(postgres_server)


async def ended_in_play(server: Server) -> None:
    """The host ends the game with a hand in play: it is cancelled (every chip back), each
    player cashed out through the ledger, the table closed, the game ended for its players."""
    ann, bob, game = await two_seated(server)
    table = game["id"]
    await host_act(server, ann, game, "resume")
    await bob.until(lambda f: f.get("hand") is not None)
    ended = await host_act(server, ann, game, "end")
    assert ended["ended"] is True
    actor = server.room.actors[table]
    assert actor.closed and not actor.table.seats
    book = await ledger(server, bob, game)
    assert book["on_table"] == 0 and not any(p["seated"] for p in book["players"])
    assert sum(p["net"] for p in book["players"]) <= 0  # the rake, at most
    both = await balance(server, ann) + await balance(server, bob)
    assert both == 2 * STARTING_GRANT + sum(p["net"] for p in book["players"])
    seen = (await call(server, bob, "GET", f"/{table}")).json()
    assert seen["ended"] and seen["ended_at"]
    error = await refused(bob, table, type="watch")
    assert error["code"] == "table.not_found"
    again = await call(server, ann, "POST", f"/{table}/resume")
    assert again.status_code == 404
    log = (await call(server, bob, "GET", f"/{table}/log")).json()["acts"]
    assert log[-1]["act"] == "end" and log[-1]["host"] == ann.account_id
    await assert_books_balance(server)
