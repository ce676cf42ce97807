"""Run every benchmark and print each figure beside the peers', as ratios, from one run."""

from __future__ import annotations

from rich.console import Console

from benchmarks import (
    engine,
    evaluation,
    frames,
    group_commit,
    leases,
    nodes,
    results,
    room,
    sends,
    soak,
    sockets,
    table,
)


def main() -> None:
    console = Console()
    console.print("pokerroom benchmarks: medians of repeated runs on this machine", style="bold")
    reports = [
        evaluation.run(),
        engine.run(),
        table.run(),
        frames.run(),
        group_commit.run(),
        results.run(),
        sends.run(),
        room.run(),
        sockets.run(),
        nodes.run(),
        leases.run(),
        soak.run(),
    ]
    for report in reports:
        report.print()


if __name__ == "__main__":
    main()
