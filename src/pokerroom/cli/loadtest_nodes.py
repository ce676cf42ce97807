"""``pokerroom loadtest --nodes N``: the room as N node processes on one PostgreSQL.

Each node is ``pokerroom serve --node-id nK`` on a fresh database of the PostgreSQL server
given; the tables are opened through the floor API, spread over the nodes, and each bot
plays at the node that owns its table (the lobby names it), reconnecting to the new owner
when its node goes. With ``--redis`` the nodes share a Redis and each bot plays through the
node its seat is spread to, whichever owns the table (commands travel to the owner over
Redis, server/nodes/bus.py), moving to another node only when its own goes. With
``--kill-owner`` the node owning the most tables is killed (``kill -9``) a third of the way
through: its tables are adopted by the others, the hands it cut off are cancelled and
refunded. One JSON line: nodes, tables, hands, actions/s, p99,
failovers (tables adopted from the killed node), hands refunded, hands settled twice,
actions lost (sent, never answered, in a hand not refunded) and whether the books balance.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import statistics
import subprocess
import time
from typing import Any

import httpx

from pokerroom.cli.load_client import Stats, play_seat, process_cpu_seconds
from pokerroom.cli.load_room import TABLES_PER_ACCOUNT, fresh_database, prepare_room, stop_room
from pokerroom.server.app import forget_room
from pokerroom.server.ops.process import free_port, spawn_node

LEASE_SECONDS, RENEW_SECONDS = 5.0, 0.5  # the nodes' leases: a failover in seconds
# The JSON line's keys (``--json``), in this order; the rest is said in words.
JSON_KEYS = (
    "nodes",
    "tables",
    "hands",
    "actions_per_s",
    "p99_ms",
    "failovers",
    "hands_refunded",
    "hands_settled_twice",
    "actions_lost",
    "books_balance",
)


def json_line(figures: dict[str, Any]) -> dict[str, Any]:
    """The one JSON line of ``--json``: exactly these keys, in this order."""
    return {key: figures[key] for key in JSON_KEYS}


def in_words(figures: dict[str, Any]) -> str:
    """Every figure of the run, for a person."""
    bus = " on Redis" if figures["redis"] else ""
    return (
        f"{figures['nodes']} nodes{bus}, {figures['tables']} tables: {figures['hands']} hands, "
        f"{figures['actions_per_s']:.0f} actions/s, action -> broadcast p50 "
        f"{figures['p50_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms; failovers "
        f"{figures['failovers']}, hands refunded {figures['hands_refunded']}, settled twice "
        f"{figures['hands_settled_twice']}, actions lost {figures['actions_lost']} (cut with "
        f"their socket's node {figures['actions_cut_with_their_node']}), refused "
        f"{figures['refused_actions']}; CPU in cores: nodes {figures['nodes_cpu']:.2f}, load "
        f"client {figures['client_cpu']:.2f}; books "
        f"{'balance' if figures['books_balance'] else 'DO NOT BALANCE'}"
    )


class Owners:
    """Which node runs each table, as a live node's lobby says (refreshed as bots ask).
    ``spread``: the nodes share a Redis, so a bot may play through any live node."""

    def __init__(self, ports: dict[str, int], *, spread: bool = False) -> None:
        self.ports = ports
        self.spread = spread
        self.alive = set(ports)
        self.owner: dict[str, str] = {}
        self.read_at = 0.0
        # Actions in flight through a socket node that was killed (with --redis): whether
        # the owner got them is unknown to the bot, as after any dropped connection; it
        # acts again on its new node if its turn is still open. Counted apart from lost.
        self.cut: list[tuple[str, int]] = []

    async def refresh(self) -> None:
        for node in sorted(self.alive):
            with contextlib.suppress(httpx.HTTPError):
                async with httpx.AsyncClient(timeout=10) as http:
                    lobby = (
                        await http.get(f"http://127.0.0.1:{self.ports[node]}/api/lobby")
                    ).json()
                self.owner = {e["id"]: e.get("node") for e in lobby}
                self.read_at = time.monotonic()
                return

    async def url(self, table: str, seat: int = 0) -> str | None:
        if self.spread:  # any live node: the seat's own, or the next one alive
            names = sorted(self.ports)
            start = (int(table.rsplit("-", 1)[-1]) + seat) % len(names)
            for k in range(len(names)):
                name = names[(start + k) % len(names)]
                if name in self.alive:
                    return f"http://127.0.0.1:{self.ports[name]}"
            return None
        if time.monotonic() - self.read_at > 0.5:
            await self.refresh()
        node = self.owner.get(table)
        if node is None or node not in self.alive:
            return None
        return f"http://127.0.0.1:{self.ports[node]}"


async def _seat(owners: Owners, token: str, table: str, seat: int, stats: Stats) -> None:
    """One bot, at its table's owner; when that node goes, at the next owner."""
    rng = random.Random(f"{table}-{seat}")
    while time.monotonic() < stats.stop():
        url = await owners.url(table, seat)
        if url is not None:
            unanswered = len(stats.unanswered)
            with contextlib.suppress(Exception):
                await play_seat(url, token, table, seat, stats, rng, 0.0)
            port = int(url.rsplit(":", 1)[1])
            node = next(n for n, p in owners.ports.items() if p == port)
            if owners.spread and node not in owners.alive:  # its socket node was killed
                owners.cut.extend(stats.unanswered[unanswered:])
                del stats.unanswered[unanswered:]
        await asyncio.sleep(0.2)


async def run_nodes_loadtest(
    nodes: int,
    tables: int,
    players: int,
    seconds: float,
    *,
    database: str,
    kill_owner: bool,
    redis: str | None = None,
    cpus: set[int] | None = None,
) -> dict[str, Any]:
    """The run (see the module's docstring); ``cpus``: the cores every node may run on (by
    default this process's)."""
    from pokerroom.store.audit import audit
    from pokerroom.store.db import Database

    async with fresh_database("nodes", database) as url:
        ports = {f"n{k + 1}": free_port() for k in range(nodes)}
        if redis is not None:
            await forget_room(redis)
        processes = {
            node: spawn_node(
                url, node, port, lease=LEASE_SECONDS, renew=RENEW_SECONDS, redis=redis, cpus=cpus
            )
            for node, port in ports.items()
        }
        try:
            for port in ports.values():
                await _answering(port)
            bases = [f"http://127.0.0.1:{port}" for port in ports.values()]
            tokens = await prepare_room(bases[0], url, tables, players, table_urls=bases)
            owners = Owners(ports, spread=redis is not None)
            stats = Stats(players=tables * players, seconds=seconds, seat_by=time.monotonic() + 120)
            killed: dict[str, Any] = {}
            killer = asyncio.create_task(
                _kill_owner(owners, processes, stats, seconds, killed) if kill_owner else _idle()
            )
            cpu = asyncio.create_task(_cpu(stats, processes))
            await asyncio.gather(
                *(
                    _seat(
                        owners,
                        tokens[(t // TABLES_PER_ACCOUNT) * players + p],
                        f"load-{t}",
                        p + 1,
                        stats,
                    )
                    for t in range(tables)
                    for p in range(players)
                )
            )
            await killer
            client_cpu, nodes_cpu = await cpu
            started = stats.since()
            if started is None:
                raise RuntimeError(
                    f"not all of the {tables * players} bots got a seat ({stats.seated} did;"
                    f" refused: {stats.error_kinds}; waiting: {stats.unseated})"
                )
            elapsed = time.monotonic() - started
            await _adopted(owners, killed)
        finally:
            # All at once: one by one, the last ones would adopt the tables the first ones
            # gave up as they stopped, and cancel (refund) the hands those left running.
            live = [process for process in processes.values() if process.poll() is None]
            for process in live:
                process.terminate()
            for process in live:
                stop_room(process)
        db = Database(url)
        try:
            async with db.transaction() as session:
                report = await audit(session)
                counts = await _hands(session)
        finally:
            await db.close()
    lost = sum(1 for t, n in stats.unanswered if counts["status"].get((t, n)) != "cancelled")
    gone = killed.get("node")
    latencies = sorted(stats.latencies) or [0.0]
    return {
        "nodes": nodes,
        "redis": redis is not None,
        "tables": tables,
        "hands": counts["complete"],
        "actions_per_s": round(stats.actions / elapsed, 1),
        "p99_ms": round(1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))], 1),
        "p50_ms": round(1000 * statistics.median(latencies), 1),
        "failovers": sum(1 for t in killed.get("tables", []) if owners.owner.get(t) != gone),
        "hands_refunded": counts["cancelled"],
        "hands_settled_twice": counts["twice"],
        "actions_lost": lost,
        "actions_cut_with_their_node": len(owners.cut),
        "refused_actions": stats.errors,
        "client_cpu": round(client_cpu, 2),
        "nodes_cpu": round(nodes_cpu, 2),
        "books_balance": report.ok,
    }


async def _cpu(stats: Stats, processes: dict[str, subprocess.Popen[bytes]]) -> tuple[float, float]:
    """CPU in cores over the measured time: the load client's (this process: it must leave
    room for the nodes) and the nodes' together (a node killed meanwhile not counted)."""
    while stats.since() is None and time.monotonic() < stats.seat_by:
        await asyncio.sleep(0.1)
    began, client = time.monotonic(), time.process_time()
    nodes = {node: process_cpu_seconds(p.pid) for node, p in processes.items()}
    while time.monotonic() < stats.stop():
        await asyncio.sleep(0.1)
    elapsed = max(time.monotonic() - began, 1e-9)
    used = sum(
        process_cpu_seconds(p.pid) - nodes[node]
        for node, p in processes.items()
        if p.poll() is None and node in nodes
    )
    return (time.process_time() - client) / elapsed, used / elapsed


async def _idle() -> None:
    return None


async def _adopted(owners: Owners, killed: dict[str, Any]) -> None:
    """The lobby once the killed node's tables have new owners (adopted over a few passes:
    a short run can end before the last one), or after three leases at most."""
    deadline = time.monotonic() + 3 * LEASE_SECONDS
    while True:
        await owners.refresh()
        orphans = [t for t in killed.get("tables", []) if owners.owner.get(t) == killed["node"]]
        if not orphans or time.monotonic() > deadline:
            return
        await asyncio.sleep(RENEW_SECONDS)


async def _kill_owner(
    owners: Owners,
    processes: dict[str, subprocess.Popen[bytes]],
    stats: Stats,
    seconds: float,
    killed: dict[str, Any],
) -> None:
    """A third of the way through the measured time, kill -9 the node with most tables."""
    while stats.since() is None and time.monotonic() < stats.seat_by:
        await asyncio.sleep(0.1)
    await asyncio.sleep(seconds / 3)
    await owners.refresh()
    held: dict[str, list[str]] = {}
    for table, node in owners.owner.items():
        if table.startswith("load-") and node is not None:
            held.setdefault(node, []).append(table)
    node = max(held, key=lambda n: len(held[n]))
    owners.alive.discard(node)
    processes[node].send_signal(signal.SIGKILL)
    processes[node].wait(timeout=10)
    killed.update(node=node, tables=held[node])


async def _answering(port: int, seconds: float = 90.0) -> None:
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get("/api/lobby")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
    raise RuntimeError(f"the node on port {port} did not come up")


async def _hands(session: Any) -> dict[str, Any]:
    from sqlalchemy import func, select

    from pokerroom.store.models import HandRecord

    rows = (
        await session.execute(
            select(HandRecord.table_id, HandRecord.number, HandRecord.status).where(
                HandRecord.table_id.like("load-%")
            )
        )
    ).all()
    status = {(t, int(n)): s for t, n, s in rows}
    twice = await session.scalar(
        select(func.count()).select_from(
            select(HandRecord.table_id, HandRecord.number)
            .where(HandRecord.status == "complete")
            .group_by(HandRecord.table_id, HandRecord.number)
            .having(func.count() > 1)
            .subquery()
        )
    )
    return {
        "status": status,
        "complete": sum(1 for s in status.values() if s == "complete"),
        "cancelled": sum(1 for s in status.values() if s == "cancelled"),
        "twice": int(twice or 0),
    }
