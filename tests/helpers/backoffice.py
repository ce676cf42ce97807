"""The back office's routes as a player may try them, and a difference made in the books on
purpose (chips from nowhere in an account's balance, past the ledger) for the audit to find."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import update
from sqlalchemy.exc import OperationalError

from pokerroom.store.db import Database
from pokerroom.store.models import LedgerAccount

# (method, path, body) of every route server/http/backoffice.py adds.
BACK_OFFICE_ROUTES: tuple[tuple[str, str, dict[str, Any] | None], ...] = (
    ("GET", "/api/floor/audit", None),
    ("GET", "/api/floor/metrics", None),
    ("GET", "/api/floor/hands/1/replay", None),
    ("GET", "/api/floor/tournaments/structures", None),
    ("POST", "/api/floor/tournaments", {"structure": "sng6"}),
    ("POST", "/api/floor/tournaments/any-1/start", None),
    ("POST", "/api/floor/tournaments/any-1/cancel", {"reason": "test"}),
)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def shift_balance(database: str, account: int, cents: int) -> None:
    """``cents`` more in ``account``'s balance with no posting behind them (negative: back)."""
    db = Database(database)
    try:
        for attempt in range(20):  # bounded: a running room's writes may hold SQLite's lock
            try:
                async with db.transaction() as session:
                    await session.execute(
                        update(LedgerAccount)
                        .where(LedgerAccount.kind == "player", LedgerAccount.owner == str(account))
                        .values(balance=LedgerAccount.balance + cents)
                    )
                return
            except OperationalError:
                if attempt == 19:
                    raise
                await asyncio.sleep(0.5)
    finally:
        await db.close()
