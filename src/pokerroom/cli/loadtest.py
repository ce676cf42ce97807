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
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from pokerroom.cli.database_cpu import database_cpu
from pokerroom.cli.load_client import (
    CLIENTS,
    Stats,
    cpu_seconds,
    in_processes,
    play_seat,
    process_cpu_seconds,
    run_client,
)
from pokerroom.cli.loadtest_words import beside_ceilings, one_node_in_words
from pokerroom.server.ops.process import free_port, spawn_room

TABLES_PER_ACCOUNT = 40  # 40 buy-ins fit in one account's starting balance


async def prepare_room(
    url: str,
    database: str,
    tables: int,
    players: int,
    *,
    table_urls: list[str] | None = None,
    spare_seats: int = 0,
) -> list[str]:
    """Open tables ``load-0`` .. through the floor API of the room at ``url`` (or spread
    over ``table_urls``, the nodes of a room of several), with ``spare_seats`` beyond the
    players', and sign up the players; their session tokens, ``players`` per group of
    ``TABLES_PER_ACCOUNT``."""
    import httpx

    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        await http.post("/api/signup", json={"username": "loadfloor", "password": "load floor"})
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pokerroom.cli",
                "operator",
                "loadfloor",
                "--database",
                database,
            ],
            check=True,
            capture_output=True,
        )
        floor = (
            await http.post("/api/login", json={"username": "loadfloor", "password": "load floor"})
        ).json()["token"]
        headers = {"Authorization": f"Bearer {floor}"}
        for t in range(tables):
            where = url if not table_urls else table_urls[t % len(table_urls)]
            response = await http.post(
                f"{where}/api/floor/tables",
                headers=headers,
                json={
                    "id": f"load-{t}",
                    "name": f"Load {t}",
                    "seats": max(players, 2) + spare_seats,
                },
            )
            if response.status_code != 200:
                raise RuntimeError(f"table load-{t} was not opened: {response.text}")
        # Accounts multi-table as people do (one seat per account per table), so the
        # setup is a few argon2 sign-ups, not one per seat.
        groups = -(-tables // TABLES_PER_ACCOUNT)
        tokens = []
        for k in range(players * groups):
            response = await http.post(
                "/api/signup", json={"username": f"load{k}", "password": "load player"}
            )
            tokens.append(response.json()["token"])
        return tokens


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

    async with fresh_database("load", database) as url_of_db:
        database_url, url, server = await start_room("load", url_of_db)
        try:
            tokens = await prepare_room(url, database_url, tables, players)
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
    return {**result, "database": engine, "books_balance": report.ok}


@contextlib.asynccontextmanager
async def fresh_database(name: str, server_url: str | None) -> Any:
    """A fresh database for one run: a new SQLite file, or (``server_url`` a PostgreSQL
    URL) a new database on that server, dropped afterwards."""
    from pokerroom.store.db import sqlite_url

    if server_url is None or not server_url.startswith("postgresql"):
        folder = Path(tempfile.mkdtemp(prefix=f"pokerroom-{name}-"))
        yield sqlite_url(folder / f"{name}.db")
        return
    import asyncpg  # type: ignore[import-untyped]
    from sqlalchemy import make_url

    url = make_url(server_url)
    admin_dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
    fresh = f"pokerroom_{name}_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(admin_dsn)
    try:
        await admin.execute(f'CREATE DATABASE "{fresh}"')
    finally:
        await admin.close()
    try:
        yield url.set(database=fresh).render_as_string(hide_password=False)
    finally:
        admin = await asyncpg.connect(admin_dsn)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{fresh}" WITH (FORCE)')
        finally:
            await admin.close()


async def start_room(
    name: str, database: str | None = None
) -> tuple[str, str, subprocess.Popen[bytes]]:
    """A room in its own process on ``database`` (default: a fresh SQLite file): its
    database URL, its URL, itself."""
    from pokerroom.store.db import sqlite_url

    if database is None:
        folder = Path(tempfile.mkdtemp(prefix=f"pokerroom-{name}-"))
        database = sqlite_url(folder / f"{name}.db")
    port = free_port()
    # A busy machine may take a while to start Python and import the room: bounded, generous.
    room = await spawn_room(database, port, pause=0.2, seconds=90)
    return database, f"http://127.0.0.1:{port}", room


def stop_room(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:  # bounded: a server that will not stop is killed
        server.kill()
        server.wait(timeout=10)


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
    await asyncio.gather(
        *(
            play_seat(
                url,
                tokens[(t // TABLES_PER_ACCOUNT) * players + p],
                f"load-{t}",
                p + 1,
                stats,
                random.Random(t * 100 + p),
                think,
            )
            for t in share
            for p in range(players)
        ),
        return_exceptions=True,
    )
    return {
        "since": stats.since(),
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
    stats = Stats(players=total, seconds=seconds, seat_by=time.monotonic() + 120)
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
) -> dict[str, Any]:
    """The light bots at ``load-0`` ..: measured for ``seconds`` once all are seated, in
    this process or spread over ``processes`` client processes; with ``server`` (its pid)
    the room's CPU over the same time is reported too, and with ``postgres`` (the room's
    database URL) the PostgreSQL server's CPU for that database."""
    total = tables * players
    served: list[float] = []
    room: dict[str, float | None] = {"postgres_cpu": None, "postgres_background_cpu": None}

    async def watch_server(started: Callable[[], float | None]) -> None:
        if server is None:
            return
        while started() is None:
            await asyncio.sleep(0.05)
        if profile is not None:
            _profile(server, max(1.0, seconds - 2), profile)
        served.append(process_cpu_seconds(server))
        backends = None if postgres is None else await database_cpu(postgres)
        await asyncio.sleep(seconds)
        served.append(process_cpu_seconds(server))
        if backends is not None and postgres is not None:
            ours, background = (await database_cpu(postgres)).since(backends)
            room.update(postgres_cpu=ours / seconds, postgres_background_cpu=background / seconds)
        room.update(await _room_metrics(url))

    if processes <= 1:
        stats = Stats(players=total, seconds=seconds, seat_by=time.monotonic() + 120)
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
        raise RuntimeError(f"not all of the {total} bots got a seat")
    elapsed = time.monotonic() - started
    latencies = sorted(x for s in shares for x in s["latencies"]) or [0.0]
    kinds: dict[str, int] = {}
    for share in shares:
        for kind, count in share["error_kinds"].items():
            kinds[kind] = kinds.get(kind, 0) + count
    return {
        "tables": tables,
        "players": players,
        "think": think,
        "seconds": round(elapsed, 1),
        "hands_per_second": sum(s["hands"] for s in shares) / elapsed,
        "actions_per_second": sum(s["actions"] for s in shares) / elapsed,
        "actions": len(latencies),
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
        "max_ms": 1000 * latencies[-1],
        "errors": sum(s["errors"] for s in shares),
        "error_kinds": kinds,
        "client_processes": max(processes, 1),
        # CPU in cores over the run (1.0: one core busy): the client's must leave room.
        "client_cpu": sum(s["cpu"] for s in shares) / elapsed,
        "server_cpu": (served[1] - served[0]) / seconds if len(served) == 2 else None,
        "load_average": os.getloadavg()[0],
        **room,
    }


async def _finish(watching: asyncio.Task[None]) -> None:
    """The room's watcher ends on its own once the measured time is over (bounded)."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(watching, timeout=30)


async def _room_metrics(url: str) -> dict[str, float]:
    """What the room's /metrics say of its writer: commits, their mean batch and time."""
    import httpx
    from prometheus_client.parser import text_string_to_metric_families

    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        response = await http.get("/metrics")
    if response.status_code != 200:  # a room without metrics (an older one, say)
        return {}
    text = response.text
    values = {
        sample.name: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if not sample.labels
    }
    commits = values.get("pokerroom_commit_seconds_count", 0.0)
    batches = values.get("pokerroom_write_batch_units_count", 0.0)
    return {
        "commits": commits,
        "mean_batch": values.get("pokerroom_write_batch_units_sum", 0.0) / max(batches, 1.0),
        "mean_commit_ms": 1000 * values.get("pokerroom_commit_seconds_sum", 0.0) / max(commits, 1),
    }


def loadtest_command(
    tables: Annotated[int, typer.Option(min=1, max=500)] = 10,
    players_per_table: Annotated[int, typer.Option(min=2, max=10)] = 6,
    seconds: Annotated[float, typer.Option(min=1, max=600)] = 20,
    think: Annotated[
        float,
        typer.Option(
            min=0,
            max=30,
            help="Mean seconds a bot thinks before acting (uniform, 0.5x to 1.5x); "
            "0 plays flat out and measures the room's capacity.",
        ),
    ] = 1.0,
    database: Annotated[
        str | None,
        typer.Option(
            help="A PostgreSQL server's URL (postgresql+asyncpg://user@host/db): the run "
            "makes a fresh database there and drops it after. Default: a fresh SQLite file."
        ),
    ] = None,
    clients: Annotated[
        int, typer.Option(min=1, max=16, help="Load client processes driving the bots.")
    ] = CLIENTS,
    json_output: Annotated[bool, typer.Option("--json", help="One JSON line.")] = False,
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
    result.update(beside_ceilings(result, min(seconds, 5.0), clients))
    typer.echo(json.dumps(result) if json_output else one_node_in_words(result))
