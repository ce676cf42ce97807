"""The room under load: bots over real WebSockets on loopback, driven by
client processes of their own, beside the WebSocket ceiling for actions measured by the same
client processes in the same run: the table echo (``server/ops/echo.py``), the room's sockets and
frames with no poker in between.

Runs, each repeated and reported as the median: bots acting at once (the room's capacity:
100 tables x 6 bots) and bots that think about a second per decision (still quicker than
people, where the 20 ms target applies), on SQLite and on PostgreSQL. The targets:
flat out at least 30% of that ceiling with p99 under 100 ms, on both databases; at a
human pace p99 under 20 ms. The machine is shared: the load average is printed with them.
"""

from __future__ import annotations

import asyncio
import os
import statistics
from typing import Any

from benchmarks.report import Report, Row
from pokerroom.cli.load_client import echo_ceiling, table_echo_ceiling
from pokerroom.cli.loadtest import run_loadtest

TABLES, PLAYERS, SECONDS = 100, 6, 20
REPEATS = int(os.environ.get("POKERROOM_BENCH_REPEATS", "3"))
POSTGRES = os.environ.get("POKERROOM_BENCH_PG", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
FIGURES = ("actions_per_second", "hands_per_second", "p50_ms", "p99_ms", "client_cpu")


def _median_run(think: float, database: str | None) -> dict[str, Any]:
    """Each run flat out followed at once by the ceilings (the same client processes), so
    that a machine busy with other work weighs on them alike; medians of the runs."""
    runs = []
    for _ in range(REPEATS):
        run = asyncio.run(run_loadtest(TABLES, PLAYERS, SECONDS, think=think, database=database))
        run["echo"] = run["of_echo"] = run["ceiling"] = run["of_ceiling"] = 0.0
        if not think:
            ceiling = asyncio.run(table_echo_ceiling(5.0, TABLES, PLAYERS))
            run["ceiling"] = ceiling["actions_per_second"]
            run["of_ceiling"] = run["actions_per_second"] / run["ceiling"]
            run["echo"] = asyncio.run(echo_ceiling(5.0))["messages_per_second"]
            run["of_echo"] = run["actions_per_second"] / run["echo"]
        runs.append(run)
    median = {f: statistics.median(float(r[f] or 0.0) for r in runs) for f in FIGURES}
    median["server_cpu"] = statistics.median(float(r["server_cpu"] or 0.0) for r in runs)
    # PostgreSQL's backends for the run's database (None on SQLite): its CPU shares the cores.
    postgres = [float(r["postgres_cpu"]) for r in runs if r.get("postgres_cpu") is not None]
    median["postgres_cpu"] = statistics.median(postgres) if postgres else None
    median["mean_batch"] = statistics.median(float(r.get("mean_batch", 0.0)) for r in runs)
    median["books_balance"] = all(r["books_balance"] for r in runs)
    median["load_average"] = statistics.median(r["load_average"] for r in runs)
    for figure in ("echo", "of_echo", "ceiling", "of_ceiling"):
        median[figure] = statistics.median(r[figure] for r in runs)
    return median


def run() -> Report:
    report = Report("The room under load, one node")
    runs: dict[str, dict[str, Any]] = {
        "SQLite, acting at once": _median_run(0.0, None),
        "SQLite, thinking ~1 s": _median_run(1.0, None),
    }
    try:
        runs["PostgreSQL, acting at once"] = _median_run(0.0, POSTGRES)
        runs["PostgreSQL, thinking ~1 s"] = _median_run(1.0, POSTGRES)
    except OSError as error:  # no PostgreSQL server here: said, not hidden
        report.notes.append(f"PostgreSQL not measured: {error}")
    for name, result in runs.items():
        if "acting at once" in name:
            report.add(
                beside_echo(
                    f"{TABLES} tables x {PLAYERS} bots, {name}",
                    result["actions_per_second"],
                    result,
                )
            )
        target = "< 0.020 s" if "thinking" in name else "< 0.100 s"
        report.add(
            Row(
                f"{TABLES} tables x {PLAYERS} bots, {name}: p99",
                result["p99_ms"] / 1000,
                "s",
                target=target,
            )
        )
    for name, result in runs.items():
        books = "balance" if result["books_balance"] else "DO NOT BALANCE"
        report.notes.append(
            f"{name} (median of {REPEATS}): hands/s {result['hands_per_second']:.1f}, "
            f"actions/s {result['actions_per_second']:.0f}"
            + (
                f" ({result['of_ceiling']:.0%} of the table echo measured after each run, "
                f"median {result['ceiling']:,.0f} actions/s; the bare echo "
                f"{result['echo']:,.0f} messages/s)"
                if result["ceiling"]
                else ""
            )
            + "; p50 "
            f"{result['p50_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms; CPU in cores: room "
            f"{result['server_cpu']:.2f} ({_per_action(result, 'server_cpu')} ms an action), "
            f"load client {result['client_cpu']:.2f} "
            f"({_per_action(result, 'client_cpu')} ms an action)"
            + (
                ""
                if result["postgres_cpu"] is None
                else f", PostgreSQL's backends {result['postgres_cpu']:.2f} "
                f"({_per_action(result, 'postgres_cpu')} ms an action)"
            )
            + "; mean write "
            f"batch {result['mean_batch']:.1f}; load average {result['load_average']:.1f} on "
            f"{os.cpu_count()} cores; books {books}"
        )
    return report


def beside_echo(name: str, actions: float, result: dict[str, Any]) -> Row:
    """A run's actions/s beside the WebSocket ceiling for actions measured right after it
    (the table echo: the target is at least 30% of it)."""
    return Row(
        f"{name}: actions/s",
        actions,
        "/s",
        {"table echo (WebSocket work of an action, no poker), actions/s": result["ceiling"]},
        target=">= 0.30x the table echo",
    )


def _per_action(result: dict[str, Any], cpu: str) -> str:
    """CPU milliseconds per action: less sensitive to a busy machine than actions/s."""
    actions = result["actions_per_second"]
    return f"{1000 * result[cpu] / actions:.2f}" if actions else "?"
