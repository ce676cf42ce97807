"""``unwatch``: a view closed in the browser (or a table the player was moved on from) stops
its frames for a spectator; a seated player's frames keep coming (they are the seat's), and
an unwatch of a table gone needs no answer. Over real sockets."""

from __future__ import annotations

from typing import Any

from pokerroom.server.tables.room import TableConfig
from tests.server.conftest import Person, Server, person


async def drained(someone: Person) -> list[dict[str, Any]]:
    """Every frame sent to ``someone`` before a ping's answer (the socket keeps the order)."""
    await someone.send(type="ping")
    before = len(someone.frames)
    await someone.next("pong")
    return someone.frames[before:]


async def test_a_spectator_who_unwatches_gets_no_more_frames(server: Server) -> None:
    await server.room.open_table(TableConfig("t", "T", "titan", "holdem", "no_limit", 200, 6))
    cat = await person(server.base, "cat")
    ann = await person(server.base, "ann")
    await cat.send(type="watch", table="t")
    await cat.next("table")
    await cat.send(type="unwatch", table="t")
    await drained(cat)  # the unwatch reached the table before ann's join below
    await ann.send(type="watch", table="t")
    await ann.send(type="join", table="t", seat=1, buy_in=10_000, request="j1")
    await ann.until(lambda f: f["you"] == 1)  # the table's frame with ann: not sent to cat
    assert [f for f in await drained(cat) if f.get("table") == "t"] == []
    await cat.send(type="watch", table="t")  # watching again: the table as it is now
    assert (await cat.next("table"))["seats"][0]["name"] == "ann"


async def test_a_seated_player_who_unwatches_keeps_the_seats_frames(server: Server) -> None:
    await server.room.open_table(TableConfig("t", "T", "titan", "holdem", "no_limit", 200, 6))
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    await ann.send(type="watch", table="t")
    await ann.send(type="join", table="t", seat=1, buy_in=10_000, request="j1")
    await ann.until(lambda f: f["you"] == 1)
    await ann.send(type="unwatch", table="t")
    await ann.send(type="unwatch", table="gone")  # no such table: nothing to say
    assert [f for f in await drained(ann) if f.get("type") == "error"] == []
    await bob.send(type="watch", table="t")
    await bob.send(type="join", table="t", seat=2, buy_in=10_000, request="j2")
    await ann.until(lambda f: not f["seats"][1]["empty"])
