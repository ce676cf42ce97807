"""Databases for store tests: a SQLite file and a fresh PostgreSQL database each test.

PostgreSQL is expected at 127.0.0.1:5432 (user postgres, trust auth). Under CI
(CI=true) a missing server fails the tests loudly; elsewhere they skip, saying why.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest

from pokerroom.store.db import Database, sqlite_url

PG_DSN = os.environ.get("POKERROOM_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


async def fresh_postgres() -> tuple[str, str]:
    name = f"pokerroom_test_{secrets.token_hex(6)}"
    try:
        admin = await asyncpg.connect(PG_DSN, timeout=5)
    except (OSError, asyncpg.PostgresError) as error:
        message = f"PostgreSQL is not reachable at {PG_DSN}: {error}"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (CI requires it)")
        pytest.skip(message)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    base = PG_DSN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
    return name, f"{base}/{name}"


async def drop_postgres(name: str) -> None:
    admin = await asyncpg.connect(PG_DSN, timeout=5)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@asynccontextmanager
async def postgres_database() -> AsyncIterator[Database]:
    """A migrated database of its own on the PostgreSQL server, dropped after."""
    name, url = await fresh_postgres()
    db = Database(url)
    try:
        await db.migrate()
        yield db
    finally:
        await db.close()
        await drop_postgres(name)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    if request.param == "sqlite":
        db = Database(sqlite_url(tmp_path / "pokerroom.db"))
        await db.migrate()
        yield db
        await db.close()
        return
    async with postgres_database() as db:
        yield db
