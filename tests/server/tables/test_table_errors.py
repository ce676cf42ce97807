"""S-INPUT-1 with two tables open: every error about a table names that table, so the
client shows it there and not on the other one."""

from __future__ import annotations

from pokerroom.server.tables.room import TableConfig
from tests.helpers.audit import assert_books_balance
from tests.server.conftest import Server, person


async def test_S_INPUT_1_an_error_about_table_B_carries_table_B(server: Server) -> None:
    for table in ("a", "b"):
        await server.room.open_table(
            TableConfig(table, table.upper(), "titan", "holdem", "no_limit", 200, 6)
        )
    ann = await person(server.base, "ann")
    for table in ("a", "b"):
        await ann.send(type="watch", table=table)
    await ann.send(type="join", table="a", seat=1, buy_in=10_000, request="a1")
    await ann.until(lambda f: f["table"] == "a" and f["you"] == 1)
    # Errors raised by table b's task: acting where she has no seat, leaving it.
    await ann.send(type="act", table="b", action="fold", hand=1)
    refused = await ann.next("error")
    assert refused["table"] == "b", refused
    await ann.send(type="leave", table="b")
    refused = await ann.next("error")
    assert refused["table"] == "b", refused
    # Errors about a table from the socket's edge: a table that does not exist.
    await ann.send(type="watch", table="nowhere")
    refused = await ann.next("error")
    assert refused["table"] == "nowhere", refused
    # An error about no table names none.
    await ann.ws.send("not json")
    refused = await ann.next("error")
    assert refused["table"] is None, refused
    await assert_books_balance(server)
