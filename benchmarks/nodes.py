"""Nodes that add up: ``pokerroom loadtest --nodes N`` for 1, 2 and 3 nodes on PostgreSQL and
Redis, bots acting at once and each playing through the node its seat is spread to (so with
more than one node most commands reach their table's owner over Redis), each run beside the
table echo measured right after it (``server/ops/echo.py``: the room's sockets and frames,
no poker).

Every node and the echo server run on the same one core, the load client on the other, so
1, 2 or 3 nodes have the same CPU as the echo: the ratio of N nodes to the echo is the cost
of the poker and of what more nodes add (the bus, the second parse of a command, each
node's lease passes and lobby), apart from the nodes sharing the machine's cores.
PostgreSQL and Redis are the machine's own servers, on whichever core is free. Each count
is run ``POKERROOM_BENCH_REPEATS`` times (3), medians reported, the load average beside.

Without PostgreSQL or Redis it says so and measures nothing, unless CI=true, where both
are required.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import statistics
from collections.abc import Iterator
from typing import Any

from benchmarks.report import Report, Row
from benchmarks.room import POSTGRES, beside_echo
from pokerroom.cli.load_client import table_echo_ceiling
from pokerroom.cli.loadtest_nodes import run_nodes_loadtest

COUNTS, TABLES, PLAYERS, SECONDS = (1, 2, 3), 60, 6, 10.0
REPEATS = int(os.environ.get("POKERROOM_BENCH_REPEATS", "3"))
# A Redis database of the benchmark's own: the run deletes the room's keys there first.
REDIS = os.environ.get("POKERROOM_BENCH_REDIS", "redis://127.0.0.1:6379/3")
SERVERS, CLIENT = {0}, {1}  # the nodes' (or the echo's) core and the load client's
FIGURES = ("actions_per_s", "ceiling", "of_ceiling", "p50_ms", "p99_ms")
FIGURES += ("nodes_cpu", "client_cpu", "load_average", "nodes_ms", "echo_ms")


def _unreachable() -> str | None:
    """Why the nodes cannot run here (None: they can)."""
    import redis

    client = redis.Redis.from_url(REDIS, socket_connect_timeout=2)
    try:
        client.ping()
    except (redis.RedisError, OSError) as error:
        return f"Redis is not reachable at {REDIS}: {error}"
    finally:
        client.close()
    return None


@contextlib.contextmanager
def _on_client_core() -> Iterator[bool]:
    """This process (the load client, and the echo's client processes it starts) on the
    client's core while inside; whether the cores could be split (two or more here)."""
    if (os.cpu_count() or 1) < 2 or not hasattr(os, "sched_setaffinity"):
        yield False
        return
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, CLIENT)
    try:
        yield True
    finally:
        os.sched_setaffinity(0, before)


def _one_run(nodes: int, servers: set[int] | None) -> dict[str, Any]:
    figures = asyncio.run(
        run_nodes_loadtest(
            nodes,
            TABLES,
            PLAYERS,
            SECONDS,
            database=POSTGRES,
            kill_owner=False,
            redis=REDIS,
            cpus=servers,
        )
    )
    figures["load_average"] = os.getloadavg()[0]
    echo = asyncio.run(table_echo_ceiling(5.0, TABLES, PLAYERS, cpus=servers))
    figures["ceiling"] = echo["actions_per_second"]
    figures["of_ceiling"] = figures["actions_per_s"] / figures["ceiling"]
    # CPU milliseconds an action, the nodes' together and the echo's: a figure that the
    # latency of a busy core (60 tables act one action at a time each) does not set.
    figures["nodes_ms"] = 1000 * figures["nodes_cpu"] / max(figures["actions_per_s"], 1e-9)
    figures["echo_ms"] = 1000 * echo["server_cpu"] / max(echo["actions_per_second"], 1e-9)
    return figures


def _measure() -> tuple[dict[int, dict[str, Any]], bool]:
    """Medians over the repeats for each count of nodes (the counts taken in turn within a
    repeat, so that a busy spell of the machine weighs on them alike)."""
    runs: dict[int, list[dict[str, Any]]] = {n: [] for n in COUNTS}
    with _on_client_core() as split:
        for _ in range(REPEATS):
            for nodes in COUNTS:
                runs[nodes].append(_one_run(nodes, SERVERS if split else None))
    medians = {}
    for nodes, done in runs.items():
        median = {f: statistics.median(float(r[f]) for r in done) for f in FIGURES}
        median["books_balance"] = all(r["books_balance"] for r in done)
        median["refused_actions"] = sum(r["refused_actions"] for r in done)
        medians[nodes] = median
    return medians, split


def run() -> Report:
    report = Report("Nodes that add up: 1, 2 and 3 nodes on one core, beside the echo on it")
    reason = _unreachable()
    medians = None
    if reason is None:
        try:
            medians, split = _measure()
        except OSError as error:  # no PostgreSQL server here
            reason = f"PostgreSQL is not reachable at {POSTGRES}: {error}"
    if medians is None:
        if os.environ.get("CI") == "true":
            raise RuntimeError(f"nodes not measured: {reason} (CI requires it)")
        report.notes.append(f"nodes not measured: {reason}")
        return report
    cores = (
        f"the nodes and the echo on core {min(SERVERS)}, the load client on core {min(CLIENT)}"
        if split
        else "one core only: nodes, echo and load client share it"
    )
    for nodes, figures in medians.items():
        name = f"{TABLES} tables x {PLAYERS} bots on {nodes} node{'s' * (nodes > 1)}, one core"
        report.add(beside_echo(name, figures["actions_per_s"], figures))
        report.add(Row(f"{name}: p99", figures["p99_ms"] / 1000, "s", target="< 0.100 s"))
    for nodes, figures in medians.items():
        books = "balance" if figures["books_balance"] else "DO NOT BALANCE"
        report.notes.append(
            f"{nodes} node{'s' * (nodes > 1)} (medians of {REPEATS} runs of {SECONDS:g} s; "
            f"{cores}): actions/s {figures['actions_per_s']:.0f}, "
            f"{figures['of_ceiling']:.2f}x the table echo ({figures['ceiling']:,.0f} "
            f"actions/s); p50 {figures['p50_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms; "
            f"CPU in cores: nodes {figures['nodes_cpu']:.2f}, load client "
            f"{figures['client_cpu']:.2f}; CPU an action: nodes {figures['nodes_ms']:.2f} ms, "
            f"the echo {figures['echo_ms']:.2f} ms; refused actions {figures['refused_actions']}; "
            f"load average {figures['load_average']:.1f} on {os.cpu_count()} cores; "
            f"books {books}"
        )
    return report
