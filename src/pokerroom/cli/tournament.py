"""``pokerroom tournament simulate``: a whole tournament in process with random-policy bots.
With ``--json`` one line: entrants, hands, tables_max, levels, places, prize_pool,
paid, chips_start, chips_end, max_table_gap, moves (and ties, rebuys, add-ons).

``--export DIR`` writes the event's histories into a new directory: for each player (or each
``--player``) ``NAME/hands.txt`` (PokerStars-style text), ``NAME/hands.phhs`` (PHH) and
``NAME/summary.txt`` (the tournament summary), each with only that player's hole cards and
the cards shown (S-EXPORT-1)."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Annotated, Any, Literal

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from pokerroom.history.tournament import EventExport
from pokerroom.rules import RulesError, load_preset
from pokerroom.rules.house import STANDARD
from pokerroom.rules.tournament import load_tournament_structure
from pokerroom.tournament import Tournament, TournamentError
from pokerroom.tournament.simulate import Options, Simulation, result

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
    export: Annotated[
        Path | None, typer.Option(help="Write the histories into this new directory.")
    ] = None,
    export_format: Annotated[
        Literal["both", "phh", "pokerstars"], typer.Option(help="The hands' format(s).")
    ] = "both",
    player: Annotated[
        list[str] | None, typer.Option(help="Export only this player's histories (repeat).")
    ] = None,
    tournament_id: Annotated[int, typer.Option(help="The tournament's number.")] = 1,
    start: Annotated[
        str, typer.Option(help="When it starts (ISO 8601 with a zone).")
    ] = "2026-12-01T17:00:00+00:00",
) -> None:
    """Play a whole tournament with random-policy bots and report how it went."""
    err = Console(stderr=True)
    files: _Files | None = None
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
        run = Simulation(shape, entrants + late, seed, options=options)
        recorder: EventExport | None = None
        names = {e.player for e in run.t.entries.values()} | set(run.late)
        unknown = sorted(set(player or ()) - names)
        if unknown:
            raise ValueError(
                f"--player {', '.join(unknown)}: not in this event (p1 to p{len(names)})"
            )
        if export is not None:
            files = _Files(export)
            recorder = EventExport(
                tournament=tournament_id,
                started=_start_time(start),
                write=files,
                players=player or None,
                phh=export_format != "pokerstars",
                pokerstars=export_format != "phh",
            )
            run.on_hand = recorder
        if json_line and recorder is None:
            run.play()
        else:
            _with_progress(run, recorder)
        if recorder is not None and files is not None:
            recorder.finish(run.t, run.now)
            files.flush()
        outcome = result(run.t)
    except (RulesError, TournamentError, ValueError) as error:
        err.print(f"[red]error:[/red] {error}")
        raise typer.Exit(1) from None
    if json_line:
        sys.stdout.write(json.dumps(outcome, separators=(", ", ": ")) + "\n")
        return
    _summary(outcome)
    if export is not None and recorder is not None:
        Console().print(f"{recorder.hands} hands written to {export}")


def _start_time(text: str) -> datetime:
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"--start {text!r} is not an ISO 8601 time") from None
    if when.tzinfo is None:
        raise ValueError(f"--start {text!r} needs a time zone (e.g. +00:00)")
    return when


class _Files:
    """The export's files, appended to a few megabytes at a time (an event of thousands of
    players has thousands of files: never all open at once)."""

    LIMIT = 4_000_000  # characters held before they are written

    def __init__(self, root: Path) -> None:
        if root.exists() and (not root.is_dir() or any(root.iterdir())):
            raise ValueError(f"--export {root}: not a new or empty directory")
        self.root = root
        self.held: dict[str, list[str]] = {}
        self.size = 0

    def __call__(self, path: str, text: str) -> None:
        parts = PurePosixPath(path).parts
        if not parts or path.startswith("/") or any(p in ("", ".", "..") for p in parts):
            raise ValueError(f"{path!r} is not a file inside the export")
        self.held.setdefault(path, []).append(text)
        self.size += len(text)
        if self.size > self.LIMIT:
            self.flush()

    def flush(self) -> None:
        for path, texts in self.held.items():
            target = self.root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("a", encoding="utf-8") as out:
                out.write("".join(texts))
        self.held.clear()
        self.size = 0


def _with_progress(run: Simulation, recorder: EventExport | None) -> None:
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("eliminated"),
        TextColumn("{task.fields[hands]}"),
        TimeElapsedColumn(),
    )
    t = run.t
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(t.name, total=len(t.entries) - 1, hands="")

        def progress(t: Tournament) -> None:
            out = len(t.entries) - len(t.remaining())
            written = f", {recorder.hands} hands written" if recorder is not None else ""
            hands = f"{t.hands} hands{written}"
            bar.update(task, completed=out, total=len(t.entries) - 1, hands=hands)

        run.progress = progress
        run.play()


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
