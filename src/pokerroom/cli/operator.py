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
    from sqlalchemy import select

    from pokerroom.store.accounts.accounts import canonical_username
    from pokerroom.store.db import Database
    from pokerroom.store.models import Account

    async def run() -> bool:
        db = Database(database)
        try:
            await db.migrate()
            async with db.transaction() as session:
                account = await session.scalar(
                    select(Account).where(Account.username == canonical_username(username))
                )
                if account is None:
                    return False
                account.role = "operator"
                return True
        finally:
            await db.close()

    if not asyncio.run(run()):
        typer.echo(f"no account {username!r}", err=True)
        raise typer.Exit(1)
    typer.echo(f"{username} is an operator")
