"""``pokerroom equity``: all-in equity of 2 to 10 hands or hold'em ranges."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import Progress, TaskID
from rich.table import Table

from pokerroom.cards import CardError, format_cards, parse_cards

if TYPE_CHECKING:
    import numpy as np

SHOW_PROGRESS_AFTER = 1.0  # seconds
# The command's names for the games (``--game``): Omaha Hi-Lo is "omaha8" here.
GAMES = {"holdem": "holdem", "omaha": "omaha", "omaha8": "omaha_hilo"}


class _LazyProgress:
    """A progress bar that appears only once the work has run for a second."""

    def __init__(self, console: Console) -> None:
        self._console = console
        self._started = time.monotonic()
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            if time.monotonic() - self._started < SHOW_PROGRESS_AFTER or done >= total:
                return
            self._bar = Progress(console=self._console, transient=True)
            self._bar.start()
            self._task = self._bar.add_task("boards", total=total)
        assert self._task is not None
        self._bar.update(self._task, completed=done)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()


def _is_hand(text: str, cards: int) -> bool:
    try:
        return len(parse_cards(text)) == cards
    except CardError:
        return False


def equity_command(
    hands: Annotated[
        list[str],
        typer.Argument(help="Hands (AhKh QsQd) or, in hold'em, ranges ('QQ+,AKs' random T9s+)."),
    ],
    board: Annotated[str, typer.Option(help="Board cards so far, e.g. Ks7d2c.")] = "",
    dead: Annotated[str, typer.Option(help="Dead cards, out of the deck.")] = "",
    game: Annotated[str, typer.Option(help="holdem, omaha or omaha8.")] = "holdem",
    samples: Annotated[
        int | None, typer.Option(help="Monte Carlo boards (default: exhaustive when small).")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the Monte Carlo draws (default: a fresh one).")
    ] = None,
) -> None:
    """Print each hand's (or range's) win, tie and equity."""
    import numpy as np

    from pokerroom.evaluation.equity import EquityError, equity
    from pokerroom.evaluation.variant import Variant

    console = Console()
    if game not in GAMES:
        raise typer.BadParameter(f"{game!r} is not a game: {', '.join(GAMES)}")
    chosen = Variant(GAMES[game])
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % 2**63)  # type: ignore[operator]
    rng = np.random.default_rng(seed)
    if not all(_is_hand(h, chosen.hole_cards) for h in hands):
        if chosen is not Variant.HOLDEM:
            raise typer.BadParameter(f"ranges are hold'em only; {game} takes exact hands")
        _ranges(console, hands, board, dead, samples, rng, seed)
        return
    try:
        parsed = [parse_cards(h) for h in hands]
    except CardError as error:
        raise typer.BadParameter(str(error)) from error
    progress = _LazyProgress(console)
    try:
        result = equity(
            parsed,
            board=parse_cards(board),
            dead=parse_cards(dead),
            game=chosen,
            samples=samples,
            rng=rng,
            progress=progress,
        )
    except (CardError, EquityError) as error:
        raise typer.BadParameter(str(error)) from error
    finally:
        progress.close()
    how = "exhaustive" if result.exhaustive else "Monte Carlo"
    table = Table(title=f"{game} equity: {result.boards:,} boards ({how})")
    for column in ("hand", "win", "tie", "equity"):
        table.add_column(column, justify="left" if column == "hand" else "right")
    for h in result.hands:
        table.add_row(
            format_cards(h.hand),
            f"{h.wins / h.boards:.2%} ({h.wins:,})",
            f"{h.ties / h.boards:.2%} ({h.ties:,})",
            f"{h.equity:.2%}" + ("" if result.exhaustive else f" ± {h.stderr:.2%}"),
        )
    console.print(table)
    if not result.exhaustive:
        console.print(f"± one standard error; seed {seed}")


def _ranges(
    console: Console,
    ranges: list[str],
    board: str,
    dead: str,
    samples: int | None,
    rng: np.random.Generator,
    seed: int,
) -> None:
    from pokerroom.evaluation.equity import EquityError
    from pokerroom.evaluation.range_equity import range_equity
    from pokerroom.evaluation.ranges import RangeError, parse_range

    for text in ranges:
        try:
            parse_range(text)
        except RangeError as error:
            try:
                parse_cards(text)
            except CardError as not_cards:
                raise typer.BadParameter(f"{not_cards}, nor a range: {error}") from error
            raise typer.BadParameter(str(error)) from error
    try:
        result = range_equity(
            ranges, board=parse_cards(board), dead=parse_cards(dead), samples=samples, rng=rng
        )
    except (CardError, EquityError, RangeError) as error:
        raise typer.BadParameter(str(error)) from error
    how = "exact" if result.exact else "Monte Carlo"
    table = Table(title=f"hold'em range equity ({how})")
    for column in ("range", "hands", "win", "tie", "equity"):
        table.add_column(column, justify="left" if column == "range" else "right")
    for p in result.players:
        spread = "" if result.exact else f" ± {p.stderr:.2%}"
        table.add_row(
            p.range.text,
            str(len(p.range)),
            f"{p.win:.2%}",
            f"{p.tie:.2%}",
            f"{p.equity:.2%}{spread}",
        )
    console.print(table)
    if result.exact:
        console.print(f"{result.deals:,} distinct deals of hands (up to suits), every board")
    else:
        console.print(f"{result.deals:,} deals sampled; ± one standard error; seed {seed}")
