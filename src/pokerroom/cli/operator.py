"""``pokerroom operator``: make an existing account an operator of the floor (R-FLOOR-1)."""

from __future__ import annotations

import asyncio
from typing import Annotated

import typer

from pokerroom.cli.audit import DEFAULT_DATABASE


def operator_command(
    username: Annotated[str, typer.Argument(help="The account to make an operator.")],
    database: Annotated[str, typer.Option(envvar="POKERROOM_DATABASE")] = DEFAULT_DATABASE,
) -> None:
    """Give an account the operator role (it can then use /api/floor)."""
    from sqlalchemy import update

    from pokerroom.store.accounts.accounts import canonical_username
    from pokerroom.store.db import Database
    from pokerroom.store.models import Account

    async def run() -> bool:
        db = Database(database, immediate=True)
        try:
            await db.migrate()
            # One statement that writes: on SQLite beside a running room, a transaction that
            # read first and then wrote would fail at once if the room committed in between
            # ("database is locked"); a first write waits its turn for the lock.
            async with db.transaction() as session:
                named = Account.username == canonical_username(username)
                made = await session.execute(update(Account).where(named).values(role="operator"))
                return bool(made.rowcount)  # type: ignore[attr-defined]
        finally:
            await db.close()

    if not asyncio.run(run()):
        typer.echo(f"no account {username!r}", err=True)
        raise typer.Exit(1)
    typer.echo(f"{username} is an operator")
