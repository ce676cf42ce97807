"""The room a load test plays in (``pokerroom loadtest``, one node or several): a fresh
database, a room in its own process started and stopped, its tables opened through the
floor API and its players signed up."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from pokerroom.server.ops.process import free_port, spawn_room

TABLES_PER_ACCOUNT = 40  # 40 buy-ins fit in one account's starting balance
SETUP_REQUESTS = 8  # the setup's HTTP requests in flight at once


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
        # A few requests in flight at once: thousands of tables open in seconds, not minutes.
        at_once = asyncio.Semaphore(SETUP_REQUESTS)

        async def open_table(t: int) -> None:
            where = url if not table_urls else table_urls[t % len(table_urls)]
            async with at_once:
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

        async def sign_up(k: int) -> str:
            async with at_once:
                response = await http.post(
                    "/api/signup", json={"username": f"load{k}", "password": "load player"}
                )
            return str(response.json()["token"])

        await asyncio.gather(*(open_table(t) for t in range(tables)))
        # Accounts multi-table as people do (one seat per account per table), so the
        # setup is a few argon2 sign-ups, not one per seat.
        groups = -(-tables // TABLES_PER_ACCOUNT)
        return list(await asyncio.gather(*(sign_up(k) for k in range(players * groups))))


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
