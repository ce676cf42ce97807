"""Run every benchmark and print each figure beside the peers', as ratios, from one run.
``python -m benchmarks nodes sockets`` runs only the benchmarks named (their modules)."""

from __future__ import annotations

import sys

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

BENCHMARKS = {
    module.__name__.rsplit(".", 1)[-1]: module
    for module in (
        evaluation,
        engine,
        table,
        frames,
        group_commit,
        results,
        sends,
        room,
        sockets,
        nodes,
        leases,
        soak,
    )
}


def main(names: list[str]) -> None:
    asked = "--help" in names or "-h" in names
    unknown = [name for name in names if name not in BENCHMARKS and name not in ("--help", "-h")]
    if unknown or asked:
        print(f"usage: python -m benchmarks [{' '.join(BENCHMARKS)}] (none named: all)")
        sys.exit(2 if unknown else 0)
    console = Console()
    console.print("pokerroom benchmarks: medians of repeated runs on this machine", style="bold")
    reports = [module.run() for name, module in BENCHMARKS.items() if not names or name in names]
    for report in reports:
        report.print()


if __name__ == "__main__":
    main(sys.argv[1:])
