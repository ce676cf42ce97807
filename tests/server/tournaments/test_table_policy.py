"""A tournament's table is the room's one table actor with the tournament's policy: its seats
are the tournament's to draw, the floor does not void or close it, and its frames say which
event it belongs to."""

from __future__ import annotations

import pytest

from pokerroom.server.tables.inbox import Close, Void
from pokerroom.table import TableError
from tests.helpers.audit import assert_books_balance
from tests.helpers.room_tables import tournament_heads_up
from tests.server.conftest import Server

SEAT_REQUESTS = [
    {"type": "join", "seat": 5, "buy_in": 1000, "request": "j1"},
    {"type": "add_chips", "amount": 100, "request": "a1"},
    {"type": "leave"},
    {"type": "sit_out"},
    {"type": "sit_in"},
]


async def test_a_tournament_table_refuses_seat_requests_and_the_floor_and_says_its_event(
    server: Server,
) -> None:
    table, ann, _bob = await tournament_heads_up(server)
    frame = await ann.next("table")
    assert frame["tournament"]  # what the event adds to the table's frame
    actor = server.room.actors[table]
    players = {s.player for s in actor.table.seats.values()}
    for request in SEAT_REQUESTS:
        await ann.send(table=table, **request)
        error = await ann.next("error")
        assert error["table"] == table and error["request"] == request["type"]
        assert "its seats are drawn by the tournament" in error["message"]
    for kind in (Void, Close):
        with pytest.raises(TableError, match="run by its tournament"):
            await actor.call(kind, "the floor tries")
    assert not actor.closed and server.room.actors[table] is actor
    assert {s.player for s in actor.table.seats.values()} == players  # nobody sat or left
    await assert_books_balance(server)
