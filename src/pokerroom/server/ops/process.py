"""The room in a process of its own (``pokerroom serve``), for the load test and crash tests."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import socket
import subprocess
import sys
import time
from typing import Any

import httpx


def spawn_node(
    database: str,
    node: str,
    port: int,
    *,
    lease: float,
    renew: float,
    output: Any = subprocess.DEVNULL,
    redis: str | None = None,
    redis_prefix: str | None = None,
    sockets_only: bool = False,
    drain: float = 0.0,
    cpus: set[int] | None = None,
) -> subprocess.Popen[bytes]:
    """``pokerroom serve --node-id node`` on 127.0.0.1:``port``, without bots,
    its leases lasting ``lease`` seconds and renewed every ``renew``, on the nodes' ``redis``
    if given, under ``redis_prefix`` if given (a test's room of its own on a Redis database
    that another run may use at the same time); ``sockets_only``: a node that runs no table;
    its output (JSON log lines) to ``output``; ``drain``: its ``--drain-seconds`` (none by
    default: a load test or a test's teardown stops it at once, as a crash would); ``cpus``:
    the cores it may run on (by default those of this process). Returns at once (the caller
    waits for it to answer)."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pokerroom.cli",
            "serve",
            "--no-bots",
            "--pause",
            "0.05",
            "--port",
            str(port),
            "--database",
            database,
            "--node-id",
            node,
            "--lease-seconds",
            str(lease),
            "--renew-seconds",
            str(renew),
            *(["--redis", redis] if redis else []),
            *(["--redis-prefix", redis_prefix] if redis_prefix else []),
            *(["--sockets-only"] if sockets_only else []),
            "--drain-seconds",
            str(drain),
        ],
        stdout=output,
        stderr=output,
        env={**os.environ, "POKERROOM_CONNECTIONS_PER_ADDRESS": "100000"},
    )
    if cpus is not None:  # set before Python starts its threads: they inherit it
        os.sched_setaffinity(process.pid, cpus)
    return process


PORTS = range(20_000, 32_768)  # below Linux's ephemeral ports (ip_local_port_range)


def free_port() -> int:
    """A free TCP port on the loopback interface, for a room started next. Drawn below the
    ephemeral ports: a port the kernel hands out (``bind`` to port 0, a client's side of a
    connection) could be given to another process between this probe and the room's bind,
    and a test would then talk to that other room."""
    for _ in range(1000):
        port = random.choice(PORTS)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:  # taken: draw again
                continue
            return port
    raise RuntimeError(f"no free port in {PORTS.start}-{PORTS.stop - 1} after 1000 draws")


async def spawn_room(
    database: str,
    port: int,
    *,
    pause: float,
    seconds: float = 60.0,  # its imports and migrations take seconds on a busy machine
    bots: bool = False,
    python: tuple[str, ...] = ("-m", "pokerroom.cli"),
    env: dict[str, str] | None = None,
    options: tuple[str, ...] = (),
    output: Any = subprocess.DEVNULL,
) -> subprocess.Popen[bytes]:
    """Start ``pokerroom serve`` on 127.0.0.1 (bots at the demo tables only when asked)
    and return once it answers. ``python``: what runs the command line (a test may put
    ``-c`` and code that changes the room before it starts); ``env``: more settings;
    ``options``: more of the command's options; ``output``: where its log lines go. It
    stops at once when terminated (no drain: POKERROOM_DRAIN_SECONDS 0, unless ``env`` says).

    Bounded: if it does not answer within ``seconds`` it is killed and an error raised.
    """
    process = subprocess.Popen(
        [
            sys.executable,
            *python,
            "serve",
            "--bots" if bots else "--no-bots",
            "--pause",
            str(pause),
            "--port",
            str(port),
            "--database",
            database,
            *options,
        ],
        stdout=output,
        stderr=output,
        # Load tests open hundreds of sockets from this one address (docs/security.md).
        env={
            **os.environ,
            "POKERROOM_CONNECTIONS_PER_ADDRESS": "100000",
            "POKERROOM_DRAIN_SECONDS": "0",
            **(env or {}),
        },
    )
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
        while time.monotonic() < deadline and process.poll() is None:
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get("/api/lobby")).status_code == 200:
                    return process
            await asyncio.sleep(0.05)
    ended = process.poll()
    process.kill()
    process.wait(timeout=10)
    why = f"it ended with exit code {ended}" if ended is not None else f"{seconds:.0f} s passed"
    raise RuntimeError(f"the room did not come up on port {port}: {why}")
