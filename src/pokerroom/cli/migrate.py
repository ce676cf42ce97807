"""``pokerroom migrate``: the database's schema, by hand (a node also migrates it to its own
newest revision when it starts): apply the pending migrations, show the current revision or
the pending ones, take the schema back to an older revision. docs/deploy.md, Upgrades."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from pokerroom.cli.audit import DEFAULT_DATABASE

if TYPE_CHECKING:
    from pokerroom.store.db import Database

T = TypeVar("T")
migrate_app = typer.Typer(
    help="The database's schema: apply, current, pending, downgrade.", no_args_is_help=True
)
Url = Annotated[
    str, typer.Option(envvar="POKERROOM_DATABASE", help="SQLAlchemy URL of the room's database.")
]


def _on(database: str, work: Callable[[Database], Awaitable[T]]) -> T:
    from pokerroom.store.db import Database

    async def run() -> T:
        db = Database(database)
        try:
            return await work(db)
        finally:
            await db.close()

    return asyncio.run(run())


def _say_migrations() -> None:
    """The migration's log lines (store/db.py) on stderr, as a node's would be."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)  # its lines repeat the room's


@migrate_app.command("apply")
def apply_command(
    database: Url = DEFAULT_DATABASE,
    to: Annotated[str, typer.Option(help="A revision (default: the newest)")] = "head",
) -> None:
    """Apply the pending migrations (with nodes running: see docs/deploy.md, Upgrades)."""
    _say_migrations()

    async def work(db: Database) -> None:
        await db.migrate(to)

    _on(database, work)
    current_command(database)


@migrate_app.command("current")
def current_command(database: Url = DEFAULT_DATABASE) -> None:
    """The schema's revision, and whether this version knows it."""
    found = _on(database, lambda db: db.revisions())
    if found.current is None:
        typer.echo(f"empty (no schema); this version's newest: {found.head}")
    elif not found.known:
        may = "may run on it" if _may_run(database) else "may not run on it (a node refuses)"
        typer.echo(f"{found.current} (newer than this version's newest, {found.head}: it {may})")
    else:
        state = "newest" if not found.pending else f"{len(found.pending)} pending"
        typer.echo(f"{found.current} ({state}; this version's newest: {found.head})")


def _may_run(database: str) -> bool:
    """Whether this version may run on the schema a newer one migrated (compatibility.py)."""
    from pokerroom.store.compatibility import SchemaTooNewError

    async def work(db: Database) -> bool:
        try:
            await db.check_schema()
        except SchemaTooNewError:
            return False
        return True

    return _on(database, work)


@migrate_app.command("pending")
def pending_command(database: Url = DEFAULT_DATABASE) -> None:
    """The migrations this version would apply, oldest first (none: nothing printed)."""
    found = _on(database, lambda db: db.revisions())
    for revision in found.pending:
        typer.echo(revision)


@migrate_app.command("downgrade")
def downgrade_command(
    revision: Annotated[str, typer.Argument(help="The revision to take the schema back to")],
    database: Url = DEFAULT_DATABASE,
) -> None:
    """Take the schema back to ``revision``, with the version that made the newer one (only
    it has the migrations' way back), once no node of that version runs."""
    _say_migrations()

    async def work(db: Database) -> None:
        await db.migrate(revision, down=True)

    _on(database, work)
    current_command(database)
