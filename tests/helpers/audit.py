"""S-AUDIT-2 for tests: the audit reconciles the room's books, or the test fails naming why."""

from __future__ import annotations

from typing import Any

import pytest

from pokerroom.store.audit import AuditReport
from pokerroom.store.audit import audit_database as audit_of
from pokerroom.store.db import Database


async def audit_database(url: str) -> AuditReport:
    """Run the audit on a database (a running room's, through a connection of its own)."""
    db = Database(url)
    try:
        return await audit_of(db)
    finally:
        await db.close()


async def assert_books_balance(server: Any) -> AuditReport:
    """Fail listing every difference the audit finds: tables against the ledger, balances
    against their postings, the house's rake against the hands."""
    report = await audit_database(server.database)
    if not report.ok:
        pytest.fail(
            "the audit found differences:\n" + "\n".join(f"  - {p}" for p in report.problems)
        )
    return report
