"""``pokerroom loadtest``: many tables of bots over real WebSockets on loopback.

The room runs in its own process (``pokerroom serve``) on a fresh SQLite file, or on a
fresh database of a PostgreSQL server (``--database``); this process opens the tables
through the floor API and the bots are driven by ``--clients`` processes of their own
(light bots: check, call, sometimes a raise or a fold: the room's work is measured, not
the bots' thinking). It prints hands/s, actions/s and the time from an action sent to
its broadcast received (p50, p99), the CPU the room and the load client used (a fair
client is not the bottleneck), beside the table echo's actions/s (the same sockets and
frames with no poker: the ceiling) and a bare WebSocket echo's messages/s, driven
by the same client processes in the same run, then checks the books. Loops are bounded
in time and stop by themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from pokerroom.cli.database_cpu import database_cpu
from pokerroom.cli.load_client import (
    CLIENTS,
    Stats,
    close_all_at_stop,
    cpu_seconds,
    in_processes,
    play_seat,
    process_cpu_seconds,
    process_memory,
    process_sockets,
    raise_file_limit,
    run_client,
)
from pokerroom.cli.load_room import (
    TABLES_PER_ACCOUNT,
    fresh_database,
    prepare_room,
    start_room,
    stop_room,
)
from pokerroom.cli.loadtest_words import beside_ceilings, one_node_in_words

CONNECTING = 32  # a client process's WebSocket handshakes in flight at once
FILES_SPARE = 1024  # open files beyond the sockets: the database, logs, the listener


async def run_loadtest(
    tables: int,
    players: int,
    seconds: float,
    think: float = 0.0,
    *,
    database: str | None = None,
    clients: int = CLIENTS,
    profile: Path | None = None,
) -> dict[str, Any]:
    """The load test: a fresh room (SQLite, or a fresh database on the PostgreSQL server of
    ``database``), its tables and bots, the figures and whether the books balance. With
    ``profile``, py-spy samples the room while it is measured (raw stacks to that file)."""
    from pokerroom.store.audit import audit
    from pokerroom.store.db import Database

    # The room holds a socket a bot and the client processes theirs (they inherit it).
    raise_file_limit(tables * players + FILES_SPARE)
    async with fresh_database("load", database) as url_of_db:
        database_url, url, server = await start_room("load", url_of_db)
        try:
            empty = process_memory(server.pid).get("rss", 0)
            began = time.monotonic()
            tokens = await prepare_room(url, database_url, tables, players)
            setup = time.monotonic() - began
            result = await play_tables(
                url,
                tokens,
                tables,
                players,
                seconds,
                think,
                processes=clients,
                server=server.pid,
                profile=profile,
                postgres=database_url if database_url.startswith("postgresql") else None,
                empty_room_rss=empty,
            )
        finally:
            stop_room(server)
        db = Database(database_url)
        try:
            async with db.transaction() as session:
                report = await audit(session)
        finally:
            await db.close()
    engine = "postgresql" if database_url.startswith("postgresql") else "sqlite"
    return {**result, "setup_seconds": setup, "database": engine, "books_balance": report.ok}


async def _play_share(
    url: str,
    tokens: list[str],
    share: range,
    players: int,
    stats: Stats,
    think: float,
) -> dict[str, Any]:
    """The bots of the tables in ``share``; what they measured."""
    cpu = cpu_seconds()
    stats.open, stats.connecting = set(), asyncio.Semaphore(CONNECTING)
    closer = asyncio.create_task(close_all_at_stop(stats))
    failed: list[str] = []

    async def seat(t: int, p: int) -> None:
        try:
            await play_seat(
                url,
                tokens[(t // TABLES_PER_ACCOUNT) * players + p],
                f"load-{t}",
                p + 1,
                stats,
                random.Random(t * 100 + p),
                think,
            )
        except Exception as error:  # counted if the run was still on (not closed at its end)
            if time.monotonic() < stats.stop():
                failed.append(type(error).__name__)

    await asyncio.gather(*(seat(t, p) for t in share for p in range(players)))
    closer.cancel()
    return {
        "since": stats.since(),
        "opened": stats.opened,
        "failed": len(failed),
        "failed_kinds": sorted(set(failed)),
        "actions": stats.actions,
        "latencies": stats.latencies,
        "hands": len(stats.hands),
        "errors": stats.errors,
        "error_kinds": stats.error_kinds,
        "cpu": cpu_seconds() - cpu,
    }


def _profile(pid: int, seconds: float, output: Path) -> subprocess.Popen[bytes]:
    """py-spy (the dev extra) sampling process ``pid`` for ``seconds`` into ``output``."""
    spy = Path(sys.executable).parent / "py-spy"
    command = [str(spy), "record", "-p", str(pid), "-d", str(int(seconds)), "-f", "raw"]
    return subprocess.Popen(
        [*command, "-o", str(output), "--nonblocking"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _client_process(
    url: str,
    tokens: list[str],
    share: range,
    players: int,
    total: int,
    seconds: float,
    think: float,
    seated: Any,
    since: Any,
    results: Any,
) -> None:
    """One load client process: its share of the tables' bots."""
    stats = Stats(players=total, seconds=seconds, seat_by=seat_by(total))
    stats.shared = (seated, since)
    results.put(run_client(_play_share(url, tokens, share, players, stats, think)))


async def play_tables(
    url: str,
    tokens: list[str],
    tables: int,
    players: int,
    seconds: float,
    think: float,
    *,
    processes: int = 1,
    server: int | None = None,
    profile: Path | None = None,
    postgres: str | None = None,
    empty_room_rss: int | None = None,
) -> dict[str, Any]:
    """The light bots at ``load-0`` ..: measured for ``seconds`` once all are seated, in
    this process or spread over ``processes`` client processes; with ``server`` (its pid)
    the room's CPU over the same time is reported too, its resident memory (per table,
    from ``empty_room_rss``, its memory before the tables opened; per connection, from the
    moment before the bots connect to the measured time's end) and the sockets it holds;
    and with ``postgres`` (the room's database URL) the PostgreSQL server's CPU for that
    database."""
    total = tables * players
    began = time.monotonic()
    served: list[float] = []
    room: dict[str, Any] = {"postgres_cpu": None, "postgres_background_cpu": None}
    tables_rss = None if server is None else process_memory(server).get("rss")

    async def watch_server(started: Callable[[], float | None]) -> None:
        if server is None:
            return
        while started() is None:
            await asyncio.sleep(0.05)
        if profile is not None:
            _profile(server, max(1.0, seconds - 2), profile)
        served.append(process_cpu_seconds(server))
        backends = None if postgres is None else await database_cpu(postgres)
        room.update(server_sockets=process_sockets(server), **await _room_gauges(url))
        await asyncio.sleep(seconds)
        served.append(process_cpu_seconds(server))
        room.update(_memory(process_memory(server), empty_room_rss, tables_rss, tables, total))
        if backends is not None and postgres is not None:
            ours, background = (await database_cpu(postgres)).since(backends)
            room.update(postgres_cpu=ours / seconds, postgres_background_cpu=background / seconds)
        room.update(await _room_metrics(url))

    if processes <= 1:
        stats = Stats(players=total, seconds=seconds, seat_by=seat_by(total))
        watching = asyncio.create_task(watch_server(lambda: stats.measuring_since))
        shares = [await _play_share(url, tokens, range(tables), players, stats, think)]
        await _finish(watching)
    else:
        context = multiprocessing.get_context("spawn")
        seated, since = context.Value("i", 0), context.Value("d", 0.0)
        parts = [range(k, tables, processes) for k in range(processes)]
        args = [(url, tokens, part, players, total, seconds, think) for part in parts]
        watching = asyncio.create_task(watch_server(lambda: since.value or None))
        loop = asyncio.get_running_loop()
        shares = await loop.run_in_executor(
            None, in_processes, _client_process, args, (seated, since)
        )
        await _finish(watching)
    started = next((s["since"] for s in shares if s["since"] is not None), None)
    if started is None:
        failed = {k for s in shares for k in s["failed_kinds"]}
        refused = {k for s in shares for k in s["error_kinds"]}
        raise RuntimeError(
            f"not all of the {total} bots got a seat: {sum(s['opened'] for s in shares)} "
            f"sockets opened, {sum(s['failed'] for s in shares)} failed {sorted(failed)}, "
            f"refused {sorted(refused)}"
        )
    elapsed = time.monotonic() - started
    latencies = sorted(x for s in shares for x in s["latencies"]) or [0.0]
    kinds: dict[str, int] = {}
    for share in shares:
        for kind, count in share["error_kinds"].items():
            kinds[kind] = kinds.get(kind, 0) + count
    server_cpu = (served[1] - served[0]) / seconds if len(served) == 2 else None
    actions_per_second = sum(s["actions"] for s in shares) / elapsed
    return {
        "tables": tables,
        "players": players,
        "think": think,
        "seconds": round(elapsed, 1),
        # From the first connection to the last bot seated (a handshake, sign-in, buy-in each).
        "seating_seconds": started - began,
        "hands_per_second": sum(s["hands"] for s in shares) / elapsed,
        "actions_per_second": actions_per_second,
        "actions": len(latencies),
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
        "max_ms": 1000 * latencies[-1],
        "errors": sum(s["errors"] for s in shares),
        "error_kinds": kinds,
        "client_processes": max(processes, 1),
        # CPU in cores over the run (1.0: one core busy): the client's must leave room.
        "client_cpu": sum(s["cpu"] for s in shares) / elapsed,
        "server_cpu": server_cpu,
        # The room's CPU milliseconds an action (the frames it broadcasts included).
        "server_cpu_ms_per_action": (
            None
            if server_cpu is None or not actions_per_second
            else 1000 * server_cpu / actions_per_second
        ),
        "sockets_opened": sum(s["opened"] for s in shares),
        "sockets_failed": sum(s["failed"] for s in shares),
        "failed_kinds": sorted({k for s in shares for k in s["failed_kinds"]}),
        "load_average": os.getloadavg()[0],
        **room,
    }


def seat_by(sockets: int) -> float:
    """When every bot must have its seat (bounded, longer for more sockets: each is a
    handshake, a sign-in and a buy-in)."""
    return time.monotonic() + 120 + sockets / 50


def _memory(
    now: dict[str, int], empty: int | None, tables_open: int | None, tables: int, sockets: int
) -> dict[str, Any]:
    """The room's resident memory (MB) and what it grew by per table opened (KB, from the
    room before any table to the room with its tables open, nobody connected) and per
    connection (KB, from then to the measured time's end, a seated bot's socket, session,
    seat and share of its hand each)."""
    if not now:
        return {}
    mb, kb = 1024 * 1024, 1024
    figures: dict[str, Any] = {"rss_mb": now["rss"] / mb, "rss_peak_mb": now["peak"] / mb}
    if tables_open:
        figures["rss_tables_open_mb"] = tables_open / mb
        figures["memory_per_connection_kb"] = (now["rss"] - tables_open) / kb / sockets
        if empty:
            figures["rss_empty_mb"] = empty / mb
            figures["memory_per_table_kb"] = (tables_open - empty) / kb / tables
    return figures


async def _room_gauges(url: str) -> dict[str, float]:
    """The room's own counts from /metrics: the WebSocket connections open, the players
    seated and the tables open."""
    values = await _metric_values(url)
    names = {
        "pokerroom_websockets_open": "websockets_open",
        "pokerroom_players_seated": "players_seated",
        "pokerroom_tables": "tables_open",
    }
    return {mine: values[name] for name, mine in names.items() if name in values}


async def _metric_values(url: str) -> dict[str, float]:
    """The room's /metrics samples without labels, by name (none from a room without)."""
    import httpx
    from prometheus_client.parser import text_string_to_metric_families

    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        response = await http.get("/metrics")
    if response.status_code != 200:  # a room without metrics (an older one, say)
        return {}
    return {
        sample.name: sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
        if not sample.labels
    }


async def _finish(watching: asyncio.Task[None]) -> None:
    """The room's watcher ends on its own once the measured time is over (bounded)."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(watching, timeout=30)


async def _room_metrics(url: str) -> dict[str, float]:
    """What the room's /metrics say of its writer: commits, their mean batch and time."""
    values = await _metric_values(url)
    commits = values.get("pokerroom_commit_seconds_count", 0.0)
    batches = values.get("pokerroom_write_batch_units_count", 0.0)
    return {
        "commits": commits,
        "mean_batch": values.get("pokerroom_write_batch_units_sum", 0.0) / max(batches, 1.0),
        "mean_commit_ms": 1000 * values.get("pokerroom_commit_seconds_sum", 0.0) / max(commits, 1),
    }


def loadtest_command(
    tables: Annotated[int, typer.Option(min=1)] = 10,
    players_per_table: Annotated[int, typer.Option(min=2, max=10)] = 6,
    seconds: Annotated[float, typer.Option(min=1, max=600)] = 20,
    think: Annotated[
        float,
        typer.Option(
            min=0,
            max=30,
            help="Mean seconds a bot thinks before acting (uniform, 0.5x to 1.5x), a "
            "person's pace by default; 0 plays flat out and measures the room's capacity.",
        ),
    ] = 3.0,
    database: Annotated[
        str | None,
        typer.Option(
            help="A PostgreSQL server's URL (postgresql+asyncpg://user@host/db): the run "
            "makes a fresh database there and drops it after. Default: a fresh SQLite file."
        ),
    ] = None,
    clients: Annotated[
        int,
        typer.Option(
            min=1,
            max=64,
            help="Load client processes driving the bots, each holding its share of the "
            "sockets (thousands each).",
        ),
    ] = CLIENTS,
    json_output: Annotated[bool, typer.Option("--json", help="One JSON line.")] = False,
    ceilings: Annotated[
        bool,
        typer.Option(
            help="Measure the table echo and the bare echo after the run (as many sockets "
            "again: skip them for a run of thousands of tables)."
        ),
    ] = True,
    profile: Annotated[
        Path | None,
        typer.Option(help="Sample the room with py-spy while measured (raw stacks file)."),
    ] = None,
    nodes: Annotated[
        int,
        typer.Option(
            min=1,
            max=8,
            help="Node processes sharing the --database PostgreSQL server; "
            "prints one JSON line with failovers and the books.",
        ),
    ] = 1,
    kill_owner: Annotated[
        bool, typer.Option("--kill-owner", help="With --nodes: kill -9 a table owner mid-run.")
    ] = False,
    redis: Annotated[
        str | None,
        typer.Option(
            help="With --nodes: the nodes' Redis (redis://host:6379/N); each bot then plays "
            "through any node, its commands carried to the table's owner. The run deletes "
            "the room's keys of that Redis database first."
        ),
    ] = None,
) -> None:
    """Bots over real WebSockets on loopback: throughput, latency, CPU, and the echo ceiling."""
    if nodes > 1 or kill_owner or redis:
        if database is None or not database.startswith("postgresql"):
            typer.echo("pokerroom loadtest: --nodes needs --database postgresql+asyncpg://...")
            raise typer.Exit(2)
        from pokerroom.cli.loadtest_nodes import in_words, json_line, run_nodes_loadtest

        figures = asyncio.run(
            run_nodes_loadtest(
                nodes,
                tables,
                players_per_table,
                seconds,
                database=database,
                kill_owner=kill_owner,
                redis=redis,
            )
        )
        typer.echo(json.dumps(json_line(figures)) if json_output else in_words(figures))
        return
    result = asyncio.run(
        run_loadtest(
            tables,
            players_per_table,
            seconds,
            think,
            database=database,
            clients=clients,
            profile=profile,
        )
    )
    if ceilings:
        result.update(beside_ceilings(result, min(seconds, 5.0), clients))
    typer.echo(json.dumps(result) if json_output else one_node_in_words(result))
