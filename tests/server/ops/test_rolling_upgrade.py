"""A rolling upgrade under the schema policy (docs/deploy.md, Upgrades): migrations add first
(tables, nullable columns) and remove only in a later release, so the version before runs on
the newer schema. Here a node of the old version deals; a node of a new version (the same
migrations and one more, additive) starts beside it and migrates the shared PostgreSQL; the
old node deals on, is restarted on the newer schema (it says so and runs, rather than exit
and be restarted forever), the books balance, and the new version takes the schema back.

And the policy itself, on the shipped migrations: none after the policy's start removes or
renames anything (a removal is a migration of its own, named ``contract``)."""

from __future__ import annotations

import ast
import asyncio
import contextlib
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

import pokerroom.store.db as store_db
from pokerroom.server.app import create_app
from pokerroom.store.db import MIGRATIONS, Database
from tests.helpers.leased_nodes import TABLE, fresh_database, hands, node
from tests.helpers.room_tables import play_along
from tests.helpers.waiting import eventually
from tests.server.conftest import person, start_uvicorn

pytestmark = pytest.mark.postgres
POLICY_FROM = 14  # migrations numbered from here on follow the additive-first policy
REMOVING = {"drop_column", "drop_table", "drop_index", "drop_constraint", "rename_table"}
ADDITIVE = '''"""One more release's schema: a nullable column, which the version before ignores."""


import sqlalchemy as sa
from alembic import op

revision = "9000_rolling_upgrade_example"
down_revision = "{head}"
older_code_may_run = True  # additive (store/compatibility.py)


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("operator_note", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("operator_note")
'''


@pytest.fixture
async def url() -> AsyncIterator[str]:
    async with fresh_database() as address:
        yield address


def newer_migrations(where: Path, head: str) -> Path:
    """The shipped migrations and one more, additive: the next version's."""
    copied = where / "migrations"
    shutil.copytree(MIGRATIONS, copied, ignore=shutil.ignore_patterns("__pycache__"))
    (copied / "versions" / "9000_rolling_upgrade_example.py").write_text(ADDITIVE.format(head=head))
    return copied


@contextlib.asynccontextmanager
async def new_version(address: str) -> AsyncIterator[None]:
    """A node of the new version beside the old one: it migrates the schema as it starts
    (and runs no table here, so that the old node keeps dealing the test's table)."""
    app = create_app(address, demo=True, pause=0.05, node="new", own_tables=False)
    _, uv, task = await start_uvicorn(app)
    try:
        yield
    finally:
        uv.should_exit = True
        await asyncio.wait_for(task, timeout=30)


async def revisions(address: str) -> store_db.SchemaRevisions:
    db = Database(address)
    try:
        return await db.revisions()
    finally:
        await db.close()


async def test_an_old_node_deals_on_beside_a_new_one_that_migrated_and_restarts_on_its_schema(
    url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level("INFO", logger="pokerroom.store")
    async with node(url, "old") as old:
        await eventually(lambda: TABLE in old.room.actors, f"node old runs {TABLE}")
        ann, bob = await person(old.base, "ann"), await person(old.base, "bob")
        for seat, someone in enumerate((ann, bob), start=1):
            await someone.send(type="watch", table=TABLE)
            await someone.send(type="join", table=TABLE, seat=seat, buy_in=10_000, request="j")
        await asyncio.gather(play_along(ann, TABLE, 2), play_along(bob, TABLE, 2))
        head = (await revisions(url)).head
        newer = newer_migrations(tmp_path, head)
        monkeypatch.setattr(store_db, "MIGRATIONS", newer)  # what the new version ships
        async with new_version(url):
            assert (await revisions(url)).current == "9000_rolling_upgrade_example"
            migrated = [r.getMessage() for r in caplog.records if "migrat" in r.getMessage()]
            assert any("to 9000_rolling_upgrade_example" in line for line in migrated), migrated
            # The old node, on the schema it does not know, deals two more hands whole.
            await asyncio.gather(play_along(ann, TABLE, 3), play_along(bob, TABLE, 3))
            await ann.ws.close()
            await bob.ws.close()
    monkeypatch.setattr(store_db, "MIGRATIONS", MIGRATIONS)  # the old version again
    caplog.clear()
    async with node(url, "old") as again, httpx.AsyncClient(base_url=again.base) as http:
        assert (await http.get("/ready")).status_code == 200
    said = [r.getMessage() for r in caplog.records if r.name == "pokerroom.store"]
    assert any(
        "at revision 9000_rolling_upgrade_example, newer than this version's newest" in line
        for line in said
    ), said
    played = await hands(url)  # (and the books balance)
    assert sum(1 for _, status in played.values() if status == "complete") >= 3
    monkeypatch.setattr(store_db, "MIGRATIONS", newer)  # rollback: the new version's way back
    db = Database(url)
    try:
        await db.migrate(head, down=True)
    finally:
        await db.close()
    monkeypatch.setattr(store_db, "MIGRATIONS", MIGRATIONS)
    back = await revisions(url)
    assert (back.current, back.pending, back.known) == (head, (), True)


def test_migrations_from_the_policy_on_add_first_and_remove_only_in_a_contract_migration() -> None:
    """Each migration numbered ``POLICY_FROM`` or later: its ``upgrade`` calls no ``op``
    (or batch) operation that removes or renames, unless the file is named ``*_contract_*``
    (shipped a release after the code stopped using what it removes)."""
    offending = []
    for path in sorted((MIGRATIONS / "versions").glob("[0-9]*.py")):
        number = int(path.name.split("_")[0])
        if number < POLICY_FROM or "_contract_" in path.name:
            continue
        tree = ast.parse(path.read_text())
        upgrade = next(
            f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == "upgrade"
        )
        for call in ast.walk(upgrade):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute):
                renames = call.func.attr == "alter_column" and any(
                    k.arg == "new_column_name" for k in call.keywords
                )
                if call.func.attr in REMOVING or renames:
                    offending.append(f"{path.name}: {call.func.attr}")
    assert offending == [], "removals belong in a *_contract_* migration (docs/deploy.md)"
