"""The soak, in three processes on this machine.

The room runs in its own process (``pokerroom serve``, as the load test starts it); honest
light bots play at several tables from a second; a hostile client in a third, for the whole
run and in loops: floods as a logged-in player (closed for flooding, connects again), never
reads (dropped when its queue is full, connects again), watches anonymously and hangs up at
once, and reuses a join's request key after leaving. Afterwards ``pokerroom audit`` must
reconcile the room's database to the chip, no hand may have been cancelled, no table may
have faulted and the attacker's balance must be what it was. The honest players' action to
broadcast p50/p99 is printed beside the same honest load without the attackers.

``python -m benchmarks.soak`` runs both and prints the report; the ``honest`` and
``hostile`` arguments are the two client processes (given a plan file by the first).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import random
import signal
import socket
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from benchmarks.report import Report, Row
from pokerroom.cli.loadtest import play_tables, prepare_room, start_room, stop_room

TABLES, PLAYERS, SECONDS, THINK = 8, 6, 30.0, 1.0
FLOODERS = 2  # flooding connections at once (each connects again once closed)
FLOOD = 5_000  # messages one flooding connection sends, as fast as the socket takes them
NEVER_READ_SECONDS = 120.0  # the longest one never-reading connection asks for frames
NEVER_READ_RATE = 90  # "watch" requests a second (each answered with a whole table), under
# the connection's rate limit: the frames pile up in the kernel's buffers, then its queue
KEYS_TABLE = "soak-keys"
ROOT = Path(__file__).resolve().parent.parent


@dataclasses.dataclass
class Plan:
    """What the two client processes need (JSON in a file)."""

    url: str
    tokens: list[str]
    tables: int
    players: int
    seconds: float
    think: float
    mallory: str  # the attacker's session token


# ------------------------------------------------------------------ the hostile client


async def closed_code(ws: ClientConnection, timeout: float = 15.0) -> int | None:
    """Read until the server closes ``ws`` (bounded); its close code."""
    with contextlib.suppress(ConnectionClosed, TimeoutError):
        async with asyncio.timeout(timeout):
            while True:
                await ws.recv()
    rcvd = ws.protocol.close_rcvd
    return None if rcvd is None else rcvd.code


def ws_url(url: str) -> str:
    return url.replace("http", "ws", 1) + "/ws"


async def flooder(plan: Plan, k: int, stop: asyncio.Event, counts: Counter[str]) -> None:
    table = f"load-{k % plan.tables}"
    frame = json.dumps({"type": "act", "table": table, "action": "fold", "hand": 1})
    while not stop.is_set():
        async with connect(ws_url(plan.url), max_size=2**20) as ws:
            await ws.send(json.dumps({"type": "hello", "token": plan.mallory}))
            await ws.send(json.dumps({"type": "watch", "table": table}))
            with contextlib.suppress(ConnectionClosed):
                for _ in range(FLOOD):
                    if stop.is_set():
                        break
                    await ws.send(frame)
            code = await closed_code(ws)
        counts["flood connections"] += 1
        counts[f"flood closed {code}"] += 1


async def never_reader(plan: Plan, stop: asyncio.Event, counts: Counter[str]) -> None:
    """A tiny receive buffer, frames asked for under the rate limit, and nothing read."""
    host, port = plan.url.removeprefix("http://").split(":")
    while not stop.is_set():
        raw = socket.create_connection((host, int(port)))
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        async with connect(ws_url(plan.url), sock=raw, max_queue=1) as ws:
            watch = [
                json.dumps({"type": "watch", "table": f"load-{t}"}) for t in range(plan.tables)
            ]
            until = time.monotonic() + NEVER_READ_SECONDS
            sent, outcome = 0, "still open at the end"
            try:
                while time.monotonic() < until and not stop.is_set():
                    for _ in range(NEVER_READ_RATE // 10):
                        await ws.send(watch[sent % len(watch)])
                        sent += 1
                    await asyncio.sleep(0.1)
            except ConnectionClosed:  # the room dropped it (its buffers and queue were full)
                outcome = "dropped"
        counts["never-reader connections"] += 1
        counts[f"never-reader {outcome}"] += 1


async def watch_and_close(plan: Plan, stop: asyncio.Event, counts: Counter[str]) -> None:
    rng = random.Random(7)
    while not stop.is_set():
        async with connect(ws_url(plan.url)) as ws:
            table = f"load-{rng.randrange(plan.tables)}"
            await ws.send(json.dumps({"type": "watch", "table": table}))
        counts["watch and close"] += 1
        await asyncio.sleep(0.02)


async def answer(ws: ClientConnection, *, seat: int | None) -> dict[str, Any]:
    """The next error, or table frame that shows the attacker at ``seat`` (None: standing)."""
    async with asyncio.timeout(10):
        while True:
            frame: dict[str, Any] = json.loads(await ws.recv())
            if frame.get("type") == "error" or (
                frame.get("type") == "table" and frame.get("you") == seat
            ):
                return frame


async def key_reuser(plan: Plan, stop: asyncio.Event, counts: Counter[str]) -> None:
    """Join with key K, send the same join again (a retry: one seat, one buy-in), leave,
    then join with K once more: refused, the key's sitting is over (S-MONEY-3)."""
    async with httpx.AsyncClient(base_url=plan.url) as http:
        me = {"Authorization": f"Bearer {plan.mallory}"}
        before = (await http.get("/api/me", headers=me)).json()["balance"]
        async with connect(ws_url(plan.url), max_size=2**20) as ws:
            await ws.send(json.dumps({"type": "hello", "token": plan.mallory}))
            await ws.send(json.dumps({"type": "watch", "table": KEYS_TABLE}))
            n = 0
            while not stop.is_set():
                n += 1
                join = {"type": "join", "table": KEYS_TABLE, "seat": 1, "buy_in": 20_000}
                join["request"] = f"k{n}"
                for _ in range(2):  # the request and its retry
                    await ws.send(json.dumps(join))
                    counts[f"key join {(await answer(ws, seat=1))['type']}"] += 1
                await ws.send(json.dumps({"type": "leave", "table": KEYS_TABLE}))
                await answer(ws, seat=None)
                await ws.send(json.dumps(join))  # the same key, its sitting ended
                reused = await answer(ws, seat=1)
                counts[
                    "key reuse refused" if reused["type"] == "error" else "key reuse SEATED"
                ] += 1
                if reused["type"] != "error":
                    await ws.send(json.dumps({"type": "leave", "table": KEYS_TABLE}))
                    await answer(ws, seat=None)
                await asyncio.sleep(0.1)
        after = (await http.get("/api/me", headers=me)).json()["balance"]
    counts["attacker balance change"] = after - before


async def hostile(plan: Plan) -> dict[str, int]:
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    counts: Counter[str] = Counter()

    async def bounded() -> None:  # stops by itself if never told to
        await asyncio.sleep(plan.seconds * 4 + 180)
        stop.set()

    limit = asyncio.create_task(bounded())
    attacks = [flooder(plan, k, stop, counts) for k in range(FLOODERS)]
    attacks += [never_reader(plan, stop, counts), watch_and_close(plan, stop, counts)]
    attacks.append(key_reuser(plan, stop, counts))
    for outcome in await asyncio.gather(*attacks, return_exceptions=True):
        if isinstance(outcome, BaseException):
            counts[f"attack ended by {type(outcome).__name__}"] += 1
    limit.cancel()
    return dict(counts)


# ------------------------------------------------------------------ the run


async def client_process(role: str, plan_file: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "benchmarks.soak",
        role,
        str(plan_file),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
    )


async def result_of(process: asyncio.subprocess.Process, timeout: float) -> dict[str, Any]:
    """The JSON a client process prints last (bounded: killed if it takes longer)."""
    try:
        out, _ = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise RuntimeError(f"a soak client did not finish within {timeout:g} s") from None
    lines = out.decode().strip().splitlines()
    if process.returncode != 0 or not lines:
        raise RuntimeError(f"a soak client failed (status {process.returncode})")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


async def run_soak(
    tables: int = TABLES,
    players: int = PLAYERS,
    seconds: float = SECONDS,
    think: float = THINK,
    *,
    attackers: bool = True,
) -> dict[str, Any]:
    from sqlalchemy import func, select

    from pokerroom.store.db import Database
    from pokerroom.store.models import HandRecord

    database, url, server = await start_room("soak")
    folder = Path(tempfile.mkdtemp(prefix="pokerroom-soak-plan-"))
    clients: list[asyncio.subprocess.Process] = []
    try:
        tokens = await prepare_room(url, database, tables, players)
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            login = {"username": "loadfloor", "password": "load floor"}
            session = (await http.post("/api/login", json=login)).json()["token"]
            floor = {"Authorization": f"Bearer {session}"}
            opened = await http.post(
                "/api/floor/tables",
                headers=floor,
                json={"id": KEYS_TABLE, "name": "Keys", "seats": 2},
            )
            opened.raise_for_status()
            mallory = await http.post(
                "/api/signup", json={"username": "mallory", "password": "mallory's password"}
            )
            plan = Plan(url, tokens, tables, players, seconds, think, mallory.json()["token"])
            plan_file = folder / "plan.json"
            plan_file.write_text(json.dumps(dataclasses.asdict(plan)))
            honest = await client_process("honest", plan_file)
            clients.append(honest)
            if attackers:
                clients.append(await client_process("hostile", plan_file))
            played = await result_of(honest, seconds + 240)
            attacks: dict[str, Any] = {}
            if attackers:
                clients[1].send_signal(signal.SIGTERM)
                attacks = await result_of(clients[1], 120)
            faults = sum(
                t["faults"] for t in (await http.get("/api/floor/tables", headers=floor)).json()
            )
    finally:
        for process in clients:
            if process.returncode is None:
                process.kill()
                await process.wait()
        stop_room(server)
    audited = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "pokerroom.cli",
        "audit",
        "--database",
        database,
        stdout=asyncio.subprocess.PIPE,
    )
    audit_output, _ = await asyncio.wait_for(audited.communicate(), 120)
    db = Database(database)
    try:
        async with db.transaction() as session:
            cancelled = await session.scalar(
                select(func.count()).where(HandRecord.status == "cancelled")
            )
            complete = await session.scalar(
                select(func.count()).where(HandRecord.status == "complete")
            )
    finally:
        await db.close()
    return {
        **played,
        "audit_ok": audited.returncode == 0,
        "audit": audit_output.decode(),
        "hands_complete": int(complete or 0),
        "hands_cancelled": int(cancelled or 0),
        "faults": faults,
        "attacks": attacks,
    }


def run() -> Report:
    report = Report("The soak: honest bots while a hostile client attacks")
    calm = asyncio.run(run_soak(attackers=False))
    attacked = asyncio.run(run_soak(attackers=True))
    for name, figure in (("p99", "p99_ms"), ("p50", "p50_ms")):
        report.add(
            Row(
                f"{TABLES} tables x {PLAYERS} bots thinking ~{THINK:g} s, attacked: "
                f"action -> broadcast {name}",
                attacked[figure] / 1000,
                "s",
                {"the same honest load, no attackers": calm[figure] / 1000},
                higher_is_better=False,
                target="< 0.100 s" if name == "p99" else "",
            )
        )
    for name, result in (("attacked", attacked), ("calm", calm)):
        report.notes.append(
            f"{name}: {result['actions']} honest actions, p50 {result['p50_ms']:.1f} ms, p99 "
            f"{result['p99_ms']:.1f} ms, max {result['max_ms']:.1f} ms; hands complete "
            f"{result['hands_complete']}, cancelled {result['hands_cancelled']}; faults "
            f"{result['faults']}; audit {'reconciles' if result['audit_ok'] else 'FAILS'}"
        )
    report.notes.append(f"attacks: {attacked['attacks']}")
    return report


def main(argv: list[str]) -> None:
    if len(argv) == 2 and argv[0] in ("honest", "hostile"):
        plan = Plan(**json.loads(Path(argv[1]).read_text()))
        if argv[0] == "honest":
            result: Any = asyncio.run(
                play_tables(
                    plan.url, plan.tokens, plan.tables, plan.players, plan.seconds, plan.think
                )
            )
        else:
            result = asyncio.run(hostile(plan))
        print(json.dumps(result))
        return
    run().print()


if __name__ == "__main__":
    main(sys.argv[1:])
