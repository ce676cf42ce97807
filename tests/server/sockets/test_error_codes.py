"""S-INPUT-1: every error the room sends over the socket or the HTTP API names
itself by a stable ``code`` with its ``params`` (so that the client says it in the player's
language), and keeps its English ``message``/``detail``."""

from __future__ import annotations

import json

import httpx

from tests.helpers.room_tables import ann_and_bob_seated
from tests.server.conftest import PASSWORD_SECONDS, Server

SLOW = (("decision_seconds", 120), ("warning_after_seconds", 110), ("time_bank_seconds", 0))


async def test_socket_errors_carry_their_code_and_params(server: Server) -> None:
    ann, bob = await ann_and_bob_seated(server, "t1", (1, 2), overrides=SLOW)
    frame = await ann.until(lambda f: f.get("hand") is not None and f["hand"]["actor"] is not None)
    number, actor = frame["hand"]["number"], frame["hand"]["actor"]
    waiting = bob if actor == 1 else ann  # the one who is not to act
    act = {"type": "act", "table": "t1", "hand": number}
    cases = [
        (ann, "not json", "protocol.not_json", {}),
        (ann, json.dumps({**act, "action": "dance"}), "protocol.invalid", {"type": "act"}),
        (ann, json.dumps({"type": "watch", "table": "nowhere"}), "table.not_found", {}),
        (ann, json.dumps({**act, "action": "fold", "hand": number + 5}), "hand.stale", {}),
        (
            ann,
            json.dumps(
                {"type": "join", "table": "t1", "seat": 3, "buy_in": 10_000, "request": "x"}
            ),
            "seat.already_seated",
            {"seat": "1"},
        ),
        (waiting, json.dumps({**act, "action": "fold"}), "hand.not_your_turn", {}),
    ]
    for person, sent, code, params in cases:
        await person.ws.send(sent)
        error = await person.next("error")
        assert error["code"] == code, (sent, error)
        assert error["message"], error
        assert params.items() <= error["params"].items(), (sent, error)
    # an amount below the minimum names the minimum, in chips, for the client to format
    acting = ann if actor == 1 else bob
    await acting.send(**act, action="bet_or_raise", amount=1)
    error = await acting.next("error")
    assert error["code"] == "hand.below_minimum", error
    assert isinstance(error["params"]["min"], int) and error["params"]["min"] > 1


async def test_http_errors_carry_their_code_and_params(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.base, timeout=PASSWORD_SECONDS) as http:
        await http.post("/api/signup", json={"username": "ann", "password": "long enough"})
        taken = await http.post("/api/signup", json={"username": "ann", "password": "long enough"})
        wrong = await http.post("/api/login", json={"username": "ann", "password": "not the one"})
        short = await http.post("/api/signup", json={"username": "bob", "password": "short"})
        missing = await http.get("/api/no/such/thing")
        hand = await http.get("/api/hands/7/replay", headers={"Authorization": "Bearer nope"})
    assert taken.status_code == 400 and taken.json()["code"] == "auth.username_taken"
    assert taken.json()["params"] == {"name": "ann"}
    assert taken.json()["detail"] == "the username 'ann' is taken"
    assert wrong.status_code == 401 and wrong.json()["code"] == "auth.wrong_password"
    assert short.status_code == 422 and short.json()["code"] == "request.invalid"
    assert short.json()["params"]["field"] == "password"
    assert isinstance(short.json()["detail"], list)  # FastAPI's own list, as before
    assert missing.status_code == 404 and missing.json()["code"] == "http.not_found"
    assert hand.status_code == 401 and hand.json()["code"] == "auth.not_logged_in"
