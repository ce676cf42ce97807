"""The Typer application: one sub-command per module in this package."""

from __future__ import annotations

import typer

from pokerroom.cli.audit import audit_command
from pokerroom.cli.equity import equity_command
from pokerroom.cli.loadtest import loadtest_command
from pokerroom.cli.migrate import migrate_app
from pokerroom.cli.operator import operator_command
from pokerroom.cli.protocol_types import protocol_types_command
from pokerroom.cli.replay import replay_command
from pokerroom.cli.serve import bots_command, serve_command
from pokerroom.cli.tournament import tournament_app
from pokerroom.cli.verify import verify_command

app = typer.Typer(
    name="pokerroom",
    help="pokerroom: an open-source online poker room.",
    no_args_is_help=True,
    add_completion=False,
)
app.command("equity")(equity_command)
app.command("replay")(replay_command)
app.command("audit")(audit_command)
app.command("serve")(serve_command)
app.command("bots")(bots_command)
app.command("operator")(operator_command)
app.command("loadtest")(loadtest_command)
app.add_typer(tournament_app, name="tournament")
app.add_typer(migrate_app, name="migrate")
app.command("verify")(verify_command)
app.command("protocol-types")(protocol_types_command)


@app.callback()
def _root() -> None:
    """pokerroom: an open-source online poker room."""


def main() -> None:
    app()
