"""The waiting list in the room, over real sockets: join it from the lobby, your
place shown, a freed seat held for the first in line who sits down in it; the hostile
sequences (join twice, join while seated, join/leave/join, disconnect while first in line,
a seat offered to a player with no chips) refused or passed over, the list stored with the
table; every test ends with the audit reconciling (S-AUDIT-2)."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from pokerroom.server.tables.inbox import Close
from pokerroom.server.tables.room import Room, config_json
from pokerroom.server.tables.waiting import NO_CHIPS
from pokerroom.store.accounts.accounts import sign_up
from pokerroom.store.db import Database, sqlite_url
from pokerroom.store.money.ledger import join
from pokerroom.store.tables.hands import save_table
from tests.helpers.audit import assert_books_balance, audit_database
from tests.helpers.room_tables import table_config
from tests.helpers.waiting_list import drain, full_two_seats, in_line, stored_table, waiting
from tests.server.conftest import Person, Server, person


async def error(someone: Person) -> str:
    return str((await someone.next("error"))["message"])


async def lobby_entry(server: Server, table: str, token: str | None = None) -> dict[str, Any]:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=server.base) as http:
        entries = (await http.get("/api/lobby", headers=headers)).json()
    return next(e for e in entries if e["id"] == table)


async def take_the_offered_seat(someone: Person, table: str) -> None:
    """Wait for a seat held for ``someone`` and sit down in it."""
    frame = await waiting(someone, table, position=1)
    while frame["offer"] is None:
        frame = await waiting(someone, table)
    seat = frame["offer"]["seat"]
    await someone.send(type="watch", table=table)
    await someone.send(type="join", table=table, seat=seat, buy_in=10_000, request="r1")
    await someone.until(lambda f: f.get("you") == seat)


async def the_first_in_line_is_seated(server: Server) -> None:
    ann, bob = await full_two_seats(server, "w1")
    carl = await person(server.base, "carl")
    dave = await person(server.base, "dave")
    await carl.send(type="waiting_list", table="w1", action="join")
    await waiting(carl, "w1", position=1, length=1, offer=None)
    await carl.send(type="waiting_list", table="w1", action="join")  # twice
    assert "already on the waiting list" in await error(carl)
    await ann.send(type="waiting_list", table="w1", action="join")  # while seated
    assert "already has a seat" in await error(ann)
    await dave.send(type="waiting_list", table="w1", action="join")
    await waiting(dave, "w1", position=2)
    await dave.send(type="waiting_list", table="w1", action="leave")
    await waiting(dave, "w1", position=None)
    await dave.send(type="waiting_list", table="w1", action="leave")  # not on it any more
    assert "not on this table's waiting list" in await error(dave)
    await dave.send(type="waiting_list", table="w1", action="join")  # join/leave/join
    await waiting(dave, "w1", position=2, length=2)
    entry = await lobby_entry(server, "w1", carl.token)
    assert entry["waiting"] == ["carl", "dave"] and entry["you_wait"] == 1
    assert (await lobby_entry(server, "w1"))["you_wait"] is None  # a guest
    assert (await stored_table(server, "w1")).waiting.players == [
        str(carl.account_id),
        str(dave.account_id),
    ]  # stored with the table: a restart keeps the list

    await bob.send(type="leave", table="w1")
    offer = (await waiting(carl, "w1", position=1, length=2))["offer"]
    while offer is None:
        offer = (await waiting(carl, "w1"))["offer"]
    assert offer["seat"] == 2 and 0 < offer["seconds"] <= 30
    await dave.send(type="watch", table="w1")
    held = await dave.until(lambda f: f["seats"][1].get("held_for") == "carl")
    assert held["waiting"] == ["carl", "dave"]
    await dave.send(type="join", table="w1", seat=2, buy_in=10_000, request="d1")
    refused = await dave.next("error")
    assert refused["code"] == "waiting.held" and refused["params"] == {"seat": "2"}
    await carl.send(type="watch", table="w1")
    await carl.send(type="join", table="w1", seat=2, buy_in=10_000, request="c1")
    await carl.until(lambda f: f.get("you") == 2)
    await waiting(dave, "w1", position=1, length=1)
    told = [f for f in carl.frames if f["type"] == "waiting"]  # read on the way to the seat
    assert told[-1]["position"] is None and told[-1]["offer"] is None
    assert (await lobby_entry(server, "w1"))["waiting"] == ["dave"]
    await assert_books_balance(server)


async def test_the_first_in_line_is_offered_the_freed_seat_and_sits(server: Server) -> None:
    await the_first_in_line_is_seated(server)


@pytest.mark.postgres
async def test_the_waiting_list_on_postgresql(postgres_server: Server) -> None:
    await the_first_in_line_is_seated(postgres_server)


async def test_a_disconnected_first_in_line_is_passed_over_when_the_time_is_up(
    server: Server,
) -> None:
    _ann, bob = await full_two_seats(server, "w2")
    server.room.actors["w2"].table.waiting.offer_seconds = 0.5  # a short clock for the test
    carl = await person(server.base, "carl")
    dave = await person(server.base, "dave")
    await carl.send(type="waiting_list", table="w2", action="join")
    await waiting(carl, "w2", position=1)
    await dave.send(type="waiting_list", table="w2", action="join")
    await waiting(dave, "w2", position=2)
    await carl.ws.close()  # gone while first in line: the place is kept, the clock runs
    await bob.send(type="leave", table="w2")
    await take_the_offered_seat(dave, "w2")
    assert str(carl.account_id) not in server.room.actors["w2"].table.waiting
    await assert_books_balance(server)


async def test_a_seat_offered_to_a_player_with_no_chips_goes_to_the_next(server: Server) -> None:
    _ann, bob = await full_two_seats(server, "w3")
    eve, frank = await in_line(server, "w3", "eve", "frank")
    await drain(server, eve.account_id, 1_000)  # below any buy-in
    await bob.send(type="leave", table="w3")
    passed = await waiting(eve, "w3", position=None)
    assert passed["note"] == NO_CHIPS
    await take_the_offered_seat(frank, "w3")
    await assert_books_balance(server)


async def test_closing_the_table_empties_its_waiting_list_and_tells_who_waited(
    server: Server,
) -> None:
    await full_two_seats(server, "w4")
    carl = await person(server.base, "carl")
    await carl.send(type="waiting_list", table="w4", action="join")
    await waiting(carl, "w4", position=1)
    await server.room.actors["w4"].call(Close, "end of the night")
    told = await waiting(carl, "w4", position=None)
    assert told["note"] == "the table was closed" and told["offer"] is None
    assert told["code"] == "waiting.table_closed"  # for the client's language
    await carl.send(type="waiting_list", table="w4", action="join")
    assert "this table is closed" in await error(carl)
    await assert_books_balance(server)


async def test_the_list_survives_a_restart_and_a_held_seat_keeps_its_wall_clock_deadline(
    tmp_path: Path,
) -> None:
    """The list is stored with the table (its snapshot); after a restart the first in line
    still holds the seat until the wall-clock instant it was held until, on this process's
    clock (the snapshot's clock was another process's)."""
    url = sqlite_url(tmp_path / "room.db")
    db = Database(url)
    await db.migrate()
    config = table_config("w5", seats=2)
    table = config.build()
    now = datetime.now(UTC)
    async with db.transaction() as session:
        people = [await sign_up(session, n, "correct horse", now=now) for n in ("ann", "carl")]
        ann, carl = people
        await join(session, ann.id, "w5", 10_000, seat=1, number=1, now=now, key="join:w5:a")
        table.sit(str(ann.id), 1, 10_000, name="ann")
        # Seat 2 is held for carl at once, 10 s ago on the wall clock (the table's clock
        # there), so until 20 s from now.
        made_at = time.monotonic()
        table.join_waiting_list(str(carl.id), time.time() - 10, name="carl")
        await save_table(
            session, "w5", name="w5", config=config_json(config), snapshot=table.to_json(), now=now
        )
    await db.close()
    room = Room(Database(url))
    await room.start(demo=False)
    try:
        restored = room.actors["w5"].table.waiting
        assert restored.players == [str(carl.id)] and restored.reserved_for(2) == str(carl.id)
        deadline = restored.next_deadline()
        assert deadline is not None
        clock = asyncio.get_running_loop().time()
        assert clock + 20 - (time.monotonic() - made_at) - 0.1 <= deadline <= clock + 20
    finally:
        await room.stop()
    report = await audit_database(url)
    assert report.ok, report.problems


async def test_a_suspended_account_leaves_the_waiting_list(server: Server) -> None:
    await full_two_seats(server, "w6")
    carl, dave = await in_line(server, "w6", "carl", "dave")
    server.room.suspend(carl.account_id)  # S-AUTH-2: the floor's suspension
    await waiting(dave, "w6", position=1, length=1)
    assert server.room.actors["w6"].table.waiting.players == [str(dave.account_id)]
    await assert_books_balance(server)
