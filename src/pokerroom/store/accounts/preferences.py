"""An account's client preferences: one JSON object per account, read whole and changed in one
transaction. The store keeps what it is given; what a preference may be is the server's
(``pokerroom.server.accounts.preferences``), which validates every object before it is written."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from pokerroom.store.models import AccountPreferences


def _decoded(text: str) -> dict[str, Any]:
    data = json.loads(text or "{}")
    return data if isinstance(data, dict) else {}


async def read_preferences(session: AsyncSession, account_id: int) -> dict[str, Any]:
    """What the account saved (``{}`` when it never did)."""
    row = await session.get(AccountPreferences, account_id)
    return {} if row is None else _decoded(row.data)


async def update_preferences(
    session: AsyncSession,
    account_id: int,
    change: Callable[[dict[str, Any]], dict[str, Any]],
    *,
    now: datetime,
) -> dict[str, Any]:
    """The account's preferences replaced by ``change(saved)``, with the row locked so that two
    changes at once apply one after the other (each sees the other's fields). ``change`` may
    raise: the transaction is then rolled back and nothing is stored."""
    dialect = session.get_bind().dialect.name
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    await session.execute(  # the row exists from here on, whoever made it first
        insert(AccountPreferences)
        .values(account_id=account_id, data="{}", updated_at=now)
        .on_conflict_do_nothing(index_elements=["account_id"])
    )
    row = (
        await session.execute(
            select(AccountPreferences)
            .where(AccountPreferences.account_id == account_id)
            .with_for_update()
        )
    ).scalar_one()
    changed = change(_decoded(row.data))
    row.data = json.dumps(changed, separators=(",", ":"), sort_keys=True)
    row.updated_at = now
    return changed
