"""``pokerroom loadtest --nodes 3 --kill-owner``: three node processes on one
PostgreSQL, bots at every table at its owner, a table owner killed mid-run. Its tables are
adopted (failovers), the hands it cut off refunded, nothing settled twice, no action lost,
and the books balance."""

from __future__ import annotations

import pytest

from pokerroom.cli.loadtest_nodes import in_words, json_line, run_nodes_loadtest
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


async def test_three_nodes_on_redis_bots_through_any_node_with_an_owner_killed() -> None:
    """With the bus: each bot plays through the node its seat is spread to, which
    is mostly not its table's owner, so its commands reach the owner over Redis; the owner
    killed mid-run, its tables adopted, and still nothing lost, doubled or unbalanced."""
    from tests.helpers.nodes import REDIS, redis_db

    name, _ = await fresh_postgres()
    await drop_postgres(name)
    server = PG_DSN.replace("postgresql://", "postgresql+asyncpg://")
    redis = await redis_db(8)  # this test's own Redis database (fails under CI without it)
    assert redis == f"{REDIS}/8"
    figures = await run_nodes_loadtest(3, 6, 2, 8.0, database=server, kill_owner=True, redis=redis)
    assert figures["redis"] is True and figures["nodes"] == 3
    assert figures["failovers"] >= 1
    assert figures["hands"] > 0 and figures["actions_per_s"] > 0
    assert figures["hands_settled_twice"] == 0 and figures["actions_lost"] == 0
    assert figures["books_balance"] is True
    # --json prints exactly JSON_KEYS, in their order; without it, every figure in words.
    keys = "nodes tables hands actions_per_s p99_ms failovers hands_refunded"
    assert " ".join(json_line(figures)) == keys + " hands_settled_twice actions_lost books_balance"
    assert "books balance" in in_words(figures) and "load client" in in_words(figures)
