"""Reading a running room's database through a connection of its own: rows of a query, cancelled
hands."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from pokerroom.store.db import Database
from pokerroom.store.models import HandRecord
from tests.server.conftest import Server


async def rows(server: Server, query: Any) -> list[Any]:
    db = Database(server.database)
    try:
        async with db.transaction() as session:
            return list((await session.scalars(query)).all())
    finally:
        await db.close()


async def cancelled_hands(server: Server) -> int:
    db = Database(server.database)
    try:
        async with db.transaction() as session:
            return int(
                await session.scalar(select(func.count()).where(HandRecord.status == "cancelled"))
                or 0
            )
    finally:
        await db.close()
