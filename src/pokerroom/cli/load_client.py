"""The load test's client side: bots driven from processes of their own (so the client is
not the bottleneck), their timing and CPU, and a bare WebSocket echo server's messages/s
driven the same way (the ceiling the room is compared with)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import queue
import random
import resource
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import orjson

from pokerroom.bots.client import NOT_HERE, TableNotHereError, thinking
from pokerroom.cli.serve import event_loop_factory
from pokerroom.server.ops.process import free_port

BUY_IN = 20_000
CLIENTS = 2  # load client processes (each drives a share of the tables)
OPEN_TIMEOUT = 60.0  # seconds a bot's handshake may take
T = TypeVar("T")


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
    # Actions sent that nothing answered (no frame showed them, no error) before the
    # connection ended: (table, hand). Lost, unless their hand was cancelled (refunded).
    unanswered: list[tuple[str, int]] = field(default_factory=list)
    error_kinds: dict[str, int] = field(default_factory=dict)
    # Each bot not seated yet ("table/seat"): the node it asked and the table frames it has
    # had since, what a run whose bots are not all seated in time says of them.
    unseated: dict[str, str] = field(default_factory=dict)
    # Client processes share the count of seated bots and the moment measuring starts
    # (a monotonic clock is the same for every process on the machine).
    shared: tuple[Any, Any] | None = None
    # Sockets this process opened (handshake done). With ``open`` (a process of thousands
    # of sockets) one task closes them all at the run's end, not one timer a socket, and
    # ``connecting`` bounds the handshakes in flight (a storm of thousands at once times
    # out in the room's accept queue).
    opened: int = 0
    open: set[Any] | None = None
    connecting: asyncio.Semaphore | None = None

    def stop(self) -> float:
        since = self.since()
        if since is None:
            return self.seat_by
        return since + self.seconds

    def since(self) -> float | None:
        if self.shared is not None and self.measuring_since is None:
            value = self.shared[1].value
            self.measuring_since = value or None
        return self.measuring_since

    def answered(self, sent_at: float) -> None:
        """A frame answered the action sent at ``sent_at``: its time, once measuring."""
        since = self.since()
        if since is not None and sent_at >= since:
            self.latencies.append(time.monotonic() - sent_at)

    def sat(self) -> None:
        """One more bot has its seat: measuring starts when every bot has one."""
        if self.shared is None:
            self.seated += 1
            if self.seated == self.players:
                self.measuring_since = time.monotonic()
            return
        seated, since = self.shared
        with seated.get_lock():
            seated.value += 1
            if seated.value == self.players:
                since.value = time.monotonic()


async def play_seat(
    url: str,
    token: str,
    table: str,
    seat: int,
    stats: Stats,
    rng: random.Random,
    think: float,
) -> None:
    from websockets.asyncio.client import connect

    # No protocol pings from the bots: a browser sends none (the room pings them). A
    # handshake may wait a while for a busy room (thousands of sockets opening at once).
    opening = connect(
        url.replace("http", "ws", 1) + "/ws",
        max_size=2**20,
        ping_interval=None,
        open_timeout=OPEN_TIMEOUT,
    )
    if stats.connecting is not None:
        async with stats.connecting:
            ws = await opening
    else:
        ws = await opening
    async with ws:
        stats.opened += 1
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ws.send(json.dumps({"type": "watch", "table": table}))
        request = secrets.token_hex(16)  # a key names one join, never a later one (S-MONEY-3)
        join = {"type": "join", "table": table, "seat": seat, "buy_in": BUY_IN, "request": request}
        await ws.send(json.dumps(join))
        stats.unseated[f"{table}/{seat}"] = f"joined through {url}, no table frame yet"
        if stats.open is not None:
            stats.open.add(ws)
            try:
                await _play(ws, table, seat, stats, rng, think)
            finally:
                stats.open.discard(ws)
            return
        closer = asyncio.create_task(_close_at_stop(ws, stats))
        try:
            await _play(ws, table, seat, stats, rng, think)
        finally:
            closer.cancel()


async def close_all_at_stop(stats: Stats) -> None:
    """Close every socket of ``stats.open`` still open once the run is over (bots waiting
    for a frame then): one task a process."""
    while (left := stats.stop() - time.monotonic()) > 0:
        await asyncio.sleep(min(left, 0.5))  # the end moves when measuring starts
    assert stats.open is not None
    await asyncio.gather(*(ws.close() for ws in list(stats.open)), return_exceptions=True)


async def _close_at_stop(ws: Any, stats: Stats) -> None:
    """Close ``ws`` once the run is over, if its bot still waits for a frame then: one
    timer a connection, not one a frame (the client's CPU)."""
    while (left := stats.stop() - time.monotonic()) > 0:
        await asyncio.sleep(min(left, 0.5))  # the end moves when measuring starts
    await ws.close()


async def _play(
    ws: Any, table: str, seat: int, stats: Stats, rng: random.Random, think: float
) -> None:
    """One bot's decisions, from the frames it receives until the run is over."""
    sent_at: float | None = None
    # The decision we have an action in flight for: frames that still show it (a
    # player sat down meanwhile, say) must not make us act twice.
    pending: tuple[Any, ...] | None = None
    has_seat = False
    while time.monotonic() < stats.stop():
        try:
            raw = await ws.recv()
        except Exception:
            if time.monotonic() >= stats.stop():  # closed at the run's end (above)
                break
            # The room's node went: an action in flight had no answer.
            if sent_at is not None and pending is not None:
                stats.unanswered.append((table, int(pending[0])))
            raise
        if has_seat and not_ours(raw):
            # Five frames in six at a table of six are another seat's turn: the time is
            # taken as for any frame, without parsing it (the client's main cost).
            if sent_at is not None:
                stats.answered(sent_at)
                sent_at = None
            continue
        message = orjson.loads(raw)
        kind = message.get("type")
        if kind == "error":
            sent_at = pending = None  # refused: no broadcast will answer it
            stats.errors += 1
            what = message["message"].split(":")[-1].strip()[:40]
            stats.error_kinds[what] = stats.error_kinds.get(what, 0) + 1
            if not has_seat and message.get("code") in NOT_HERE:
                # The table went to another node after the lobby was read: nothing more
                # comes on this socket; the caller asks again where it runs.
                raise TableNotHereError(table)
            continue
        if kind == "hand_result":
            if stats.since() is not None:
                stats.hands.add((table, message["hand"]))
            continue
        if kind != "table":
            continue
        if not has_seat and message.get("you") == seat:
            has_seat = True
            stats.unseated.pop(f"{table}/{seat}", None)
            stats.sat()
        elif not has_seat:
            seen = [s.get("name") for s in message["seats"] if not s.get("empty")]
            stats.unseated[f"{table}/{seat}"] = f"a table frame: you {message.get('you')}, {seen}"
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
            stats.answered(sent_at)
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
            await asyncio.sleep(thinking(think, rng))
        sent_at = time.monotonic()
        stats.actions += stats.since() is not None
        await ws.send(orjson.dumps(act).decode())


TABLE_FRAME = '{"type":"table",'  # how the room writes a table frame (server/tables/views.py)


def not_ours(raw: str | bytes) -> bool:
    """A table frame that offers this seat no decision: its ``legal`` is null (only the
    frame of the seat to act has legal actions). Anything else is parsed."""
    if isinstance(raw, bytes):
        return False
    return raw.startswith(TABLE_FRAME) and '"legal":{' not in raw


def run_client(main: Coroutine[Any, Any, T]) -> T:
    """A client process's coroutine on the room's own loop (uvloop, as ``pokerroom serve``
    runs it): the load client's CPU per frame is then the room's, not the standard loop's."""
    with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
        return runner.run(main)


def cpu_seconds() -> float:
    """CPU time (user and system) this process has used."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def process_cpu_seconds(pid: int) -> float:
    """CPU time another process has used (Linux /proc; 0 where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_memory(pid: int) -> dict[str, int]:
    """Another process's resident memory now and at its peak, in bytes (Linux /proc: its
    VmRSS and VmHWM; empty where there is none)."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return {}
    fields = dict(line.split(":", 1) for line in lines if ":" in line)
    return {
        name: int(fields[key].split()[0]) * 1024
        for name, key in (("rss", "VmRSS"), ("peak", "VmHWM"))
        if key in fields
    }


def process_sockets(pid: int) -> int:
    """How many sockets another process holds open (its /proc fd links to sockets)."""
    folder = Path(f"/proc/{pid}/fd")
    count = 0
    with contextlib.suppress(OSError):
        for entry in folder.iterdir():
            with contextlib.suppress(OSError):
                count += os.readlink(entry).startswith("socket:")
    return count


def raise_file_limit(wanted: int) -> int:
    """This process's open-file limit raised towards ``wanted`` (as far as its hard limit
    allows; the processes it starts inherit it): the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def in_processes(
    target: Callable[..., None], shares: list[tuple[Any, ...]], shared: tuple[Any, ...]
) -> list[dict[str, Any]]:
    """``target(*share, *shared, results)`` in one spawned process per share; their
    results (one dict each), bounded in time: a client process that hangs is killed."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    processes = [
        context.Process(target=target, args=(*share, *shared, results), daemon=True)
        for share in shares
    ]
    for process in processes:
        process.start()
    answers: list[dict[str, Any]] = []
    deadline = time.monotonic() + 600
    try:
        while len(answers) < len(processes):
            try:
                answers.append(results.get(timeout=1.0))
            except queue.Empty:
                if time.monotonic() > deadline or not any(p.is_alive() for p in processes):
                    raise RuntimeError(
                        f"{len(processes) - len(answers)} load client processes gave no result"
                    ) from None
        return answers
    finally:
        for process in processes:
            process.join(timeout=30)
            if process.is_alive():
                process.kill()


def _connected(ready: Any) -> None:
    """One more socket is open: measuring starts once every client's are."""
    with ready.get_lock():
        ready.value += 1


def _echo_client(
    port: int, connections: int, seconds: float, start: Any, ready: Any, results: Any
) -> None:
    """One echo client process: ``connections`` sockets, each sending and awaiting its
    echo until the shared start + ``seconds``."""
    from websockets.asyncio.client import connect

    async def main() -> dict[str, Any]:
        count = 0

        async def one() -> None:
            nonlocal count
            async with connect(f"ws://127.0.0.1:{port}/") as ws:
                _connected(ready)
                while not start.value:
                    await asyncio.sleep(0.01)
                while time.monotonic() < start.value + seconds:
                    await ws.send('{"type":"ping"}')
                    await ws.recv()
                    count += 1

        cpu = cpu_seconds()
        await asyncio.gather(*(one() for _ in range(connections)))
        return {"count": count, "cpu": cpu_seconds() - cpu}

    results.put(run_client(main()))


def _table_echo_client(
    port: int,
    tables: int,
    players: int,
    seconds: float,
    first: int,
    start: Any,
    ready: Any,
    results: Any,
) -> None:
    """One process of the table echo's clients: ``tables`` tables of ``players`` sockets.
    A socket reads every frame as a bot does (a quick look; the frame naming it parsed
    whole) and answers the frame that names it with an action, until the shared start +
    ``seconds``."""
    from websockets.asyncio.client import connect

    async def main() -> dict[str, Any]:
        count = 0

        async def seat(ws: Any, n: int) -> None:
            nonlocal count
            with contextlib.suppress(Exception):  # closed at the end, mid-read
                while True:
                    raw = await ws.recv()
                    if '"actor":true' not in raw:
                        continue
                    orjson.loads(raw)
                    count += time.monotonic() < start.value + seconds
                    await ws.send(orjson.dumps({"type": "act", "seat": n}).decode())

        async def table(number: int) -> None:
            path = f"ws://127.0.0.1:{port}/{first}-{number}"
            sockets = [await connect(path, max_size=2**20) for _ in range(players)]
            for _ in sockets:
                _connected(ready)
            while not start.value:
                await asyncio.sleep(0.01)
            reading = [asyncio.create_task(seat(ws, n)) for n, ws in enumerate(sockets)]
            await sockets[-1].send('{"type":"act","seat":-1}')  # the first frame names seat 0
            await asyncio.sleep(max(0.0, start.value + seconds - time.monotonic()))
            for ws in sockets:
                await ws.close()
            await asyncio.gather(*reading)

        cpu = cpu_seconds()
        await asyncio.gather(*(table(number) for number in range(tables)))
        return {"count": count, "cpu": cpu_seconds() - cpu}

    results.put(run_client(main()))


async def echo_ceiling(
    seconds: float, clients: int = 50, processes: int = CLIENTS
) -> dict[str, Any]:
    """The echo server's messages/s, with its CPU and the client processes' (in cores)."""
    shares = [(len(range(k, clients, processes)), seconds) for k in range(processes)]
    figures = await _echo_server("app", _echo_client, shares, seconds, clients)
    figures["messages_per_second"] = figures.pop("count") / seconds
    return figures


async def table_echo_ceiling(
    seconds: float,
    tables: int = 100,
    players: int = 6,
    processes: int = CLIENTS,
    cpus: set[int] | None = None,
) -> dict[str, Any]:
    """The WebSocket ceiling for actions: ``tables`` x ``players`` sockets on an
    echo server that answers a message as the room answers an action, with no poker in
    between (``server.ops.echo.tables``: a frame of a table frame's size to each socket of the
    table, the next in turn acting on it as a bot does); its actions/s, and CPU in cores.
    ``cpus``: the cores the echo server may run on (by default this process's)."""
    shares = [(len(range(k, tables, processes)), players, seconds, k) for k in range(processes)]
    figures = await _echo_server(
        "tables", _table_echo_client, shares, seconds, tables * players, cpus=cpus
    )
    figures["actions_per_second"] = figures.pop("count") / seconds
    return figures


async def _echo_server(
    app: str,
    client: Callable[..., None],
    shares: list[tuple[Any, ...]],
    seconds: float,
    sockets: int,
    cpus: set[int] | None = None,
) -> dict[str, Any]:
    """``pokerroom.server.ops.echo:<app>`` under uvicorn, driven by one ``client`` process a
    share for ``seconds`` from a shared start, once all their ``sockets`` are open: the
    clients' summed count, the CPUs."""
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            f"pokerroom.server.ops.echo:{app}",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--ws-per-message-deflate",
            "false",
        ],
    )
    if cpus is not None:
        os.sched_setaffinity(server.pid, cpus)
    try:
        for _ in range(100):
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", port), timeout=0.2),
            ):
                break
            await asyncio.sleep(0.1)
        context = multiprocessing.get_context("spawn")
        start, ready = context.Value("d", 0.0), context.Value("i", 0)
        loop = asyncio.get_running_loop()
        running = loop.run_in_executor(
            None, in_processes, client, [(port, *share) for share in shares], (start, ready)
        )
        empty = process_memory(server.pid).get("rss", 0)
        # The client processes start and connect (slowly on a busy machine; bounded).
        for _ in range(1200):
            if ready.value >= sockets or running.done():
                break
            await asyncio.sleep(0.1)
        connected = process_memory(server.pid).get("rss", 0)
        served = process_cpu_seconds(server.pid)
        start.value = time.monotonic()
        done = await running
        served = process_cpu_seconds(server.pid) - served
        return {
            "count": sum(d["count"] for d in done),
            "server_cpu": served / seconds,
            "client_cpu": sum(d["cpu"] for d in done) / seconds,
            # What the server's resident memory grew by as the sockets opened, per socket.
            "memory_per_connection_kb": (connected - empty) / 1024 / max(ready.value, 1),
        }
    finally:
        server.terminate()
        server.wait(timeout=10)
