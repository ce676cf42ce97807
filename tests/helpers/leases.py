"""Node and lease rows on a PostgreSQL database of the test's own, at a fixed time."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from pokerroom.store.db import Database
from tests.store.conftest import postgres_database

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


TTL = timedelta(seconds=5)


@pytest.fixture
async def db() -> AsyncIterator[Database]:
    async with postgres_database() as database:
        yield database
