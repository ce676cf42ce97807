"""Group commit (issue 15): hands ending at many tables at once, written by the database's
one writer in batches, beside the same hands each written in a transaction of its own, on
SQLite and PostgreSQL. CPU time per hand (less sensitive than wall time to a busy machine)
and wall time, medians of several runs; the hands are real (tests/store/test_group_commit).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from functools import partial
from pathlib import Path

import pytest
from tests.store.conftest import drop_postgres, fresh_postgres
from tests.store.test_group_commit import tables_with_hands_over

from benchmarks.report import Report, Row
from pokerroom.store.db import Database, sqlite_url
from pokerroom.store.hands import finish_hand_sync
from pokerroom.store.room_store import RoomStore

HANDS, REPEATS = 40, 3


async def _write(url: str, grouped: bool) -> tuple[float, float]:
    """CPU and wall seconds per hand for HANDS hands' ends written at once."""
    db = Database(url)
    try:
        await db.migrate()
        ended = await tables_with_hands_over(db, HANDS)
        cpu, wall = time.process_time(), time.perf_counter()
        if grouped:
            await asyncio.gather(*(RoomStore(db).finish_hand(**e.fields) for e in ended))
        else:
            await asyncio.gather(*(db.run(partial(finish_hand_sync, **e.fields)) for e in ended))
        return (time.process_time() - cpu) / HANDS, (time.perf_counter() - wall) / HANDS
    finally:
        await db.close()


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


async def _medians(fresh: Fresh) -> dict[bool, tuple[float, float]]:
    times: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    for _ in range(REPEATS):
        for grouped in (False, True):
            url = await fresh.make()
            try:
                times[grouped].append(await _write(url, grouped))
            finally:
                await fresh.drop()
    return {
        g: (statistics.median(c for c, _ in v), statistics.median(w for _, w in v))
        for g, v in times.items()
    }


def run() -> Report:
    report = Report(f"Group commit: {HANDS} hands ending at once (issue 15)")
    for engine, postgres in (("SQLite", False), ("PostgreSQL", True)):
        try:
            result = asyncio.run(_medians(Fresh(postgres)))
        except (Exception, pytest.skip.Exception) as error:  # no PostgreSQL server here
            report.notes.append(f"{engine} not measured: {error}")
            continue
        for index, what in ((0, "CPU"), (1, "wall time")):
            report.add(
                Row(
                    f"{engine}: {what} per hand end, group-committed",
                    result[True][index] * 1000,
                    "ms",
                    {"one transaction per hand": result[False][index] * 1000},
                    higher_is_better=False,
                )
            )
    return report
