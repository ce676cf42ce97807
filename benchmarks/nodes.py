"""Three nodes: ``pokerroom loadtest --nodes 3`` on PostgreSQL and Redis, bots
acting at once and each playing through the node its seat is spread to (so most commands
reach their table's owner over Redis), beside the ceiling of a bare WebSocket echo server
measured right after it in the same run. One short run (the nodes' start and the seating
take longer than the measured time); its load client is this process.

Without PostgreSQL or Redis it says so and measures nothing, unless CI=true, where both
are required.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from benchmarks.report import Report, Row
from benchmarks.room import POSTGRES, beside_echo
from pokerroom.cli.load_client import echo_ceiling, table_echo_ceiling
from pokerroom.cli.loadtest_nodes import run_nodes_loadtest

NODES, TABLES, PLAYERS, SECONDS = 3, 60, 6, 15.0
# A Redis database of the benchmark's own: the run deletes the room's keys there first.
REDIS = os.environ.get("POKERROOM_BENCH_REDIS", "redis://127.0.0.1:6379/3")


def _unreachable() -> str | None:
    """Why the three nodes cannot run here (None: they can)."""
    import redis

    client = redis.Redis.from_url(REDIS, socket_connect_timeout=2)
    try:
        client.ping()
    except (redis.RedisError, OSError) as error:
        return f"Redis is not reachable at {REDIS}: {error}"
    finally:
        client.close()
    return None


def _measure() -> dict[str, Any]:
    figures = asyncio.run(
        run_nodes_loadtest(
            NODES, TABLES, PLAYERS, SECONDS, database=POSTGRES, kill_owner=False, redis=REDIS
        )
    )
    ceiling = asyncio.run(table_echo_ceiling(5.0, TABLES, PLAYERS))
    figures["ceiling"] = ceiling["actions_per_second"]
    figures["echo"] = asyncio.run(echo_ceiling(5.0))["messages_per_second"]
    return figures


def run() -> Report:
    report = Report(f"The room under load, {NODES} nodes on PostgreSQL and Redis")
    reason = _unreachable()
    figures = None
    if reason is None:
        try:
            figures = _measure()
        except OSError as error:  # no PostgreSQL server here
            reason = f"PostgreSQL is not reachable at {POSTGRES}: {error}"
    if figures is None:
        if os.environ.get("CI") == "true":
            raise RuntimeError(f"{NODES} nodes not measured: {reason} (CI requires it)")
        report.notes.append(f"{NODES} nodes not measured: {reason}")
        return report
    name = f"{TABLES} tables x {PLAYERS} bots on {NODES} nodes, acting at once"
    report.add(beside_echo(name, figures["actions_per_s"], figures))
    report.add(Row(f"{name}: p99", figures["p99_ms"] / 1000, "s", target="< 0.100 s"))
    books = "balance" if figures["books_balance"] else "DO NOT BALANCE"
    report.notes.append(
        f"{name} (one run of {SECONDS:g} s): {figures['hands']} hands, actions/s "
        f"{figures['actions_per_s']:.0f} ({figures['actions_per_s'] / figures['ceiling']:.0%} "
        f"of the table echo measured right after, {figures['ceiling']:,.0f} actions/s; the "
        f"bare echo {figures['echo']:,.0f} messages/s); p50 "
        f"{figures['p50_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms; CPU in cores: nodes "
        f"{figures['nodes_cpu']:.2f}, load client {figures['client_cpu']:.2f}; refused "
        f"actions {figures['refused_actions']}; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; books {books}"
    )
    return report
