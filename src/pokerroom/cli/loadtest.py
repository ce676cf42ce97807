"""``pokerroom loadtest``: many tables of bots over real WebSockets on loopback.

The room runs in its own process (``pokerroom serve``) on a fresh SQLite file; this
process opens the tables through the floor API and drives light bots (check, call,
sometimes a raise or a fold: the room's work is measured, not the bots' thinking).
It prints hands/s, actions/s and the time from an action sent to its broadcast
received (p50, p99), beside a bare WebSocket echo server's messages/s on the same
machine, then checks the books. Loops are bounded in time and stop by themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer

from pokerroom.server.process import free_port, spawn_room


@dataclass
class Stats:
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    hands: set[tuple[str, int]] = field(default_factory=set)
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)


async def _player(
    url: str, token: str, table: str, seat: int, stats: Stats, stop: float, rng: random.Random
) -> None:
    from websockets.asyncio.client import connect

    async with connect(url.replace("http", "ws", 1) + "/ws", max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ws.send(json.dumps({"type": "watch", "table": table}))
        await ws.send(
            json.dumps(
                {"type": "join", "table": table, "seat": seat, "buy_in": 20_000, "request": "lt"}
            )
        )
        sent_at: float | None = None
        acted: tuple[Any, ...] = ()
        while time.monotonic() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop - time.monotonic()))
            except TimeoutError:
                break
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "error":
                stats.errors += 1
                what = message["message"].split(":")[-1].strip()[:40]
                stats.error_kinds[what] = stats.error_kinds.get(what, 0) + 1
                continue
            if kind == "hand_result":
                stats.hands.add((table, message["hand"]))
                continue
            if kind != "table":
                continue
            if sent_at is not None:
                stats.latencies.append(time.monotonic() - sent_at)
                sent_at = None
            hand = message.get("hand")
            if not hand or hand["actor"] != message.get("you") or not hand["legal"]:
                continue
            key = (
                hand["number"],
                hand["street"],
                tuple((s["seat"], s.get("bet")) for s in message["seats"]),
            )
            if key == acted:
                continue
            acted = key
            legal = hand["legal"]
            roll = rng.random()
            act: dict[str, Any] = {
                "type": "act",
                "table": table,
                "hand": hand["number"],
                "action": "check_or_call",
            }
            if roll < 0.1 and legal["call"]:
                act["action"] = "fold"
            elif roll < 0.2 and legal["min_raise_to"] is not None:
                act.update(action="bet_or_raise", amount=legal["min_raise_to"])
            sent_at = time.monotonic()
            stats.actions += 1
            await ws.send(json.dumps(act))


async def _echo_rate(seconds: float, clients: int = 50) -> float:
    """Messages per second through a bare WebSocket echo server (the machine's ceiling)."""
    from websockets.asyncio.client import connect

    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "pokerroom.server.echo:app",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--ws-per-message-deflate",
            "false",
        ],
    )
    try:
        for _ in range(100):
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", port), timeout=0.2),
            ):
                break
            await asyncio.sleep(0.1)
        count = 0
        stop = time.monotonic() + seconds

        async def one() -> None:
            nonlocal count
            async with connect(f"ws://127.0.0.1:{port}/") as ws:
                while time.monotonic() < stop:
                    await ws.send('{"type":"ping"}')
                    await ws.recv()
                    count += 1

        await asyncio.gather(*(one() for _ in range(clients)))
        return count / seconds
    finally:
        server.terminate()
        server.wait(timeout=10)


async def run_loadtest(tables: int, players: int, seconds: float) -> dict[str, Any]:
    import httpx

    from pokerroom.store.audit import audit
    from pokerroom.store.db import Database, sqlite_url

    folder = Path(tempfile.mkdtemp(prefix="pokerroom-load-"))
    database = sqlite_url(folder / "load.db")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = await spawn_room(database, port, pause=0.2)
    try:
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
                await http.post(
                    "/api/login", json={"username": "loadfloor", "password": "load floor"}
                )
            ).json()["token"]
            headers = {"Authorization": f"Bearer {floor}"}
            for t in range(tables):
                response = await http.post(
                    "/api/floor/tables",
                    headers=headers,
                    json={"id": f"load-{t}", "name": f"Load {t}", "seats": max(players, 2)},
                )
                response.raise_for_status()
            tokens = []
            for k in range(tables * players):
                response = await http.post(
                    "/api/signup", json={"username": f"load{k}", "password": "load player"}
                )
                tokens.append(response.json()["token"])
        stats = Stats()
        stop = time.monotonic() + seconds
        started = time.monotonic()
        await asyncio.gather(
            *(
                _player(
                    url,
                    tokens[t * players + p],
                    f"load-{t}",
                    p + 1,
                    stats,
                    stop,
                    random.Random(t * 100 + p),
                )
                for t in range(tables)
                for p in range(players)
            ),
            return_exceptions=True,
        )
        elapsed = time.monotonic() - started
    finally:
        server.terminate()
        server.wait(timeout=20)
    db = Database(database)
    try:
        async with db.transaction() as session:
            report = await audit(session)
    finally:
        await db.close()
    latencies = sorted(stats.latencies) or [0.0]
    return {
        "tables": tables,
        "players": players,
        "seconds": round(elapsed, 1),
        "hands_per_second": len(stats.hands) / elapsed,
        "actions_per_second": stats.actions / elapsed,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
        "errors": stats.errors,
        "error_kinds": stats.error_kinds,
        "books_balance": report.ok,
    }


def loadtest_command(
    tables: Annotated[int, typer.Option(min=1, max=500)] = 10,
    players_per_table: Annotated[int, typer.Option(min=2, max=10)] = 6,
    seconds: Annotated[float, typer.Option(min=1, max=600)] = 20,
) -> None:
    """Bots over real WebSockets on loopback: throughput, latency, and the echo ceiling."""
    result = asyncio.run(run_loadtest(tables, players_per_table, seconds))
    echo = asyncio.run(_echo_rate(min(seconds, 5.0)))
    typer.echo(
        f"{result['tables']} tables x {result['players']} players for {result['seconds']} s: "
        f"{result['hands_per_second']:.1f} hands/s, {result['actions_per_second']:.0f} actions/s, "
        f"action -> broadcast p50 {result['p50_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms, "
        f"{result['errors']} refused actions {result['error_kinds'] or ''}, "
        f"books {'balance' if result['books_balance'] else 'DO NOT BALANCE'}"
    )
    typer.echo(f"bare WebSocket echo server on this machine: {echo:,.0f} messages/s")
