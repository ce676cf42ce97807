"""The load test reports PostgreSQL's CPU for its run's database (the room, its
load client and PostgreSQL's backends share the machine's cores): read from /proc for the
backends connected to that database, not for other databases' sessions."""

from __future__ import annotations

import asyncpg  # type: ignore[import-untyped]
import pytest

from pokerroom.cli.database_cpu import database_cpu
from tests.store.conftest import drop_postgres, fresh_postgres

pytestmark = pytest.mark.postgres
BUSY = "SELECT count(*) FROM generate_series(1, 2000000)"  # a backend busy for a while


async def test_the_cpu_of_the_databases_backends_is_counted_and_no_others() -> None:
    ours, ours_url = await fresh_postgres()
    other, other_url = await fresh_postgres()
    dsn = {
        name: url.replace("postgresql+asyncpg", "postgresql")
        for name, url in ((ours, ours_url), (other, other_url))
    }
    mine = await asyncpg.connect(dsn[ours])
    theirs = await asyncpg.connect(dsn[other])
    try:
        before = await database_cpu(ours_url)
        assert await mine.fetchval("SELECT pg_backend_pid()") in before.ours
        assert await theirs.fetchval("SELECT pg_backend_pid()") not in before.ours
        for _ in range(3):
            await theirs.fetchval(BUSY)  # another database's work: not ours
        quiet, _ = (await database_cpu(ours_url)).since(before)
        for _ in range(3):
            await mine.fetchval(BUSY)
        busy, _ = (await database_cpu(ours_url)).since(before)
        assert busy > quiet  # the busy backend's CPU, in seconds
        assert busy > 0.05
    finally:
        await mine.close()
        await theirs.close()
        await drop_postgres(ours)
        await drop_postgres(other)
