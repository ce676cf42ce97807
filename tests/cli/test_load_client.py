"""The load client reads only the frames it must: a table frame without legal
actions is another seat's turn, timed as it arrives without being parsed; every other
frame (this seat's decision, errors, hand results) is parsed as before. A node that does
not run a bot's table ends its socket at once."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from pathlib import Path

import httpx
import pytest

from pokerroom.bots.client import TableNotHereError
from pokerroom.cli.load_client import Stats, not_ours, play_seat
from pokerroom.engine.actions import Action, ActionKind
from pokerroom.server.app import create_app
from pokerroom.server.sockets import encoding, protocol
from pokerroom.server.tables.views import public_state, state_for_seat
from pokerroom.store.db import sqlite_url
from tests.helpers.tables import titan_table
from tests.server.conftest import PASSWORD_SECONDS, start_uvicorn


def test_not_ours_is_exactly_a_table_frame_without_a_decision_for_its_viewer() -> None:
    table = titan_table(dict.fromkeys((1, 2, 4), 20_000), seed=5)
    decisions = others = 0
    for number in range(4):
        table.start_hand(float(number))
        while table.hand is not None:
            public = public_state(table, table_id="t", version=1, now=float(number))
            assert not_ours(encoding.encode(public))  # a spectator never decides
            actor = table.actor_seat()
            for seat in table.seats:
                frame = encoding.encode(state_for_seat(table, public, seat))
                assert not_ours(frame) is (seat != actor)
                decisions += seat == actor
                others += seat != actor
            player = table.seats[actor].player
            table.act(player, Action(ActionKind.CHECK_OR_CALL), float(number))
    assert decisions > 10 and others > 20
    assert not not_ours(protocol.error("no", table="t"))
    assert not not_ours('{"type":"hand_result","table":"t","hand":3}')
    assert not not_ours(b'{"type":"table","hand":null}')  # bytes: parsed, as before


async def test_a_bot_refused_by_a_node_without_its_table_leaves_at_once(tmp_path: Path) -> None:
    """A node that does not run the bot's table (it moved after the lobby was read) refuses
    the watch: the bot gives the socket up at once, so its caller asks again where the table
    runs, rather than waiting out the run for frames that never come."""
    app = create_app(sqlite_url(tmp_path / "room.db"), demo=False, pause=0.05)
    port, uv, task = await start_uvicorn(app)
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=PASSWORD_SECONDS) as http:
            signup = {"username": "stray", "password": "a stray bot"}
            token = (await http.post("/api/signup", json=signup)).json()["token"]
        stats = Stats(players=1, seconds=1.0, seat_by=time.monotonic() + 30)
        with pytest.raises(TableNotHereError):
            await play_seat(base, token, "load-9", 1, stats, random.Random(1), 0.0)
        assert stats.error_kinds == {"no table 'load-9'": 1}  # the first refusal ended it
        assert stats.seated == 0 and time.monotonic() < stats.seat_by
    finally:
        uv.should_exit = True
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, timeout=10)
