"""``pokerroom loadtest --nodes 3 --kill-owner`` (issue 15): three node processes on one
PostgreSQL, bots at every table at its owner, a table owner killed mid-run. Its tables are
adopted (failovers), the hands it cut off refunded, nothing settled twice, no action lost,
and the books balance."""

from __future__ import annotations

import pytest

from pokerroom.cli.loadtest_nodes import run_nodes_loadtest
from tests.store.conftest import PG_DSN, drop_postgres, fresh_postgres

pytestmark = pytest.mark.postgres


async def test_three_nodes_with_an_owner_killed_mid_run() -> None:
    name, _ = await fresh_postgres()  # PostgreSQL is there (required under CI=true)
    await drop_postgres(name)
    server = PG_DSN.replace("postgresql://", "postgresql+asyncpg://")
    figures = await run_nodes_loadtest(3, 6, 2, 8.0, database=server, kill_owner=True)
    assert figures["nodes"] == 3 and figures["tables"] == 6
    assert figures["failovers"] >= 1  # the killed node's load tables, adopted
    assert figures["hands"] > 0 and figures["actions_per_s"] > 0
    assert figures["hands_settled_twice"] == 0 and figures["actions_lost"] == 0
    assert figures["books_balance"] is True
