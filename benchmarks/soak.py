"""The soak, in three processes on this machine.

The room runs in its own process (``pokerroom serve``, as the load test starts it); honest
light bots play at several tables from a second; a hostile client in a third, for the whole
run and in loops: floods as a logged-in player (closed for flooding, connects again), never
reads (dropped when its queue is full, connects again), watches anonymously and hangs up at
once, and reuses a join's request key after leaving. Three more attack one account's share
(S-ISOLATE-1): a chatter on 40 sockets, a sat-out player toggling its options from 20 sockets
just under each connection's rate at an honest table, and a flooder of ``options`` from the
honest players' own address (127.0.0.1), reopening each socket closed; the chatter and the
toggler come from addresses of their own (127.0.0.2, 127.0.0.3: loopback has them all), and
a spectator (127.0.0.4) counts the frames the honest table sends it and the chat it shows.
Afterwards ``pokerroom audit`` must reconcile the room's database to the chip, no hand may
have been cancelled, no table may have faulted and the attacker's balance must be what it
was. The honest players' action to broadcast p50/p99 and the hands dealt are printed beside
the same honest load without the attackers.

``python -m benchmarks.soak`` runs both and prints the report; the ``honest`` and
``hostile`` arguments are the two client processes (given a plan file by the first).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
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
from pokerroom.cli.load_room import prepare_room, start_room, stop_room
from pokerroom.cli.loadtest import play_tables

TABLES, PLAYERS, SECONDS, THINK = 8, 6, 30.0, 1.0
FLOODERS = 2  # flooding connections at once (each connects again once closed)
FLOOD = 5_000  # messages one flooding connection sends, as fast as the socket takes them
NEVER_READ_SECONDS = 120.0  # the longest one never-reading connection asks for frames
NEVER_READ_RATE = 90  # "watch" requests a second (each answered with a whole table), under
# the connection's rate limit: the frames pile up in the kernel's buffers, then its queue
KEYS_TABLE = "soak-keys"
CHAT_SOCKETS = 40  # one account's sockets, each chatting under its connection's old limit
CHAT_EVERY = 2.0  # seconds between two lines of one chatting socket
TOGGLE_SOCKETS = 20  # one sat-out account's sockets toggling auto-post ...
TOGGLE_RATE = 90  # ... this many times a second each (the connection's rate is 100)
SAME_ADDRESS_FLOODERS = 4  # sockets flooding ``options`` from the bots' address at once
TOGGLED_TABLE = "load-0"  # where the toggler sits out (and the spectator watches)
FLOODED_TABLE = "load-1"  # where the same-address flooder sits out (when there are two)
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
    chatter: str = ""  # the other attackers' tokens: the chatter's ...
    toggler: str = ""  # ... the sat-out toggler's ...
    options_flooder: str = ""  # ... and the same-address flooder's
    flood_from: str = "127.0.0.1"  # the options flooder's address (the bots': 127.0.0.1)


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


def from_address(plan: Plan, address: str) -> socket.socket:
    """A TCP connection to the room from ``address`` (a loopback address of its own)."""
    host, port = plan.url.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), source_address=(address, 0))


async def logged_in(plan: Plan, token: str, address: str) -> ClientConnection:
    ws = await connect(ws_url(plan.url), sock=from_address(plan, address), max_size=2**20)
    await ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


async def sit_out(plan: Plan, token: str, table: str, address: str) -> None:
    """Take the table's spare seat and sit out, before the bots sit down (so that no hand is
    dealt to it first): a sat-out player's options change nothing in play, yet each was
    re-broadcast to every watcher."""
    async with await logged_in(plan, token, address) as ws:
        await ws.send(json.dumps({"type": "watch", "table": table}))
        join = {"type": "join", "table": table, "seat": plan.players + 1, "buy_in": 20_000}
        await ws.send(json.dumps({**join, "request": f"sit-{table}"}))
        await answer(ws, seat=plan.players + 1, timeout=60)  # bounded, a busy machine
        await ws.send(json.dumps({"type": "sit_out", "table": table}))
        async with asyncio.timeout(60):
            while True:
                frame: dict[str, Any] = json.loads(await ws.recv())
                if frame.get("type") == "error":
                    raise RuntimeError(f"{table}: the attacker did not sit out: {frame}")
                seats = frame.get("seats") or []
                if any(
                    s["seat"] == plan.players + 1 and s.get("status") == "sitting_out"
                    for s in seats
                ):
                    return


async def drain(ws: ClientConnection, counts: Counter[str], prefix: str) -> None:
    """Read what the room sends (counting refusals by code) until the socket closes."""
    with contextlib.suppress(ConnectionClosed):
        async for raw in ws:
            frame = json.loads(raw)
            if frame.get("type") == "error":
                counts[f"{prefix} refused {frame.get('code')}"] += 1


async def chatter(plan: Plan, k: int, stop: asyncio.Event, counts: Counter[str]) -> None:
    """One of the chatting account's sockets: a line every ``CHAT_EVERY`` s (12 a minute;
    the connection's own limit allowed 30), forever."""
    async with await logged_in(plan, plan.chatter, "127.0.0.2") as ws:
        reading = asyncio.create_task(drain(ws, counts, "chat"))
        await asyncio.sleep(k * CHAT_EVERY / CHAT_SOCKETS)  # spread over the interval
        with contextlib.suppress(ConnectionClosed):
            while not stop.is_set():
                line = {"type": "chat", "table": TOGGLED_TABLE, "text": f"buy my chips {k}"}
                await ws.send(json.dumps(line))
                counts["chat sent"] += 1
                await asyncio.sleep(CHAT_EVERY)
        reading.cancel()


async def toggler(plan: Plan, k: int, stop: asyncio.Event, counts: Counter[str]) -> None:
    """One of the sat-out player's sockets: auto-post off and on, ``TOGGLE_RATE`` a second."""
    async with await logged_in(plan, plan.toggler, "127.0.0.3") as ws:
        reading = asyncio.create_task(drain(ws, counts, "toggle"))
        on = False
        with contextlib.suppress(ConnectionClosed):
            while not stop.is_set():
                for _ in range(TOGGLE_RATE // 10):
                    on = not on
                    toggle = {"type": "options", "table": TOGGLED_TABLE, "auto_post": on}
                    await ws.send(json.dumps(toggle))
                    counts["toggle sent"] += 1
                await asyncio.sleep(0.1)
        reading.cancel()


async def options_flooder(plan: Plan, stop: asyncio.Event, counts: Counter[str]) -> None:
    """``options`` as fast as the socket takes them, from the bots' own address; a socket
    closed for flooding is opened again at once."""
    table = FLOODED_TABLE if plan.tables > 1 else TOGGLED_TABLE
    frame = json.dumps({"type": "options", "table": table, "auto_post": True})
    while not stop.is_set():
        try:
            ws = await logged_in(plan, plan.options_flooder, plan.flood_from)
        except Exception:  # refused (the address's connections): try again
            counts["options flood connection refused"] += 1
            await asyncio.sleep(0.05)
            continue
        async with ws:
            with contextlib.suppress(ConnectionClosed):
                while not stop.is_set():
                    await ws.send(frame)
                    counts["options flood sent"] += 1
            code = await closed_code(ws)
        counts[f"options flood closed {code}"] += 1


async def spectator(plan: Plan, stop: asyncio.Event, counts: Counter[str]) -> None:
    """Watches the toggled table: the table frames it gets, and the chatter's lines."""
    async with connect(ws_url(plan.url), sock=from_address(plan, "127.0.0.4")) as ws:
        await ws.send(json.dumps({"type": "watch", "table": TOGGLED_TABLE}))
        began = time.monotonic()
        with contextlib.suppress(ConnectionClosed):
            while not stop.is_set():
                try:
                    async with asyncio.timeout(1):
                        frame = json.loads(await ws.recv())
                except TimeoutError:
                    continue
                if frame.get("type") == "table":
                    counts["spectator table frames"] += 1
                elif frame.get("type") == "chat" and "buy my chips" in frame.get("text", ""):
                    counts["spectator chat lines from the chatter"] += 1
        counts["spectator seconds"] = round(time.monotonic() - began)


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


async def answer(
    ws: ClientConnection, *, seat: int | None, timeout: float = 10.0
) -> dict[str, Any]:
    """The next error, or table frame that shows the attacker at ``seat`` (None: standing)."""
    async with asyncio.timeout(timeout):
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


async def watching(plan: Plan) -> dict[str, int]:
    """The spectator's process (in the calm run too): until told to stop."""
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    counts: Counter[str] = Counter()
    try:
        async with asyncio.timeout(plan.seconds * 4 + 180):  # stops by itself if never told
            await spectator(plan, stop, counts)
    except TimeoutError:
        pass
    return dict(counts)


# Each hostile process's attacks (one process each: an attacker flat out in a client loop
# would starve the others sharing it, and measure its own loop, not the room).
HOSTILE = ("hostile", "chatter", "toggler", "options-flood")


async def hostile(plan: Plan, role: str = "hostile") -> dict[str, int]:
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    counts: Counter[str] = Counter()

    async def bounded() -> None:  # stops by itself if never told to
        await asyncio.sleep(plan.seconds * 4 + 180)
        stop.set()

    limit = asyncio.create_task(bounded())
    if role == "hostile":
        attacks = [flooder(plan, k, stop, counts) for k in range(FLOODERS)]
        attacks += [never_reader(plan, stop, counts), watch_and_close(plan, stop, counts)]
        attacks.append(key_reuser(plan, stop, counts))
    elif role == "chatter":
        attacks = [chatter(plan, k, stop, counts) for k in range(CHAT_SOCKETS)]
    elif role == "toggler":
        attacks = [toggler(plan, k, stop, counts) for k in range(TOGGLE_SOCKETS)]
    else:
        attacks = [options_flooder(plan, stop, counts) for _ in range(SAME_ADDRESS_FLOODERS)]
    for outcome in await asyncio.gather(*attacks, return_exceptions=True):
        if isinstance(outcome, BaseException):
            counts[f"attack ended by {type(outcome).__name__}"] += 1
    limit.cancel()
    return dict(counts)


# ------------------------------------------------------------------ the run


def lowest_priority() -> None:
    os.nice(19)


async def client_process(role: str, plan_file: Path) -> asyncio.subprocess.Process:
    """One client process. The attackers run at the lowest CPU priority: on a real network
    their loops run on machines of their own, and on this two-core machine four flat-out
    attacking processes at equal priority would measure how they starve the honest clients'
    process (and the room) of the cores, not what they do to the room through its sockets."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "benchmarks.soak",
        role,
        str(plan_file),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        preexec_fn=lowest_priority if role in HOSTILE else None,
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
    flood_from: str = "127.0.0.1",
) -> dict[str, Any]:
    from sqlalchemy import func, select

    from pokerroom.store.db import Database
    from pokerroom.store.models import HandRecord

    database, url, server = await start_room("soak")
    folder = Path(tempfile.mkdtemp(prefix="pokerroom-soak-plan-"))
    clients: list[asyncio.subprocess.Process] = []
    try:
        tokens = await prepare_room(url, database, tables, players, spare_seats=1)
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
            attacker_tokens = []
            for name in ("mallory", "chatter", "toggler", "optionsflood"):
                signed = await http.post(
                    "/api/signup", json={"username": name, "password": f"{name}'s password"}
                )
                attacker_tokens.append(signed.json()["token"])
            plan = Plan(url, tokens, tables, players, seconds, think, *attacker_tokens, flood_from)
            plan_file = folder / "plan.json"
            plan_file.write_text(json.dumps(dataclasses.asdict(plan)))
            if attackers:  # seated and sat out at tables nobody else sits at yet
                await sit_out(plan, plan.toggler, TOGGLED_TABLE, "127.0.0.3")
                flooded = FLOODED_TABLE if plan.tables > 1 else TOGGLED_TABLE
                await sit_out(plan, plan.options_flooder, flooded, plan.flood_from)
            honest = await client_process("honest", plan_file)
            clients.append(honest)
            clients.append(await client_process("spectator", plan_file))
            for role in HOSTILE if attackers else ():
                clients.append(await client_process(role, plan_file))
            played = await result_of(honest, seconds + 240)
            attacks: Counter[str] = Counter()
            for process in clients[1:]:
                with contextlib.suppress(ProcessLookupError):  # ended already: its result
                    process.send_signal(signal.SIGTERM)
            watched = await result_of(clients[1], 120)
            for process in clients[2:]:
                attacks.update(await result_of(process, 120))
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
        "attacks": dict(attacks),
        "watched": watched,
    }


def frames_per_second(result: dict[str, Any]) -> float:
    watched = result["watched"]
    return float(watched.get("spectator table frames", 0)) / max(
        1, watched.get("spectator seconds", 1)
    )


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
    report.add(
        Row(
            f"{TABLES} tables, attacked: hands dealt a second (the bots' measured window)",
            attacked["hands_per_second"],
            "hands/s",
            {"the same honest load, no attackers": calm["hands_per_second"]},
            target=f"> {0.9 * calm['hands_per_second']:.2f} (90% of calm)",
        )
    )
    report.add(
        Row(
            f"a spectator of {TOGGLED_TABLE}, attacked: table frames a second",
            frames_per_second(attacked),
            "frames/s",
            {"the same honest load, no attackers": frames_per_second(calm)},
            higher_is_better=False,
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
    report.notes.append(f"the spectator: attacked {attacked['watched']}, calm {calm['watched']}")
    return report


def main(argv: list[str]) -> None:
    if len(argv) == 2 and argv[0] in ("honest", "spectator", *HOSTILE):
        plan = Plan(**json.loads(Path(argv[1]).read_text()))
        if argv[0] == "honest":
            result: Any = asyncio.run(
                play_tables(
                    plan.url, plan.tokens, plan.tables, plan.players, plan.seconds, plan.think
                )
            )
        elif argv[0] == "spectator":
            result = asyncio.run(watching(plan))
        else:
            result = asyncio.run(hostile(plan, argv[0]))
        print(json.dumps(result))
        return
    run().print()


if __name__ == "__main__":
    main(sys.argv[1:])
