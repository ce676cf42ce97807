"""R-PRIV-1, who gets in: a private game is found only by its invite link or code, is never
listed, and its table does not exist (404, "no table") for anyone without a status in it; with
the host approving seats, the code alone lets a player ask, nothing more (over real sockets;
each test ends with the audit reconciling, S-AUDIT-2)."""

from __future__ import annotations

import asyncio

from websockets.asyncio.client import connect

from tests.helpers.audit import assert_books_balance
from tests.helpers.private_games import (
    api,
    call,
    hands_of,
    host_act,
    hosted,
    ledger,
    let_in,
    refused,
    seated,
)
from tests.helpers.room_tables import play_along
from tests.server.conftest import Server, checked_frame, person


async def test_R_PRIV_1_a_private_game_is_unlisted_and_a_stranger_or_a_guessed_code_gets_nothing(
    server: Server,
) -> None:
    ann = await person(server.base, "ann")
    eve = await person(server.base, "eve")
    game = await hosted(server, ann)
    table = game["id"]
    assert game["you"] == "host" and len(game["code"]) == 7 and len(game["invite"]) >= 40
    async with api(server) as http:
        lobby = (await http.get("/api/lobby")).json()
    assert table not in [entry["id"] for entry in lobby]
    # The routes of the game: 404, as for a game that does not exist.
    for method, path in [
        ("GET", ""),
        ("GET", "/ledger"),
        ("GET", "/ledger.csv"),
        ("GET", "/hands"),
        ("GET", "/log"),
        ("GET", "/requests"),
        ("POST", "/pause"),
        ("POST", "/end"),
    ]:
        answer = await call(server, eve, method, f"/{table}{path}")
        assert answer.status_code == 404, (path, answer.text)
        assert answer.json()["code"] == "private.not_found"
    nothing = await call(server, eve, "GET", "/p_000000000000")
    assert nothing.status_code == 404 and nothing.json()["code"] == "private.not_found"
    # Guessed codes and invites: the same answer as for no game.
    wrong = [{"code": "ABCDEFG"}, {"code": game["code"][::-1]}, {"invite": "x" * 43}]
    wrong += [{"code": f"WRONG{k}Z"} for k in range(10)]
    wrong = [body for body in wrong if body.get("code") != game["code"]][:10]
    for body in wrong:
        guessed = await call(server, eve, "POST", "/ask", body)
        assert guessed.status_code == 404 and guessed.json()["code"] == "private.bad_code"
    # After 10 wrong codes in 10 minutes, the account waits: even the right code is refused.
    slowed = await call(server, eve, "POST", "/ask", {"code": game["code"]})
    assert slowed.status_code == 429 and slowed.json()["code"] == "private.slow_down"
    # The socket: no table, whatever is sent.
    for message in (
        {"type": "watch"},
        {"type": "join", "seat": 1, "buy_in": 10_000, "request": "e1"},
        {"type": "chat", "text": "hello?"},
        {"type": "waiting_list", "action": "join"},
    ):
        error = await refused(eve, table, **message)
        assert error["code"] == "table.not_found", error
    # Nor a guest's socket.
    async with connect(server.base.replace("http", "ws", 1) + "/ws") as guest:
        checked_frame(await guest.recv())  # welcome
        await guest.send(f'{{"type": "watch", "table": "{table}"}}')
        error = checked_frame(await guest.recv())
    assert error["type"] == "error" and error["code"] == "table.not_found"
    assert not server.room.actors[table].watchers
    await assert_books_balance(server)


async def test_R_PRIV_1_with_the_code_but_not_approved_a_player_cannot_sit_watch_chat_or_read(
    server: Server,
) -> None:
    """Spectators off: the code makes a request, and the request alone gives nothing."""
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    eve = await person(server.base, "eve")
    game = await hosted(server, ann)
    table = game["id"]
    await let_in(server, ann, game, bob)
    asked = await call(server, eve, "POST", "/ask", {"code": game["code"].lower()})
    assert asked.status_code == 200
    seen = asked.json()
    assert seen["you"] == "pending" and seen["code"] is None and seen["invite"] is None
    request = await ann.next("private_request")  # bob's first, then eve's
    assert request["account"] == bob.account_id
    request = await ann.next("private_request")
    assert request["account"] == eve.account_id and request["name"] == "eve"
    await seated(ann, table, 1)
    await seated(bob, table, 2)
    await asyncio.gather(play_along(ann, table, 1), play_along(bob, table, 1))
    for message in (
        {"type": "watch"},
        {"type": "join", "seat": 3, "buy_in": 10_000, "request": "e1"},
        {"type": "add_chips", "amount": 1000, "request": "e2"},
        {"type": "chat", "text": "let me in"},
    ):
        error = await refused(eve, table, **message)
        assert error["code"] == "table.not_found", error
    for path in ("/ledger", "/ledger.csv", "/hands", "/log"):
        answer = await call(server, eve, "GET", f"/{table}{path}")
        assert answer.status_code == 404, (path, answer.text)
    hosts_only = await call(server, eve, "POST", f"/{table}/pause")
    assert hosts_only.status_code == 403 and hosts_only.json()["code"] == "private.hosts_only"
    # Bob, approved, reads the ledger and the hands; eve is seated nowhere and saw no frame.
    book = await ledger(server, bob, game)
    assert {p["account"] for p in book["players"]} == {ann.account_id, bob.account_id}
    hands = await hands_of(server, bob, game, 1)
    assert all(len(h["players"]) == 2 for h in hands)
    assert not [f for f in eve.frames if f.get("type") == "table"]
    assert 3 not in server.room.actors[table].table.seats
    # The host denies her: still nothing; approved, she watches.
    await host_act(server, ann, game, f"requests/{eve.account_id}/deny")
    error = await refused(eve, table, type="watch")
    assert error["code"] == "table.not_found"
    await host_act(server, ann, game, f"requests/{eve.account_id}/approve")
    await eve.send(type="watch", table=table)
    frame = await eve.next("table")
    assert frame["table"] == table
    await assert_books_balance(server)


async def test_R_PRIV_1_spectators_on_let_a_pending_player_watch_but_never_sit_or_chat(
    server: Server,
) -> None:
    ann = await person(server.base, "ann")
    eve = await person(server.base, "eve")
    game = await hosted(server, ann, spectators=True)
    table = game["id"]
    await call(server, eve, "POST", "/ask", {"invite": game["invite"]})
    await eve.send(type="watch", table=table)
    assert (await eve.next("table"))["table"] == table
    for message in (
        {"type": "join", "seat": 3, "buy_in": 10_000, "request": "e1"},
        {"type": "chat", "text": "hi"},
    ):
        error = await refused(eve, table, **message)
        assert error["code"] == "private.not_approved", error
    assert not server.room.actors[table].table.seats
    await assert_books_balance(server)


async def test_R_PRIV_1_without_host_approval_the_code_approves_at_once(server: Server) -> None:
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    game = await hosted(server, ann, approve_seats=False)
    asked = await call(server, bob, "POST", "/ask", {"code": game["code"]})
    assert asked.json()["you"] == "approved"
    await seated(bob, game["id"], 4)
    book = await ledger(server, bob, game)
    assert book["players"][0]["buy_ins"] == 10_000 and book["on_table"] == 10_000
    await assert_books_balance(server)


async def test_R_PRIV_1_the_host_moves_no_chips(server: Server) -> None:
    """No route of the game moves chips, nor the floor's for a host; every balance moves by
    its own buy-ins and cash-outs only, and the audit reconciles."""
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    game = await hosted(server, ann)
    table = game["id"]
    await let_in(server, ann, game, bob)
    await seated(ann, table, 1)
    await seated(bob, table, 2)
    await asyncio.gather(play_along(ann, table, 2), play_along(bob, table, 2))
    async with api(server, ann) as http:
        correct = await http.post(
            "/api/floor/hands/1/correct",
            json={"account_id": ann.account_id, "amount": 5000, "reason": "mine"},
        )
        assert correct.status_code == 403
        for path in ("/chips", "/ledger", "/transfer", "/remove"):
            moved = await http.post(
                f"/api/private-games/{table}{path}", json={"account": bob.account_id, "amount": 1}
            )
            if path == "/remove":
                assert moved.status_code == 200  # a removal: bob cashed out, nothing else
            else:
                assert moved.status_code in (404, 405), (path, moved.text)
    await ann.until(lambda f: f["seats"][1]["empty"])  # bob, removed, sees no more frames
    book = await ledger(server, ann, game)
    rows = {p["account"]: p for p in book["players"]}
    kinds = {e["kind"] for e in book["entries"]}
    assert kinds <= {"buy_in", "top_up", "cash_out"}
    assert rows[bob.account_id]["cash_outs"] > 0 and not rows[bob.account_id]["seated"]
    assert rows[ann.account_id]["buy_ins"] == 10_000 and rows[ann.account_id]["top_ups"] == 0
    await assert_books_balance(server)
