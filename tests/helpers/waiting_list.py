"""A table's waiting list over the socket: the frames that say one's place, read up to the
latest."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from pokerroom.store.accounts.accounts import STARTING_GRANT
from pokerroom.store.db import Database
from pokerroom.store.models import TableRecord
from pokerroom.store.money.ledger import BANK, transfer
from pokerroom.table import Table
from tests.helpers.database import rows
from tests.helpers.room_tables import ann_and_bob_seated
from tests.server.conftest import Person, Server, person


async def waiting(someone: Person, table: str, **expected: Any) -> dict[str, Any]:
    """The next ``waiting`` frame for ``table`` with the ``expected`` fields."""
    while True:
        frame = await someone.next("waiting")
        if frame["table"] == table and all(frame[k] == v for k, v in expected.items()):
            return frame


async def drain(server: Server, account: int, leave: int) -> None:
    """The account's play money back to the bank, down to ``leave`` chips."""
    db = Database(server.database)
    try:
        async with db.transaction() as session:
            await transfer(
                session,
                "grant",
                {("player", str(account)): leave - STARTING_GRANT, BANK: STARTING_GRANT - leave},
                now=datetime.now(UTC),
                memo="test: the player lost their money",
            )
    finally:
        await db.close()


async def stored_table(server: Server, table: str) -> Table:
    record = (await rows(server, select(TableRecord).where(TableRecord.id == table)))[0]
    return Table.from_json(record.snapshot)


async def full_two_seats(server: Server, table: str) -> tuple[Person, Person]:
    """A two-seat table with ann and bob seated: a newcomer has to wait."""
    ann, bob = await ann_and_bob_seated(server, table, (1, 2), table_seats=2)
    await bob.until(lambda f: f.get("you") == 2)
    return ann, bob


async def in_line(server: Server, table: str, *names: str) -> list[Person]:
    """New people who join the table's waiting list, in this order."""
    people = [await person(server.base, name) for name in names]
    for place, someone in enumerate(people, start=1):
        await someone.send(type="waiting_list", table=table, action="join")
        await waiting(someone, table, position=place)
    return people
