"""``pokerroom serve --node-id``: several nodes need PostgreSQL, and a lease
renewed more often than it lasts; a wrong setting is one clear line and status 2, with
nothing started."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from pokerroom.cli.app import app
from pokerroom.server.app import create_app
from pokerroom.store.db import sqlite_url
from pokerroom.store.nodes.leases import LeaseSettings


def test_a_node_of_several_on_sqlite_is_refused(tmp_path: Path) -> None:
    database = sqlite_url(tmp_path / "room.db")
    result = CliRunner().invoke(app, ["serve", "--node-id", "n1", "--database", database])
    assert result.exit_code == 2
    assert "several nodes share a PostgreSQL database" in result.output
    assert not (tmp_path / "room.db").exists()  # nothing started, nothing created
    with pytest.raises(ValueError, match="PostgreSQL"):
        create_app(database, node="n1", leases=LeaseSettings())


def serve_a_node(*options: str) -> Result:
    """``pokerroom serve`` as node n1 on PostgreSQL, with ``options``."""
    database = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
    return CliRunner().invoke(app, ["serve", "--node-id", "n1", "--database", database, *options])


def test_a_lease_renewed_less_often_than_it_lasts_is_refused() -> None:
    result = serve_a_node("--lease-seconds", "2", "--renew-seconds", "3")
    assert result.exit_code == 2
    assert "--renew-seconds (3.0) must be under --lease-seconds (2.0)" in result.output
    with pytest.raises(ValueError, match="renewed more often than it lasts"):
        LeaseSettings(ttl=2, renew=3)


def test_a_redis_prefix_needs_the_nodes_redis() -> None:
    result = serve_a_node("--redis-prefix", "room-a:")
    assert result.exit_code == 2
    assert "--redis-prefix needs the nodes' --redis" in result.output


def test_two_rooms_on_one_redis_database_keep_apart_by_their_prefixes(tmp_path: Path) -> None:
    """Without a prefix of its own a room's keys are ``pokerroom:<db>:``: two rooms on one
    database (two test runs at once) would share their tables' command streams."""
    redis = "redis://127.0.0.1:6379/5"  # never reached: the bus is only made here
    rooms = [
        create_app(sqlite_url(tmp_path / f"{n}.db"), demo=False, redis=redis, redis_prefix=p)
        for n, p in (("a", "room-a:"), ("b", "room-b:"), ("c", None))
    ]
    keys = [room.state.room.links.bus.key("table:nlhe-1-2:in") for room in rooms]
    assert keys == [
        "room-a:table:nlhe-1-2:in",
        "room-b:table:nlhe-1-2:in",
        "pokerroom:5:table:nlhe-1-2:in",
    ]
