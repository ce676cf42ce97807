"""``pokerroom audit``: check chip conservation on a live database (S-MONEY-2) and reconcile
the ledger with the tables, the balances and the hands' rake (S-AUDIT-2)."""

from __future__ import annotations

import asyncio
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

DEFAULT_DATABASE = "sqlite+aiosqlite:///pokerroom.db"


def audit_command(
    database: Annotated[
        str,
        typer.Option(envvar="POKERROOM_DATABASE", help="SQLAlchemy URL of the room's database."),
    ] = DEFAULT_DATABASE,
) -> None:
    """Print the chip totals and every difference, named with its table, hand or account;
    exit 1 if the books do not balance or do not match the tables and hands."""
    from pokerroom.store.audit import AuditReport, audit_database
    from pokerroom.store.db import Database

    async def run() -> AuditReport:
        db = Database(database)
        try:
            await db.migrate()
            return await audit_database(db)
        finally:
            await db.close()

    report = asyncio.run(run())
    console = Console()
    table = Table(title="chips by ledger account kind (cents)")
    table.add_column("where")
    table.add_column("chips", justify="right")
    # Every kind, prize pools ("tournament") included, so that the rows add up to zero.
    for kind in ("player", "table", "tournament", "house", "bank"):
        table.add_row(kind, f"{report.totals.get(kind, 0):,}")
    console.print(table)
    console.print(
        f"in circulation: {report.in_circulation:,}; transfers: {report.transfers:,};"
        f" floor acts: {report.floor_acts:,}"
    )
    console.print(
        f"tables reconciled: {report.tables:,} ({report.seated:,} chips seated);"
        f" rake of the stored hands: {report.hands_rake:,};"
        f" tournaments reconciled: {report.tournaments:,}"
    )
    if report.ok:
        console.print(
            "the books balance: every chip is accounted for, and every table, balance,"
            " prize pool and the house's rake and fees match the ledger"
        )
        return
    for problem in report.problems:
        console.print(f"[red]{problem}[/red]")
    raise typer.Exit(1)
