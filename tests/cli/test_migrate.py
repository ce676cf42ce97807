"""``pokerroom migrate``: the pending migrations of an empty database, applied (each said on
stderr), the current revision, and a downgrade that leaves the last one pending again."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerroom.cli.app import app
from pokerroom.store.db import MIGRATIONS, sqlite_url


def migrate(*words: str) -> tuple[int, str]:
    done = CliRunner().invoke(app, ["migrate", *words])
    return done.exit_code, done.output


def test_migrate_shows_applies_and_takes_back_the_schema(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("INFO", logger="pokerroom.store")
    database = ["--database", sqlite_url(tmp_path / "room.db")]
    shipped = sorted(p.stem for p in (MIGRATIONS / "versions").glob("[0-9]*.py"))
    code, pending = migrate("pending", *database)
    assert code == 0 and [p.split("_")[0] for p in pending.split()] == [
        s.split("_")[0] for s in shipped
    ]
    code, said = migrate("current", *database)
    assert code == 0 and said.startswith("empty (no schema)")
    code, said = migrate("apply", *database)
    assert code == 0, said
    assert f"migrated from empty to {shipped[-1]}" in caplog.text  # (on stderr, as a node's)
    assert said.rstrip().endswith(f"{shipped[-1]} (newest; this version's newest: {shipped[-1]})")
    code, said = migrate("downgrade", shipped[-2], *database)
    assert code == 0 and f"migrated from {shipped[-1]} to {shipped[-2]}" in caplog.text
    assert migrate("pending", *database) == (0, f"{shipped[-1]}\n")
