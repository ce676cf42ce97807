"""Timing helpers and the report table: medians of repeated runs, ratios to peers."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rich.console import Console
from rich.table import Table


def median_seconds(run: Callable[[], object], repeats: int = 5) -> float:
    """Median wall time of ``run`` over ``repeats`` calls (after one warm-up call)."""
    run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


@dataclass
class Row:
    figure: str
    ours: float
    unit: str
    peers: dict[str, float] = field(default_factory=dict)
    higher_is_better: bool = True
    target: str = ""


def _fmt(value: float, unit: str) -> str:
    if unit == "s":
        return f"{value:.3f} s"
    if unit == "/s":
        if value >= 1e6:
            return f"{value / 1e6:.2f}M/s"
        if value >= 1e3:
            return f"{value / 1e3:.1f}k/s"
        return f"{value:.0f}/s"
    return f"{value:,.2f} {unit}"


class Report:
    def __init__(self, title: str) -> None:
        self.title = title
        self.rows: list[Row] = []
        self.notes: list[str] = []

    def add(self, row: Row) -> None:
        self.rows.append(row)
        Console().print(f"  measured: {row.figure}", style="dim")

    def print(self) -> None:
        table = Table(title=self.title, show_lines=False)
        for column in ("figure", "ours", "peer", "peer's", "ours vs peer", "target"):
            table.add_column(column, justify="left" if column in ("figure", "peer") else "right")
        for row in self.rows:
            peers = list(row.peers.items()) or [("", 0.0)]
            for i, (name, value) in enumerate(peers):
                if name:
                    ratio = row.ours / value if row.higher_is_better else value / row.ours
                    ratio_text = f"{ratio:,.2f}x"
                else:
                    ratio_text = ""
                table.add_row(
                    row.figure if i == 0 else "",
                    _fmt(row.ours, row.unit) if i == 0 else "",
                    name,
                    _fmt(value, row.unit) if name else "",
                    ratio_text,
                    row.target if i == 0 else "",
                )
        console = Console(width=150)
        console.print(table)
        console.print("  ours vs peer: how many times faster ours is (above 1: ours is faster)")
        for note in self.notes:
            console.print(f"  {note}")
