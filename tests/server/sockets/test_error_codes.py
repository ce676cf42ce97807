"""S-INPUT-1: every error the room sends over the socket or the HTTP API names
itself by a stable ``code`` with its ``params`` (so that the client says it in the player's
language), and keeps its English ``message``/``detail``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx

import pokerroom
from pokerroom import errors
from tests.helpers.room_tables import ann_and_bob_seated
from tests.server.conftest import PASSWORD_SECONDS, Server, person

SLOW = (("decision_seconds", 120), ("warning_after_seconds", 110), ("time_bank_seconds", 0))
# A code as the sources name it where an error is raised or a notice told: ``code="seat.taken"``,
# ``ApiError(404, "private.not_found")``, ``"tournament.moved_break" if ... else ...``.
NAMED_CODE = re.compile(r'"([a-z_]+\.[a-z_]+)"')
FAMILIES = {code.split(".")[0] for code in errors.CODES}
# The finish notice composes its code: "tournament.place" + "_tied" + "_prize".
COMPOSED = {"tournament.place_tied", "tournament.place_prize", "tournament.place_tied_prize"}


def said_as_coded(error: dict[str, Any]) -> None:
    """The frame's or body's English is its code's template with its params."""
    english = error.get("message", error.get("detail"))
    assert english == errors.message(error["code"], **error["params"]), error


def test_every_code_the_sources_name_is_in_the_catalogue_and_every_one_is_named() -> None:
    """A code a raise site names is one of the catalogue's (a typo would reach the client as
    a code no catalogue knows), and every code of the catalogue is raised or told somewhere."""
    named: set[str] = set()
    for path in Path(pokerroom.__file__).parent.rglob("*.py"):
        if (
            path.name == "errors.py" and path.parent.name == "pokerroom"
        ) or "migrations" in path.parts:
            continue  # the catalogue itself; the schema's history
        for line in path.read_text("utf-8").splitlines():
            if "ForeignKey" not in line:  # a column ("hands.id") is no code
                found = NAMED_CODE.findall(line)
                named.update(code for code in found if code.split(".")[0] in FAMILIES)
    assert named <= errors.CODES, named - errors.CODES
    assert errors.TEMPLATES.keys() - named <= COMPOSED, errors.TEMPLATES.keys() - named


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
    for someone, sent, code, params in cases:
        await someone.ws.send(sent)
        error = await someone.next("error")
        assert error["code"] == code, (sent, error)
        said_as_coded(error)
        assert params.items() <= error["params"].items(), (sent, error)
    # an amount below the minimum names the minimum, in chips, for the client to format
    acting = ann if actor == 1 else bob
    await acting.send(**act, action="bet_or_raise", amount=1)
    error = await acting.next("error")
    assert error["code"] == "hand.below_minimum", error
    said_as_coded(error)
    assert isinstance(error["params"]["min"], int) and error["params"]["min"] > 1


async def test_a_newcomers_refused_requests_reach_them_by_their_own_codes(server: Server) -> None:
    """Refusals raised in the table, the seat requests and the shuffle reach the client with
    the code they were raised with (none as ``error.unknown``), their English agreeing."""
    await ann_and_bob_seated(server, "t2", (1, 2), overrides=SLOW)
    cy = await person(server.base, "cyd")
    await cy.send(type="watch", table="t2")
    await cy.next("table")
    join = {"type": "join", "table": "t2", "request": "c1"}
    cases = [
        ({**join, "seat": 1, "buy_in": 10_000}, "seat.taken", {"seat": "1"}),
        ({**join, "seat": 3, "buy_in": 1}, "chips.below_minimum", {"amount": 1}),
        ({"type": "options", "table": "t2", "auto_post": True}, "seat.take_first", {}),
        ({"type": "waiting_list", "table": "t2", "action": "leave"}, "waiting.not_on_list", {}),
        (
            {"type": "seed", "table": "t2", "seed": "ab" * 8, "commitment": "cd" * 32},
            "seed.take_seat_first",
            {},
        ),
    ]
    for sent, code, params in cases:
        await cy.ws.send(json.dumps(sent))
        error = await cy.next("error")
        assert error["code"] == code, (sent, error)
        said_as_coded(error)
        assert params.items() <= error["params"].items(), (sent, error)


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
    for answer in (taken, wrong, hand):
        said_as_coded(answer.json())
