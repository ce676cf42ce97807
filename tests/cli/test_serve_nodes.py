"""``pokerroom serve --node-id`` (issue 15): several nodes need PostgreSQL, and a lease
renewed more often than it lasts; a wrong setting is one clear line and status 2, with
nothing started."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerroom.cli.app import app
from pokerroom.server.app import create_app
from pokerroom.server.leasing import LeaseSettings
from pokerroom.store.db import sqlite_url


def test_a_node_of_several_on_sqlite_is_refused(tmp_path: Path) -> None:
    database = sqlite_url(tmp_path / "room.db")
    result = CliRunner().invoke(app, ["serve", "--node-id", "n1", "--database", database])
    assert result.exit_code == 2
    assert "several nodes share a PostgreSQL database" in result.output
    assert not (tmp_path / "room.db").exists()  # nothing started, nothing created
    with pytest.raises(ValueError, match="PostgreSQL"):
        create_app(database, node="n1", leases=LeaseSettings())


def test_a_lease_renewed_less_often_than_it_lasts_is_refused() -> None:
    result = CliRunner().invoke(
        app,
        [
            "serve",
            "--node-id",
            "n1",
            "--database",
            "postgresql+asyncpg://postgres@127.0.0.1:5432/test",
            "--lease-seconds",
            "2",
            "--renew-seconds",
            "3",
        ],
    )
    assert result.exit_code == 2
    assert "--renew-seconds (3.0) must be under --lease-seconds (2.0)" in result.output
    with pytest.raises(ValueError, match="renewed more often than it lasts"):
        LeaseSettings(ttl=2, renew=3)
