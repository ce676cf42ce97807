"""The room under load (issue 5): bots over real WebSockets on loopback, beside the ceiling of
a bare WebSocket echo server on the same machine."""

from __future__ import annotations

import asyncio

from benchmarks.report import Report, Row
from pokerroom.cli.loadtest import _echo_rate, run_loadtest

TABLES, PLAYERS, SECONDS = 100, 6, 15


def run() -> Report:
    report = Report("The room under load (issue 5)")
    result = asyncio.run(run_loadtest(TABLES, PLAYERS, SECONDS))
    echo = asyncio.run(_echo_rate(5.0))
    report.add(
        Row(
            f"{TABLES} tables x {PLAYERS} bots: actions/s (messages in)",
            result["actions_per_second"],
            "/s",
            {"bare WebSocket echo, messages/s": echo},
        )
    )
    report.add(
        Row(
            "action sent -> broadcast received, p99",
            result["p99_ms"] / 1000,
            "s",
            target="< 0.100 s",
        )
    )
    books = "balance" if result["books_balance"] else "DO NOT BALANCE"
    report.notes.append(
        f"hands/s {result['hands_per_second']:.1f}; p50 {result['p50_ms']:.1f} ms,"
        f" p99 {result['p99_ms']:.1f} ms; refused actions {result['errors']}; books {books}"
    )
    return report
