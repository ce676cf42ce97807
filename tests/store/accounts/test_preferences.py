"""An account's preferences in the store: one JSON object per account, changed in one
transaction; a change that raises stores nothing."""

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import func, select

from pokerroom.store.accounts.accounts import sign_up
from pokerroom.store.db import Database
from pokerroom.store.models import AccountPreferences
from pokerroom.store.tables.store import RoomStore

NOW = datetime(2026, 12, 1, 11, 0, tzinfo=UTC)


async def test_preferences_are_kept_per_account_and_a_failed_change_stores_nothing(
    database: Database,
) -> None:
    async with database.transaction() as session:
        ann = (await sign_up(session, "ann", "correct horse", now=NOW)).id
        bob = (await sign_up(session, "bob", "correct horse", now=NOW)).id
    store = RoomStore(database)
    assert await store.preferences(ann) == {}
    saved = await store.update_preferences(ann, lambda old: {**old, "deck": "two"}, now=NOW)
    assert saved == {"deck": "two"} == await store.preferences(ann)
    assert await store.preferences(bob) == {}

    def refuse(old: dict[str, Any]) -> dict[str, Any]:
        raise ValueError("not a preference")

    with pytest.raises(ValueError, match="not a preference"):
        await store.update_preferences(ann, refuse, now=NOW)
    with pytest.raises(ValueError, match="not a preference"):
        await store.update_preferences(bob, refuse, now=NOW)  # its first row is not kept
    assert await store.preferences(ann) == {"deck": "two"}
    async with database.transaction() as session:
        rows = await session.scalar(select(func.count()).select_from(AccountPreferences))
    assert rows == 1


async def test_changes_at_once_each_see_the_others(database: Database) -> None:
    async with database.transaction() as session:
        ann = (await sign_up(session, "ann", "correct horse", now=NOW)).id
    store = RoomStore(database)

    def setting(name: str) -> Any:
        return lambda old: {**old, name: True}

    names = [f"option_{i}" for i in range(8)]
    await asyncio.gather(*(store.update_preferences(ann, setting(n), now=NOW) for n in names))
    assert await store.preferences(ann) == dict.fromkeys(names, True)
