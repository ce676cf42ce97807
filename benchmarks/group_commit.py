"""Group commit: hands starting and ending at many tables at once, written by the
database's one writer in batches, beside the same hands each written in a transaction of
its own, on SQLite and PostgreSQL. CPU time per hand start and per hand end (less sensitive
than wall time to a busy machine) and wall time, medians of several runs; the hands are real
(tests/store/test_group_commit). Measured in a steady state, as in a room that has run a
while: each database's first round of hands (its connection opened, its statements
prepared and cached) is written before the clock starts.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from tests.helpers.writer import NOW, Ended, play_out, tables_with_hands_over
from tests.store.conftest import drop_postgres, fresh_postgres

from benchmarks.report import Report, Row
from pokerroom.store.db import Database, sqlite_url
from pokerroom.store.tables.hands import begin_hand_sync, finish_hand_sync
from pokerroom.store.tables.store import RoomStore

HANDS, ROUNDS, REPEATS = 40, 3, 3


@dataclass
class Times:
    """CPU and wall seconds per hand start and per hand end, summed over the timed rounds."""

    start_cpu: float = 0.0
    start_wall: float = 0.0
    end_cpu: float = 0.0
    end_wall: float = 0.0
    wal_bytes: float = 0.0  # PostgreSQL's WAL written per hand (start and end), server-wide


async def _timed(writes: list[Callable[[], Awaitable[Any]]]) -> tuple[Any, float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    results = await asyncio.gather(*(write() for write in writes))
    return results, time.process_time() - cpu, time.perf_counter() - wall


async def _write(url: str, grouped: bool) -> Times:
    """Per hand, for HANDS tables starting (and then ending) a hand at once, ROUNDS times."""
    db = Database(url)
    store = RoomStore(db)
    times = Times()
    try:
        await db.migrate()
        ended = await tables_with_hands_over(db, HANDS)
        await _end(db, store, ended, grouped)  # the warm-up round, not timed
        wal = await _wal_position(db)
        for _ in range(ROUNDS):
            for one in ended:  # dealt in memory
                one.table.start_hand(2.0)
            begins = [partial(_begin, db, store, one, grouped) for one in ended]
            started, cpu, wall = await _timed(begins)
            times.start_cpu += cpu
            times.start_wall += wall
            ended = [play_out(one, begun) for one, begun in zip(ended, started, strict=True)]
            _, cpu, wall = await _timed([partial(_end_one, db, store, e, grouped) for e in ended])
            times.end_cpu += cpu
            times.end_wall += wall
        if wal is not None:
            times.wal_bytes = float(await _wal_position(db) or 0) - wal
        rounds = ROUNDS * HANDS
        return Times(*(value / rounds for value in vars(times).values()))
    finally:
        await db.close()


async def _wal_position(db: Database) -> int | None:
    """PostgreSQL's WAL position in bytes (None on SQLite). Server-wide: other work on
    the server writes WAL too, so the least of several runs is the one to quote."""
    if db.is_sqlite:
        return None
    async with db.transaction() as session:
        position = await session.scalar(text("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn"))
    return int(position)


async def _begin(db: Database, store: RoomStore, one: Ended, grouped: bool) -> Any:
    hand = one.table.hand
    assert hand is not None
    fields = {"number": one.table.hand_number, "deck": list(hand.deck), "now": NOW}
    if grouped:  # the table's snapshot unchanged since its last hand's end, as in a room
        return await store.begin_hand(one.table_id, before=None, **fields)
    return await db.run(
        partial(begin_hand_sync, table_id=one.table_id, snapshot_before=None, **fields)
    )


async def _end_one(db: Database, store: RoomStore, one: Ended, grouped: bool) -> None:
    if grouped:
        await store.finish_hand(**one.fields)
    else:
        await db.run(partial(finish_hand_sync, **one.fields))


async def _end(db: Database, store: RoomStore, ended: list[Ended], grouped: bool) -> None:
    await asyncio.gather(*(_end_one(db, store, one, grouped) for one in ended))


class Fresh:
    """A fresh database per run: a SQLite file, or a PostgreSQL database dropped after."""

    def __init__(self, postgres: bool) -> None:
        self.postgres = postgres
        self.names: list[str] = []

    async def make(self) -> str:
        if not self.postgres:
            return sqlite_url(Path(tempfile.mkdtemp(prefix="pokerroom-gc-")) / "gc.db")
        name, url = await fresh_postgres()
        self.names.append(name)
        return url

    async def drop(self) -> None:
        while self.names:
            await drop_postgres(self.names.pop())


async def _medians(fresh: Fresh) -> dict[bool, Times]:
    runs: dict[bool, list[Times]] = {True: [], False: []}
    for _ in range(REPEATS):
        for grouped in (False, True):
            url = await fresh.make()
            try:
                runs[grouped].append(await _write(url, grouped))
            finally:
                await fresh.drop()
    return {
        grouped: Times(
            *(
                (min if name == "wal_bytes" else statistics.median)(getattr(t, name) for t in times)
                for name in vars(Times())
            )
        )
        for grouped, times in runs.items()
    }


FIGURES = (
    ("start_cpu", "CPU per hand start"),
    ("end_cpu", "CPU per hand end"),
    ("start_wall", "wall time per hand start"),
    ("end_wall", "wall time per hand end"),
)


def run() -> Report:
    report = Report(f"Group commit: {HANDS} hands starting, then ending, at once")
    for engine, postgres in (("SQLite", False), ("PostgreSQL", True)):
        try:
            result = asyncio.run(_medians(Fresh(postgres)))
        except (Exception, pytest.skip.Exception) as error:  # no PostgreSQL server here
            report.notes.append(f"{engine} not measured: {error}")
            continue
        for name, what in FIGURES:
            report.add(
                Row(
                    f"{engine}: {what}, group-committed",
                    getattr(result[True], name) * 1000,
                    "ms",
                    {"one transaction per hand": getattr(result[False], name) * 1000},
                    higher_is_better=False,
                )
            )
        if postgres:
            grouped, alone = result[True], result[False]
            report.notes.append(
                f"PostgreSQL: WAL per hand (start and end; the least of {REPEATS} runs, "
                f"the server's other work counts too) {grouped.wal_bytes:,.0f} bytes "
                f"group-committed, {alone.wal_bytes:,.0f} bytes one transaction per hand; "
                f"hand ends/s at {HANDS} tables at once, group-committed: "
                f"{1 / grouped.end_wall:,.0f} (wall)"
            )
    return report
