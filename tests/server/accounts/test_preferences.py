"""A player's preferences are saved per account, on the server, through
``GET``/``PUT /api/preferences``; anything not a preference is refused and changes nothing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from pokerroom.server.accounts.preferences import MAX_BODY_BYTES
from pokerroom.server.tables.room import TableConfig
from tests.server.conftest import PASSWORD_SECONDS, Server, person

DEFAULTS = {
    "language": None,
    "deck": "four",
    "auto_muck": True,
    "bet_presets": [50, 75, 100],
    "hotkeys": True,
    "free_check_f": "ask",
}


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def room(request: pytest.FixtureRequest) -> Server:
    running: Server = request.getfixturevalue(
        "server" if request.param == "sqlite" else "postgres_server"
    )
    return running


async def signed_up(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    response = await http.post("/api/signup", json={"username": name, "password": "long enough"})
    response.raise_for_status()
    return {"Authorization": f"Bearer {response.json()['token']}"}


async def test_defaults_then_a_partial_change_keeps_the_rest(room: Server) -> None:
    async with httpx.AsyncClient(base_url=room.base, timeout=PASSWORD_SECONDS) as http:
        ann = await signed_up(http, "ann")
        assert (await http.get("/api/preferences", headers=ann)).json() == DEFAULTS
        put = await http.put("/api/preferences", headers=ann, json={"language": "nb"})
        assert put.status_code == 200 and put.json() == {**DEFAULTS, "language": "nb"}
        put = await http.put(
            "/api/preferences", headers=ann, json={"deck": "two", "bet_presets": [33, 250]}
        )
        expected = {**DEFAULTS, "language": "nb", "deck": "two", "bet_presets": [33, 250]}
        assert put.json() == expected
        assert (await http.get("/api/preferences", headers=ann)).json() == expected
        # null is a language choice: follow the browser again
        back = await http.put("/api/preferences", headers=ann, json={"language": None})
        assert back.json()["language"] is None and back.json()["deck"] == "two"


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"colour": "red"}, "preferences.unknown", "colour"),
        ({"language": "de"}, "preferences.invalid", "language"),
        ({"language": "NB"}, "preferences.invalid", "language"),
        ({"deck": "three"}, "preferences.invalid", "deck"),
        ({"auto_muck": "yes"}, "preferences.invalid", "auto_muck"),
        ({"auto_muck": 1}, "preferences.invalid", "auto_muck"),
        ({"hotkeys": None}, "preferences.invalid", "hotkeys"),
        ({"free_check_f": "fold"}, "preferences.invalid", "free_check_f"),
        ({"bet_presets": []}, "preferences.invalid", "bet_presets"),
        ({"bet_presets": [10, 20, 30, 40, 50]}, "preferences.invalid", "bet_presets"),
        ({"bet_presets": [50, 50]}, "preferences.invalid", "bet_presets"),
        ({"bet_presets": [0]}, "preferences.invalid", "bet_presets"),
        ({"bet_presets": [1001]}, "preferences.invalid", "bet_presets"),
        ({"bet_presets": [50.5]}, "preferences.invalid", "bet_presets"),
        ({"bet_presets": ["50"]}, "preferences.invalid", "bet_presets"),
        ({"bet_presets": [True]}, "preferences.invalid", "bet_presets"),
        ({"deck": "two", "hotkeys": "off"}, "preferences.invalid", "hotkeys"),
    ],
)
async def test_a_bad_change_is_refused_with_its_code_and_nothing_is_stored(
    server: Server, change: dict[str, Any], code: str, field: str
) -> None:
    async with httpx.AsyncClient(base_url=server.base, timeout=PASSWORD_SECONDS) as http:
        ann = await signed_up(http, "ann")
        await http.put("/api/preferences", headers=ann, json={"language": "hu"})
        refused = await http.put("/api/preferences", headers=ann, json=change)
        assert refused.status_code == 422, refused.text
        body = refused.json()
        assert body["code"] == code and body["params"]["field"] == field
        assert field in body["detail"]
        stored = (await http.get("/api/preferences", headers=ann)).json()
        assert stored == {**DEFAULTS, "language": "hu"}  # "deck": "two" was not kept either


async def test_forged_and_oversized_bodies_are_refused(room: Server) -> None:
    async with httpx.AsyncClient(base_url=room.base, timeout=PASSWORD_SECONDS) as http:
        ann = await signed_up(http, "ann")
        refusals = [
            await http.put("/api/preferences", headers=ann, content=b"{not json"),
            await http.put("/api/preferences", headers=ann, content=b'["language", "nb"]'),
            await http.put("/api/preferences", headers=ann, content=b"\xff\xfe"),
            await http.put("/api/preferences", headers=ann, content="[" * 5000 + "]" * 5000),
        ]
        assert [r.status_code for r in refusals[:3]] == [400, 400, 400]
        assert {r.json()["code"] for r in refusals[:3]} == {"request.not_json"}
        # past the limit, by its length or by what is sent without one
        big = json.dumps({"language": "nb", "pad": "x" * MAX_BODY_BYTES}).encode()
        too_big = await http.put("/api/preferences", headers=ann, content=big)

        async def chunks() -> Any:
            for _ in range(10):
                yield b" " * MAX_BODY_BYTES

        streamed = await http.put(
            "/api/preferences",
            headers={**ann, "Content-Type": "application/json"},
            content=chunks(),
        )
        for response in [refusals[3], too_big, streamed]:
            assert response.status_code == 413, response.text
            assert response.json()["code"] == "request.too_large"
            assert response.json()["params"] == {"limit": MAX_BODY_BYTES}
        assert (await http.get("/api/preferences", headers=ann)).json() == DEFAULTS


async def test_each_account_sees_only_its_own(room: Server) -> None:
    async with httpx.AsyncClient(base_url=room.base, timeout=PASSWORD_SECONDS) as http:
        ann = await signed_up(http, "ann")
        bob = await signed_up(http, "bob")
        await http.put("/api/preferences", headers=ann, json={"language": "sv", "deck": "two"})
        assert (await http.get("/api/preferences", headers=bob)).json() == DEFAULTS
        await http.put("/api/preferences", headers=bob, json={"auto_muck": True})
        assert (await http.get("/api/preferences", headers=ann)).json() == {
            **DEFAULTS,
            "language": "sv",
            "deck": "two",
        }
        for method in ("GET", "PUT"):
            anonymous = await http.request(method, "/api/preferences", json={"deck": "two"})
            forged = await http.request(
                method,
                "/api/preferences",
                json={"deck": "two"},
                headers={"Authorization": "Bearer not-a-token"},
            )
            assert anonymous.status_code == forged.status_code == 401
            assert anonymous.json()["code"] == "auth.no_token"
            assert forged.json()["code"] == "auth.not_logged_in"


async def test_concurrent_changes_to_different_fields_are_both_kept(room: Server) -> None:
    async with httpx.AsyncClient(base_url=room.base, timeout=PASSWORD_SECONDS) as http:
        ann = await signed_up(http, "ann")
        changes = [
            {"language": "da"},
            {"deck": "two"},
            {"auto_muck": True},
            {"hotkeys": False},
            {"bet_presets": [25, 50, 300]},
        ]
        answers = await asyncio.gather(
            *(http.put("/api/preferences", headers=ann, json=change) for change in changes)
        )
        assert [a.status_code for a in answers] == [200] * len(changes)
        stored = (await http.get("/api/preferences", headers=ann)).json()
        assert stored == {
            "language": "da",
            "deck": "two",
            "auto_muck": True,
            "hotkeys": False,
            "bet_presets": [25, 50, 300],
            "free_check_f": "ask",
        }


async def test_auto_muck_goes_with_the_account_to_its_seat_and_follows_a_change(
    server: Server,
) -> None:
    """The server applies auto-muck at showdown (the table's seat option): a join takes the
    account's saved preference, and a later change reaches the seats where it sits."""
    await server.room.open_table(TableConfig("am", "am", "titan", "holdem", "no_limit", 200, 6, ()))
    ann = await person(server.base, "ann")
    headers = {"Authorization": f"Bearer {ann.token}"}
    async with httpx.AsyncClient(base_url=server.base, timeout=PASSWORD_SECONDS) as http:
        put = await http.put("/api/preferences", headers=headers, json={"auto_muck": True})
        assert put.status_code == 200
        await ann.send(type="watch", table="am")
        await ann.send(type="join", table="am", seat=1, buy_in=10_000, request="r1")
        seated = await ann.until(lambda f: f["you"] == 1)
        assert seated["options"]["auto_muck"] is True
        seat = server.room.actors["am"].table.seats[1]
        assert seat.auto_muck is True
        put = await http.put("/api/preferences", headers=headers, json={"auto_muck": False})
        assert put.status_code == 200
        changed = await ann.until(lambda f: f["options"] and f["options"]["auto_muck"] is False)
        assert changed["you"] == 1 and seat.auto_muck is False
        # A refused change (a bad value) reaches no seat.
        bad = await http.put("/api/preferences", headers=headers, json={"auto_muck": "yes"})
        assert bad.status_code == 422 and seat.auto_muck is False
