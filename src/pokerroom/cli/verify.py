"""``pokerroom verify``: check a hand's shuffle offline, from its verification file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer


def verify_command(
    path: Annotated[Path, typer.Argument(help="A hand's verification file (shuffle.json).")],
    seed: Annotated[
        str | None, typer.Option("--seed", help="Your own client seed: check it was mixed in.")
    ] = None,
) -> None:
    """Recompute a hand's shuffle: the seed commitment, the deck the seeds make, the deck
    commitment, and your cards and the board in that deck. Exit 1 if anything differs."""
    from pokerroom.fairness import ShuffleError, verify

    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(document, dict):
            raise ShuffleError("the file is not a JSON object")
        verified = verify(document, my_seed=seed)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, ShuffleError) as error:
        typer.echo(f"NOT VERIFIED: {path}: {error}", err=True)
        raise typer.Exit(1) from None
    where = f"table {document.get('table')} hand {document.get('hand')}"
    typer.echo(f"VERIFIED: {where}")
    for line in verified.checks:
        typer.echo(f"  ok  {line}")
    typer.echo("deck, in the order dealt:")
    cards = [str(c) for c in verified.deck]
    for start in range(0, len(cards), 13):
        typer.echo(f"  {start + 1:2d}-{start + 13:2d}  " + " ".join(cards[start : start + 13]))
