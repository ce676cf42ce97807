"""A node started on a schema a newer version migrated (store/compatibility.py, docs/deploy.md
Upgrades): it runs only if every migration past its own newest says older code may; else it
refuses to start, with one line saying what to do and exit code 78 (a supervisor told not to
restart on it does not crash-loop it). The newer version here is the shipped migrations and
one more, written for the test."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from typer.testing import CliRunner

import pokerroom.store.db as store_db
from pokerroom.cli import app as cli
from pokerroom.server.ops.process import free_port
from pokerroom.store.compatibility import EXIT_SCHEMA_TOO_NEW, SchemaTooNewError, oldest_code
from pokerroom.store.db import MIGRATIONS, Database, alembic_config, sqlite_url

NEWER = '''"""The next version's migration, for the test."""

import sqlalchemy as sa
from alembic import op

revision = "9001_{name}"
down_revision = "{head}"
{mark}


def upgrade() -> None:
    op.create_table("{name}", sa.Column("id", sa.Integer(), primary_key=True))


def downgrade() -> None:
    op.drop_table("{name}")
'''


async def migrated_by_a_newer_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, older_code_may_run: bool
) -> str:
    """A database migrated by the shipped migrations and one more (marked or not)."""
    name = "additive_example" if older_code_may_run else "contract_example"
    newer = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, newer, ignore=shutil.ignore_patterns("__pycache__"))
    head = ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()
    mark = "older_code_may_run = True" if older_code_may_run else ""
    text = NEWER.format(name=name, head=head, mark=mark)
    (newer / "versions" / f"9001_{name}.py").write_text(text)
    url = sqlite_url(tmp_path / "room.db")
    monkeypatch.setattr(store_db, "MIGRATIONS", newer)
    db = Database(url)
    try:
        await db.migrate()
        assert (await db.revisions()).current == f"9001_{name}"
    finally:
        await db.close()
        monkeypatch.setattr(store_db, "MIGRATIONS", MIGRATIONS)  # this version again
    return url


async def current(url: str) -> str:
    """What ``pokerroom migrate current`` says of the database (in a thread: it runs a loop)."""
    done = await asyncio.to_thread(
        CliRunner().invoke, cli, ["migrate", "current", "--database", url]
    )
    assert done.exit_code == 0, done.output
    return str(done.output)


async def test_a_node_refuses_a_newer_schema_not_marked_safe_for_it_with_exit_78(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = await migrated_by_a_newer_version(tmp_path, monkeypatch, older_code_may_run=False)
    db = Database(url)
    try:
        with pytest.raises(SchemaTooNewError, match="9001_contract_example"):
            await db.migrate()  # what a node does as it starts (Room.start)
    finally:
        await db.close()
    said = await current(url)
    assert "9001_contract_example (newer than this version's newest" in said
    assert "it may not run on it" in said
    serve = [sys.executable, "-m", "pokerroom.cli", "serve", "--no-bots", "--database", url]
    serve += ["--port", str(free_port())]
    node = await asyncio.to_thread(
        subprocess.run, serve, capture_output=True, text=True, timeout=120
    )
    assert node.returncode == EXIT_SCHEMA_TOO_NEW, node.stderr
    lines = [json.loads(x) for x in node.stderr.splitlines() if x.startswith("{")]
    errors = [x for x in lines if x["level"] in ("error", "critical")]
    assert len(errors) == 1, node.stderr  # one line, saying what to do
    said = errors[0]["message"]
    assert "9001_contract_example" in said and "refuses to start" in said
    assert "pokerroom migrate downgrade" in said and "exit 78" in said
    assert not any("startup complete" in x["message"] for x in lines)  # never served


async def test_a_node_runs_on_a_newer_schema_whose_migrations_allow_older_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("INFO", logger="pokerroom.store")
    url = await migrated_by_a_newer_version(tmp_path, monkeypatch, older_code_may_run=True)
    db = Database(url)
    try:
        await db.check_schema()
        await db.migrate()  # runs on it unmigrated, saying so
        assert (await db.revisions()).current == "9001_additive_example"
    finally:
        await db.close()
    said = await current(url)
    assert "it may run on it" in said
    script = ScriptDirectory.from_config(alembic_config(url))
    mine = script.get_current_head()
    assert mine is not None
    said = [r.getMessage() for r in caplog.records if "unmigrated" in r.getMessage()]
    assert len(said) == 1 and "9001_additive_example" in said[0]
    assert f"allow code from revision {oldest_code(script, mine)} on" in said[0]


def test_each_migration_from_the_policy_on_says_whether_older_code_may_run() -> None:
    """Additive migrations (the policy's, tests/server/test_rolling_upgrade.py) say older code
    may run on them; a contract migration must not."""
    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    for path in sorted((MIGRATIONS / "versions").glob("[0-9]*.py")):
        number = int(path.name.split("_")[0])
        if number < 14:
            continue
        revision = script.get_revision(path.stem)
        assert revision is not None
        marked = getattr(revision.module, "older_code_may_run", False)
        assert marked is ("_contract_" not in path.name), path.name
