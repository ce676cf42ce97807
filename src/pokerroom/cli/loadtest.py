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
import secrets
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

BUY_IN = 20_000
TABLES_PER_ACCOUNT = 40  # 40 buy-ins fit in one account's starting balance


@dataclass
class Stats:
    """Counted from the moment every bot has its seat (sitting down is not the load)."""

    players: int = 0
    seconds: float = 0.0
    seat_by: float = 0.0  # bounded: the bots must all be seated by then
    seated: int = 0
    measuring_since: float | None = None
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    hands: set[tuple[str, int]] = field(default_factory=set)
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)

    def stop(self) -> float:
        if self.measuring_since is None:
            return self.seat_by
        return self.measuring_since + self.seconds


async def _player(
    url: str,
    token: str,
    table: str,
    seat: int,
    stats: Stats,
    rng: random.Random,
    think: float,
) -> None:
    from websockets.asyncio.client import connect

    async with connect(url.replace("http", "ws", 1) + "/ws", max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ws.send(json.dumps({"type": "watch", "table": table}))
        request = secrets.token_hex(16)  # a key names one join, never a later one (S-MONEY-3)
        join = {"type": "join", "table": table, "seat": seat, "buy_in": BUY_IN, "request": request}
        await ws.send(json.dumps(join))
        sent_at: float | None = None
        # The decision we have an action in flight for: frames that still show it (a
        # player sat down meanwhile, say) must not make us act twice.
        pending: tuple[Any, ...] | None = None
        has_seat = False
        while time.monotonic() < stats.stop():
            try:
                raw = await asyncio.wait_for(
                    ws.recv(), timeout=max(0.01, stats.stop() - time.monotonic())
                )
            except TimeoutError:
                break
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "error":
                sent_at = pending = None  # refused: no broadcast will answer it
                stats.errors += 1
                what = message["message"].split(":")[-1].strip()[:40]
                stats.error_kinds[what] = stats.error_kinds.get(what, 0) + 1
                continue
            if kind == "hand_result":
                if stats.measuring_since is not None:
                    stats.hands.add((table, message["hand"]))
                continue
            if kind != "table":
                continue
            if not has_seat and message.get("you") == seat:
                has_seat = True
                stats.seated += 1
                if stats.seated == stats.players:
                    stats.measuring_since = time.monotonic()
            hand = message.get("hand")
            ours = bool(hand and hand["actor"] == message.get("you") and hand["legal"])
            decision = None
            if hand is not None:
                decision = (
                    hand["number"],
                    hand["street"],
                    tuple(hand["pots"]),
                    tuple((s["seat"], s["bet"]) for s in message["seats"] if s.get("in_hand")),
                )
            if sent_at is not None and (not ours or decision != pending):
                # The first frame that shows our action done (frames sent while we were
                # thinking may still be queued before it).
                if stats.measuring_since is not None and sent_at >= stats.measuring_since:
                    stats.latencies.append(time.monotonic() - sent_at)
                sent_at = None
            if not ours or decision == pending:
                continue
            pending = decision
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
            if think:  # a person takes a while to decide; 0 drives the room flat out
                await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
            sent_at = time.monotonic()
            stats.actions += stats.measuring_since is not None
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


async def prepare_room(url: str, database: str, tables: int, players: int) -> list[str]:
    """Open tables ``load-0`` .. through the floor API of the room at ``url`` and sign up
    the players; their session tokens, ``players`` per group of ``TABLES_PER_ACCOUNT``."""
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
            response = await http.post(
                "/api/floor/tables",
                headers=headers,
                json={"id": f"load-{t}", "name": f"Load {t}", "seats": max(players, 2)},
            )
            response.raise_for_status()
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
    tables: int, players: int, seconds: float, think: float = 0.0
) -> dict[str, Any]:
    from pokerroom.store.audit import audit
    from pokerroom.store.db import Database

    database, url, server = await start_room("load")
    try:
        tokens = await prepare_room(url, database, tables, players)
        result = await play_tables(url, tokens, tables, players, seconds, think)
    finally:
        stop_room(server)
    db = Database(database)
    try:
        async with db.transaction() as session:
            report = await audit(session)
    finally:
        await db.close()
    return {**result, "books_balance": report.ok}


async def start_room(name: str) -> tuple[str, str, subprocess.Popen[bytes]]:
    """A room in its own process on a fresh SQLite file: its database URL, its URL, itself."""
    from pokerroom.store.db import sqlite_url

    folder = Path(tempfile.mkdtemp(prefix=f"pokerroom-{name}-"))
    database = sqlite_url(folder / f"{name}.db")
    port = free_port()
    return database, f"http://127.0.0.1:{port}", await spawn_room(database, port, pause=0.2)


def stop_room(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:  # bounded: a server that will not stop is killed
        server.kill()
        server.wait(timeout=10)


async def play_tables(
    url: str, tokens: list[str], tables: int, players: int, seconds: float, think: float
) -> dict[str, Any]:
    """The light bots at ``load-0`` ..: measured for ``seconds`` once all are seated."""
    stats = Stats(players=tables * players, seconds=seconds, seat_by=time.monotonic() + 120)
    await asyncio.gather(
        *(
            _player(
                url,
                tokens[(t // TABLES_PER_ACCOUNT) * players + p],
                f"load-{t}",
                p + 1,
                stats,
                random.Random(t * 100 + p),
                think,
            )
            for t in range(tables)
            for p in range(players)
        ),
        return_exceptions=True,
    )
    if stats.measuring_since is None:
        raise RuntimeError(f"only {stats.seated} of {stats.players} bots got a seat")
    elapsed = time.monotonic() - stats.measuring_since
    latencies = sorted(stats.latencies) or [0.0]
    return {
        "tables": tables,
        "players": players,
        "think": think,
        "seconds": round(elapsed, 1),
        "hands_per_second": len(stats.hands) / elapsed,
        "actions_per_second": stats.actions / elapsed,
        "actions": len(stats.latencies),
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
        "max_ms": 1000 * latencies[-1],
        "errors": stats.errors,
        "error_kinds": stats.error_kinds,
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
) -> None:
    """Bots over real WebSockets on loopback: throughput, latency, and the echo ceiling."""
    result = asyncio.run(run_loadtest(tables, players_per_table, seconds, think))
    echo = asyncio.run(_echo_rate(min(seconds, 5.0)))
    typer.echo(
        f"{result['tables']} tables x {result['players']} players, thinking "
        f"{result['think']:g} s, for {result['seconds']} s: "
        f"{result['hands_per_second']:.1f} hands/s, {result['actions_per_second']:.0f} actions/s, "
        f"action -> broadcast p50 {result['p50_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms, "
        f"{result['errors']} refused actions {result['error_kinds'] or ''}, "
        f"books {'balance' if result['books_balance'] else 'DO NOT BALANCE'}"
    )
    typer.echo(f"bare WebSocket echo server on this machine: {echo:,.0f} messages/s")
