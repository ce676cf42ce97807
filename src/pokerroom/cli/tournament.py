"""``pokerroom tournament simulate``: a whole tournament in process with random-policy bots
(issue 14). With ``--json`` one line: entrants, hands, tables_max, levels, places, prize_pool,
paid, chips_start, chips_end, max_table_gap, moves (and ties, rebuys, add-ons)."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from pokerroom.rules import RulesError, load_preset
from pokerroom.rules.house import STANDARD
from pokerroom.rules.tournament import load_tournament_structure
from pokerroom.tournament import Tournament, TournamentError
from pokerroom.tournament.simulate import Options, simulate

tournament_app = typer.Typer(help="Tournaments: simulate a whole event in process.")


@tournament_app.command("simulate")
def simulate_command(
    entrants: Annotated[int, typer.Option(help="Entries at the start (plus --late).")],
    structure: Annotated[str, typer.Option(help="A structure: sng9, mtt_freezeout, ...")],
    seed: Annotated[str, typer.Option(help="The seed: the same seed plays the same event.")] = "1",
    json_line: Annotated[bool, typer.Option("--json", help="Print one JSON line.")] = False,
    house: Annotated[str, typer.Option(help="A house preset (default: standard rules).")] = "",
    late: Annotated[int, typer.Option(help="Entries arriving in late registration.")] = 0,
    rebuy_percent: Annotated[int, typer.Option(help="Entrants with auto-rebuy on.")] = 0,
    addon_percent: Annotated[int, typer.Option(help="Entries taking the add-on.")] = 0,
    reentry_percent: Annotated[int, typer.Option(help="Busted players who re-enter.")] = 0,
    absent_percent: Annotated[int, typer.Option(help="Entrants who never act.")] = 0,
) -> None:
    """Play a whole tournament with random-policy bots and report how it went."""
    err = Console(stderr=True)
    try:
        shape = load_tournament_structure(structure)
        options = Options(
            late_entries=late,
            rebuy_percent=rebuy_percent,
            addon_percent=addon_percent,
            reentry_percent=reentry_percent,
            absent_percent=absent_percent,
            house=load_preset(house) if house else STANDARD,
        )
        if not shape.min_entrants <= entrants + late <= shape.max_entrants:
            raise TournamentError(
                f"{structure} takes {shape.min_entrants} to {shape.max_entrants} entries,"
                f" not {entrants + late}"
            )
        if json_line:
            result = simulate(shape, entrants + late, seed, options=options)
        else:
            result = _with_progress(
                shape.name,
                entrants + late,
                lambda p: simulate(shape, entrants + late, seed, options=options, progress=p),
            )
    except (RulesError, TournamentError) as error:
        err.print(f"[red]error:[/red] {error}")
        raise typer.Exit(1) from None
    if json_line:
        sys.stdout.write(json.dumps(result, separators=(", ", ": ")) + "\n")
        return
    _summary(result)


def _with_progress(name: str, total: int, run: Any) -> dict[str, Any]:
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("eliminated"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(name, total=total - 1)

        def progress(t: Tournament) -> None:
            out = len(t.entries) - len(t.remaining())
            bar.update(task, completed=out, total=len(t.entries) - 1)

        result: dict[str, Any] = run(progress)
    return result


def _summary(result: dict[str, Any]) -> None:
    console = Console()
    facts = Table(title="tournament", show_header=False)
    for key in ("entrants", "hands", "tables_max", "levels", "moves", "max_table_gap"):
        facts.add_row(key, str(result[key]))
    facts.add_row("prize pool / paid", f"{result['prize_pool']} / {result['paid']}")
    facts.add_row("chips start / end", f"{result['chips_start']} / {result['chips_end']}")
    console.print(facts)
    money = Table(title="in the money")
    for column in ("place", "entry", "prize"):
        money.add_column(column)
    for place, entry, prize in result["places"]:
        if prize:
            money.add_row(str(place), entry, str(prize))
    console.print(money)
