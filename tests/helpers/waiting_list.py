"""A table's waiting list over the socket: the frames that say one's place, read up to the
latest."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pokerroom.store.accounts import STARTING_GRANT
from pokerroom.store.db import Database
from pokerroom.store.ledger import BANK, transfer
from tests.server.conftest import Person, Server


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
