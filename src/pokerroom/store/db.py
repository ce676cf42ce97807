"""Opening the database: the same code on SQLite (embedded default) and PostgreSQL.

SQLite runs in WAL mode with foreign keys on; PostgreSQL through asyncpg. The
schema is created and upgraded by Alembic migrations shipped in the package.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, event
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

MIGRATIONS = Path(__file__).parent / "migrations"


def sqlite_url(path: str | Path) -> str:
    return f"sqlite+aiosqlite:///{Path(path)}"


def _on_sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # readers never block the writer
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")  # with WAL: durable at each checkpoint
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url)
    return config


def _upgrade(connection: Connection, url: str) -> None:
    config = alembic_config(url)
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


class Database:
    """An engine and its sessions. ``transaction()`` commits on success, rolls back on error."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: AsyncEngine = create_async_engine(url, pool_pre_ping=True)
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", _on_sqlite_connect)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)

    @property
    def is_sqlite(self) -> bool:
        return self.url.startswith("sqlite")

    async def migrate(self) -> None:
        """Create or upgrade the schema to the newest migration."""
        async with self.engine.begin() as connection:
            await connection.run_sync(_upgrade, self.url)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        async with self.sessions() as session, session.begin():
            yield session

    async def close(self) -> None:
        await self.engine.dispose()
