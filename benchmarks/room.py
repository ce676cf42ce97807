"""The room under load (issue 5): bots over real WebSockets on loopback, beside the ceiling of
a bare WebSocket echo server on the same machine.

Two runs: bots that think about a second per decision (still quicker than people, who take
several), where the latency target applies; and bots that act at once, which finds the
room's capacity (there the queue for the database at the end of each hand sets the tail).
"""

from __future__ import annotations

import asyncio

from benchmarks.report import Report, Row
from pokerroom.cli.loadtest import _echo_rate, run_loadtest

TABLES, PLAYERS, SECONDS = 100, 6, 20


def run() -> Report:
    report = Report("The room under load (issue 5)")
    paced = asyncio.run(run_loadtest(TABLES, PLAYERS, SECONDS, think=1.0))
    flat_out = asyncio.run(run_loadtest(TABLES, PLAYERS, SECONDS, think=0.0))
    echo = asyncio.run(_echo_rate(5.0))
    report.add(
        Row(
            f"{TABLES} tables x {PLAYERS} bots thinking ~1 s: action -> broadcast p99",
            paced["p99_ms"] / 1000,
            "s",
            target="< 0.100 s",
        )
    )
    report.add(
        Row(
            f"{TABLES} tables x {PLAYERS} bots acting at once: actions/s (capacity)",
            flat_out["actions_per_second"],
            "/s",
            {"bare WebSocket echo, messages/s": echo},
        )
    )
    for name, result in (("thinking ~1 s", paced), ("acting at once", flat_out)):
        books = "balance" if result["books_balance"] else "DO NOT BALANCE"
        report.notes.append(
            f"{name}: hands/s {result['hands_per_second']:.1f}, actions/s "
            f"{result['actions_per_second']:.0f}; p50 {result['p50_ms']:.1f} ms, p99 "
            f"{result['p99_ms']:.1f} ms; refused actions {result['errors']}; books {books}"
        )
    return report
