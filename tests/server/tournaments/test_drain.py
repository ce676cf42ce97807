"""A one-node room sent SIGTERM while a tournament hand is in play drains it as it drains a
cash table's (server/ops/drain.py): the hand completes, no other is dealt, the process exits on
its own, and started again the room resumes the event with no hand cancelled (R-DECK-5 has
nothing to undo); the books balance (S-AUDIT-2). (Several nodes:
tests/server/nodes/test_tournament_drain.py.)"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from pokerroom.bots.tournament import run_tournament_bot
from pokerroom.server.ops.process import free_port, spawn_room
from pokerroom.store.db import Database, sqlite_url
from pokerroom.store.models import HandRecord
from tests.helpers.accounts import signup
from tests.helpers.audit import audit_database
from tests.helpers.strategies import CallingStation
from tests.helpers.waiting import eventually

# sng6, played by calling stations: nobody is all in, so the hand drained cannot end the
# event (rule bots once went all in six ways in its first hand, and it was over)
ENTRANTS = 6
WAIT = 90.0  # every bounded wait (a busy machine)


async def room(database: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as output:  # the child keeps its own copy
        return await spawn_room(
            database,
            port,
            pause=0.05,
            env={"POKERROOM_DRAIN_SECONDS": "60"},
            options=("--sit-and-go", "sng6"),
            output=output,
        )


async def hands(database: str) -> dict[int, tuple[str, int, str]]:
    """Every stored hand by id: (table, number, status)."""
    db = Database(database)
    try:
        async with db.transaction() as session:
            rows = await session.execute(
                select(HandRecord.id, HandRecord.table_id, HandRecord.number, HandRecord.status)
            )
            return {int(i): (t, int(n), s) for i, t, n, s in rows}
    finally:
        await db.close()


async def sit_and_go(base: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        events = (await http.get("/api/tournaments")).json()
    found: dict[str, Any] = next(e for e in events if e["structure"]["name"] == "sng6")
    return found


@pytest.mark.skipif(os.name != "posix", reason="SIGTERM is POSIX")
async def test_sigterm_mid_tournament_hand_finishes_it_and_the_event_resumes_after_restart(
    tmp_path: Path,
) -> None:
    database, port, log = sqlite_url(tmp_path / "room.db"), free_port(), tmp_path / "room.log"
    base = f"http://127.0.0.1:{port}"
    process = await room(database, port, log)
    bots: list[asyncio.Task[Any]] = []
    try:
        tid = (await sit_and_go(base))["id"]
        tokens = [(await signup(base, f"drain_bot{k}"))["token"] for k in range(ENTRANTS)]
        bots = [
            asyncio.create_task(
                run_tournament_bot(
                    base, f"drain_bot{k}", CallingStation(), tournament=tid, token=token
                )
            )
            for k, token in enumerate(tokens)
        ]
        found: list[tuple[int, str, int]] = []

        async def mid_hand() -> bool:
            for bot in bots:
                if bot.done():
                    bot.result()  # a bot that failed fails the test now, saying why
            now = await hands(database)
            found[:] = [(i, t, n) for i, (t, n, s) in now.items() if s == "running"]
            return bool(found)

        await eventually(mid_hand, "a tournament hand in play", WAIT)
        hand, table, number = found[0]
        assert table.startswith(tid)
        process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(asyncio.to_thread(process.wait), WAIT)
        assert code == 0, log.read_text()[-3000:]
        stored = await hands(database)
        assert stored[hand][2] == "complete", log.read_text()[-3000:]  # finished, not voided
        assert all(s != "running" for _, _, s in stored.values())  # and no other dealt
        text = log.read_text()
        assert "draining" in text and "drained: no hand in play" in text
        report = await audit_database(database)
        assert report.ok, report.problems

        process = await room(database, port, log)  # the bots reconnect and play on
        event = await _event(base, tid)
        assert event["status"] == "running" and event["entrants"] == ENTRANTS

        async def dealt_on() -> bool:
            now = (await hands(database)).values()
            return any(t == table and n > number and s == "complete" for t, n, s in now)

        await eventually(dealt_on, f"{table} deals on after the restart", WAIT)
        statuses = {s for _, _, s in (await hands(database)).values()}
        assert "cancelled" not in statuses, log.read_text()[-3000:]
    finally:
        for bot in bots:
            bot.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*bots, return_exceptions=True)
        process.kill()
        process.wait(timeout=10)
    report = await audit_database(database)
    assert report.ok, report.problems


async def _event(base: str, tid: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        found: dict[str, Any] = (await http.get(f"/api/tournaments/{tid}")).json()
    return found
