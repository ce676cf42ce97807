"""Sockets per node, short: ``pokerroom loadtest`` with 300 tables x 6 bots at a person's
pace (about 3 s a decision) held by four client processes, on SQLite, beside the table
echo holding the same sockets in the same run (``server/ops/echo.py``: the WebSocket work of
an action, no poker). The room's resident memory per connection (what it grew by from the
tables open to the end of the measured time, per socket: the socket, its session, its seat
and its share of the hand) beside the echo server's per socket, its CPU per action beside
the echo's, and the action-to-broadcast p99 against the 100 ms target. The long runs (up to
thousands of tables) are in docs/deploy.md; this one keeps ``make bench`` short: the
seating takes most of it (about 0.1 s a table on a busy machine: 1,000 tables took 3.7
minutes in all, 300 about one).
"""

from __future__ import annotations

import asyncio
import os

from benchmarks.report import Report, Row
from pokerroom.cli.load_client import table_echo_ceiling
from pokerroom.cli.loadtest import run_loadtest

TABLES, PLAYERS, SECONDS, THINK, CLIENTS = 300, 6, 15.0, 3.0, 4


def run() -> Report:
    report = Report(f"Sockets per node: {TABLES:,} tables x {PLAYERS} bots at a person's pace")
    room = asyncio.run(run_loadtest(TABLES, PLAYERS, SECONDS, THINK, clients=CLIENTS))
    echo = asyncio.run(table_echo_ceiling(5.0, TABLES, PLAYERS, processes=CLIENTS))
    echo_ms = 1000 * echo["server_cpu"] / echo["actions_per_second"]
    sockets = f"{room['sockets_opened']:,} sockets"
    report.add(
        Row(
            f"{sockets}: room memory per connection, KB",
            room["memory_per_connection_kb"],
            "KB",
            {"table echo (the same sockets, no poker), KB": echo["memory_per_connection_kb"]},
            higher_is_better=False,
        )
    )
    report.add(
        Row(
            f"{sockets}: room CPU per action, ms",
            room["server_cpu_ms_per_action"],
            "ms",
            {"table echo (an action's frames, no poker), ms": echo_ms},
            higher_is_better=False,
        )
    )
    report.add(
        Row(f"{sockets}: action -> broadcast p99", room["p99_ms"] / 1000, "s", target="< 0.100 s")
    )
    books = "balance" if room["books_balance"] else "DO NOT BALANCE"
    report.notes.append(
        f"one run of {room['seconds']} s (seated in {room['seating_seconds']:.0f} s): "
        f"{room['actions_per_second']:.0f} actions/s, p50 {room['p50_ms']:.1f} ms, p99 "
        f"{room['p99_ms']:.1f} ms; the room held {room['websockets_open']:,.0f} WebSockets in "
        f"{room['rss_mb']:,.0f} MB ({room['memory_per_table_kb']:.1f} KB a table opened); CPU "
        f"in cores: room {room['server_cpu']:.2f}, load client {room['client_cpu']:.2f} in "
        f"{CLIENTS} processes; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} "
        f"cores; books {books}"
    )
    return report
