"""R-PRIV-1, a private game's settings over HTTP and its table's options over the socket: the
settings the host left out are answered with the values in force (the preset's); a refused
setting's ``private.invalid`` names it (``field``) and creates nothing; the table offers the
host's options (R-STRADDLE-1, R-RIT-1, R-BOMB-1) and takes a seat's. Each test ends with the
audit reconciling (S-AUDIT-2)."""

from __future__ import annotations

from typing import Any

from pokerroom.rules import load_preset
from tests.helpers.audit import assert_books_balance
from tests.helpers.private_games import (
    SETTINGS,
    call,
    host_act,
    hosted,
    let_in,
    seated,
)
from tests.server.conftest import Server, person

LEFT_OUT = ("min_buy_in_bb", "max_buy_in_bb", "decision_seconds", "time_bank_seconds")


async def test_R_PRIV_1_settings_left_out_are_answered_with_the_values_in_force(
    server: Server,
) -> None:
    ann = await person(server.base, "ann")
    body = {k: v for k, v in SETTINGS.items() if k not in LEFT_OUT}
    created = await call(server, ann, "POST", "", {**body, "max_buy_in_bb": 150})
    assert created.status_code == 201, created.text
    game = created.json()
    titan = load_preset("titan")
    house = server.room.actors[game["id"]].table.house
    wanted = {
        "min_buy_in_bb": titan.min_buy_in_bb,
        "max_buy_in_bb": 150,  # the host's own
        "decision_seconds": titan.decision_seconds,
        "time_bank_seconds": titan.time_bank_seconds,
    }
    assert {name: getattr(house, name) for name in LEFT_OUT} == wanted  # what is in force
    listed = (await call(server, ann, "GET", "")).json()["games"]
    one = (await call(server, ann, "GET", f"/{game['id']}")).json()
    for seen in (game, listed[0], one):
        assert {name: seen["settings"][name] for name in LEFT_OUT} == wanted, seen["settings"]
        assert seen["settings"]["name"] == SETTINGS["name"]
    # Ended (its table gone), the game is answered the same.
    await host_act(server, ann, game, "end")
    ended = (await call(server, ann, "GET", f"/{game['id']}")).json()
    assert ended["ended"]
    assert {name: ended["settings"][name] for name in LEFT_OUT} == wanted, ended["settings"]
    await assert_books_balance(server)


REFUSED: list[tuple[dict[str, Any], str]] = [
    ({"structure": "fixed_limit", "straddle": True}, "straddle"),
    ({"preset": "fortune", "structure": "no_limit"}, "structure"),
    ({"preset": "fortune", "variant": "omaha", "structure": "fixed_limit"}, "variant"),
    ({"preset": "fortune", "structure": "fixed_limit", "seats": 6}, "seats"),
    ({"min_buy_in_bb": 150, "max_buy_in_bb": 100}, "min_buy_in_bb"),
    ({"max_buy_in_bb": 10}, "max_buy_in_bb"),  # below the preset's bottom (20)
]


async def test_R_PRIV_1_a_refused_setting_is_named_by_its_field_and_nothing_is_created(
    server: Server,
) -> None:
    ann = await person(server.base, "ann")
    for changes, field in REFUSED:
        refused = await call(server, ann, "POST", "", {**SETTINGS, **changes})
        assert refused.status_code == 422, (changes, refused.text)
        answer = refused.json()
        assert answer["code"] == "private.invalid", answer
        assert answer["params"]["field"] == field, (changes, answer)
        assert answer["params"]["reason"], answer
    assert (await call(server, ann, "GET", "")).json()["games"] == []
    # The host's acts and asking name their fields too.
    game = await hosted(server, ann, bomb_pot=True)
    too_big = await call(server, ann, "POST", f"/{game['id']}/bomb-pot", {"big_blinds": 21})
    assert too_big.status_code == 422 and too_big.json()["params"]["field"] == "big_blinds"
    neither = await call(server, ann, "POST", "/ask", {})
    assert neither.status_code == 422 and neither.json()["code"] == "private.code_or_invite"
    assert neither.json()["params"]["field"] == "code"
    await assert_books_balance(server)


async def test_R_PRIV_1_the_table_offers_the_hosts_options_and_takes_a_seats(
    server: Server,
) -> None:
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    game = await hosted(server, ann, straddle=True, run_it_twice=True, bomb_pot=True)
    table = game["id"]
    await host_act(server, ann, game, "pause")  # no hand: the frames are the seat's own
    await let_in(server, ann, game, bob)
    await seated(ann, table, 1)
    await seated(bob, table, 2)
    offered = [f for f in bob.frames if f.get("type") == "table" and f.get("table") == table][-1]
    assert offered["offers"] == {"straddle": True, "run_it_twice": True, "bomb_pot": True}
    await bob.send(type="options", table=table, straddle=True, run_it_twice=True)
    agreed = await bob.until(
        lambda f: (
            f.get("type") == "table"
            and (f.get("options") or {}).get("run_it_twice") is True
            and (f.get("options") or {}).get("straddle") is True
        )
    )
    assert agreed["you"] == 2
    await assert_books_balance(server)
