"""Delivering a table's frames: the room's CPU per action (one frame to each of
six sockets) written straight to the sockets (server/sockets/wire.py) beside the same frames queued
for each connection's writer task and sent through uvicorn's own ``send`` (as before).

The room is the real app on uvicorn (its /ws route, ``Client``, ``RawSocketSend``); the
readers are another process, so the CPU measured (the event loop thread's, user and system:
the send system calls count) is the sending alone. Blocks of each way alternate."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path

import uvicorn
import uvloop

from benchmarks.report import Report, Row
from pokerroom.server.app import create_app
from pokerroom.server.ops.process import free_port
from pokerroom.server.sockets.client import Client
from pokerroom.server.sockets.wire import DirectSocket
from pokerroom.store.db import sqlite_url

TABLES, SEATS = 20, 6
ACTIONS, BLOCKS = 3_000, 5  # actions per block, blocks of each way
FRAME_BYTES = 1_500  # about a table frame's size flat out


def _read(url: str, connections: int) -> None:
    """The readers' process: ``connections`` sockets, each reading until closed."""

    async def one() -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        async with connect(url, max_size=2**20) as ws:
            try:
                while True:
                    await ws.recv()
            except ConnectionClosed:
                return

    async def main() -> None:
        await asyncio.gather(*(one() for _ in range(connections)), return_exceptions=True)

    uvloop.run(main())


def _frames(count: int) -> list[str]:
    """Distinct frames (each seat's own, as flat out: none is framed twice)."""
    pad = "x" * (FRAME_BYTES - 40)
    return [json.dumps({"type": "table", "n": n, "pad": pad}) for n in range(count)]


async def _block(clients: list[Client], frames: list[str]) -> float:
    """The loop thread's CPU seconds per action for ACTIONS actions, each one frame to each
    of a table's six clients and one pass of the loop, until every frame is written."""
    cpu = time.thread_time()
    at = 0
    for action in range(ACTIONS):
        table = action % TABLES
        for client in clients[table * SEATS : (table + 1) * SEATS]:
            client.deliver(frames[at])
            at = (at + 1) % len(frames)
        await asyncio.sleep(0)
    while any(c.pending for c in clients):  # the writers' part of it, if queued
        await asyncio.sleep(0)
    return (time.thread_time() - cpu) / ACTIONS


async def _measure() -> dict[str, float]:
    folder = Path(tempfile.mkdtemp(prefix="pokerroom-sends-"))
    app = create_app(sqlite_url(folder / "room.db"), demo=False)
    port = free_port()
    config = uvicorn.Config(app, port=port, log_level="warning", ws_per_message_deflate=False)
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.05)
    room = app.state.room
    room.limits = dataclasses.replace(room.limits, connections_per_address=10**6)
    readers = multiprocessing.get_context("spawn").Process(
        target=_read, args=(f"ws://127.0.0.1:{port}/ws", TABLES * SEATS)
    )
    readers.start()
    try:
        while len(room.clients) < TABLES * SEATS:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)  # the welcomes are read
        clients: list[Client] = list(room.clients)
        sockets: list[DirectSocket | None] = [c.socket for c in clients]
        assert all(s is not None for s in sockets), "not uvicorn's websockets-sansio protocol"
        frames = _frames(TABLES * SEATS * 7)
        cpu: dict[str, list[float]] = {"queued": [], "direct": []}
        await _block(clients, frames)  # warm-up
        for _ in range(BLOCKS):
            for way in ("queued", "direct"):
                for client, socket in zip(clients, sockets, strict=True):
                    client.socket = socket if way == "direct" else None
                cpu[way].append(await _block(clients, frames))
        assert not any(c.closed for c in clients)
        return {way: statistics.median(v) for way, v in cpu.items()}
    finally:
        server.should_exit = True
        await serving
        readers.join(timeout=10)
        if readers.is_alive():
            readers.kill()


def measure() -> dict[str, float]:
    return uvloop.run(_measure())


def run() -> Report:
    report = Report(f"Sending a table's frames: {SEATS} sockets an action")
    result = measure()
    report.add(
        Row(
            "room CPU per action, frames written straight to the sockets",
            result["direct"] * 1e6,
            "us",
            {"queued for each connection's writer task": result["queued"] * 1e6},
            higher_is_better=False,
        )
    )
    return report


if __name__ == "__main__":
    figures = measure()
    print(
        json.dumps({k: round(v * 1e6, 1) for k, v in figures.items()}),
        f"ratio {figures['direct'] / figures['queued']:.3f}",
        file=sys.stdout,
    )
