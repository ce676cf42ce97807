"""``pokerroom replay``: replay PHH hand histories through the engine."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table


def replay_command(
    paths: Annotated[list[str], typer.Argument(help="PHH files (.phh, .phhs) or folders.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON line per hand (path, index, stacks).")
    ] = False,
    scale: Annotated[
        int, typer.Option(help="Multiply every amount by this to make whole chips.")
    ] = 1,
) -> None:
    """Replay hands and print each one's finishing stacks; exit 1 if any hand failed."""
    from pokerroom.history.phh import PHHError, iter_paths, load_file, replay

    if scale < 1:
        raise typer.BadParameter("scale must be a positive whole number")
    console = Console()
    table = Table(title="replayed hands") if not as_json else None
    if table is not None:
        for column in ("file", "#", "finishing stacks", "recorded", "result"):
            table.add_column(column)
    failed = 0
    out = sys.stdout
    for path in iter_paths(paths):
        try:
            hands = load_file(path)
        except PHHError as error:
            failed += 1
            _report(out, table, str(path), 0, None, None, str(error), as_json)
            continue
        for phh in hands:
            try:
                result = replay(phh, scale=scale)
            except PHHError as error:
                failed += 1
                _report(out, table, str(path), phh.index, None, None, str(error), as_json)
                continue
            _report(
                out,
                table,
                str(path),
                phh.index,
                result.finishing_stacks,
                result.expected,
                "",
                as_json,
            )
    if table is not None:
        console.print(table)
        console.print(f"{failed} hand(s) failed" if failed else "every hand replayed")
    if failed:
        raise typer.Exit(1)


def _report(
    out: object,
    table: Table | None,
    path: str,
    index: int,
    stacks: list[int] | None,
    expected: list[int] | list[float] | None,
    error: str,
    as_json: bool,
) -> None:
    if as_json:
        record: dict[str, object] = {"path": path, "index": index}
        if error:
            record["error"] = error
        else:
            record["finishing_stacks"] = stacks
        print(json.dumps(record), file=out)  # type: ignore[call-overload]
        return
    assert table is not None
    if error:
        table.add_row(path, str(index), "", "", f"[red]error: {error}[/red]")
        return
    verdict = "" if expected is None else ("match" if expected == stacks else "differs")
    table.add_row(path, str(index), str(stacks), "" if expected is None else str(expected), verdict)
