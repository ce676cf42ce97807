"""A player who sits out and goes away holds a cash seat for a limited time only (the house's
``sit_out_seconds``), through a restart of the room: the heads-up table's sitting-out seat
is then cashed out to the player's balance and freed, and the books balance."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

import httpx

from pokerroom.server.ops.process import free_port, spawn_room
from pokerroom.store.audit import audit
from pokerroom.store.db import Database, sqlite_url
from tests.server.conftest import PASSWORD_SECONDS, person

TABLE = "hu-nlhe"
LIMIT = 15  # seconds a seat may sit out here
ROOM = (
    "import dataclasses\n"
    "import pokerroom.server.tables.room as room\n"
    f"limits = (('sit_out_seconds', {LIMIT}), ('decision_seconds', 6),"
    " ('warning_after_seconds', 2), ('time_bank_seconds', 0))\n"
    "room.DEMO_TABLES = tuple(\n"
    f"    dataclasses.replace(t, overrides=limits) if t.id == '{TABLE}' else t\n"
    "    for t in room.DEMO_TABLES\n"
    ")\n"
    "from pokerroom.cli.app import main\n"
    "main()\n"
)


async def start(database: str, port: int) -> subprocess.Popen[bytes]:
    return await spawn_room(database, port, pause=0.3, python=("-c", ROOM))


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


async def me(base: str, token: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=PASSWORD_SECONDS) as http:
        response = await http.get("/api/me", headers={"Authorization": f"Bearer {token}"})
        response.raise_for_status()
        return dict(response.json())


async def test_a_sitting_out_seat_is_cashed_out_and_freed_in_time_through_a_restart(
    tmp_path: Path,
) -> None:
    database, port = sqlite_url(tmp_path / "room.db"), free_port()
    base = f"http://127.0.0.1:{port}"
    process = await start(database, port)
    try:
        ann = await person(base, "ann_away")
        bob = await person(base, "bob_here")
        start_balance = (await me(base, ann.token))["balance"]
        await ann.send(type="watch", table=TABLE)
        await ann.send(type="join", table=TABLE, seat=1, buy_in=10_000, request="a1")
        await ann.until(lambda f: f["you"] == 1)
        await ann.send(type="sit_out", table=TABLE)
        await ann.until(lambda f: f["you"] == 1 and f["seats"][0]["status"] == "sitting_out")
        await bob.send(type="watch", table=TABLE)
        await bob.send(type="join", table=TABLE, seat=2, buy_in=10_000, request="b1")
        await bob.until(lambda f: f["you"] == 2)
        await ann.ws.close()  # she has gone away
        await bob.ws.close()

        stop(process)  # the room restarts with her seat taken and sitting out
        process = await start(database, port)
        watcher = await person(base, "cy_watch")
        await watcher.send(type="watch", table=TABLE)
        deadline = time.monotonic() + 180  # bounded: the limit, and a hand or two of clocks
        while True:
            frame = await watcher.next("table", 60)
            if frame["seats"][0].get("empty"):
                break
            assert time.monotonic() < deadline, "the sitting-out seat was never freed"
        await watcher.ws.close()

        # Cashed out: her balance has her stack back (what her hands won or lost, if any
        # were dealt to her before she sat out again), and she sits nowhere.
        account = await me(base, ann.token)
        async with httpx.AsyncClient(base_url=base, timeout=PASSWORD_SECONDS) as http:
            hands = (
                await http.get(
                    "/api/hands",
                    params={"table": TABLE},
                    headers={"Authorization": f"Bearer {ann.token}"},
                )
            ).json()
        assert account["balance"] == start_balance + sum(h["net"] for h in hands), (
            account,
            hands,
        )
    finally:
        stop(process)
    db = Database(database)
    try:
        async with db.transaction() as session:
            report = await audit(session)
        assert report.ok, report.problems
    finally:
        await db.close()
