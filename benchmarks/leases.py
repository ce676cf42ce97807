"""What a node's lease pass and a lobby request cost as the room grows: 100, 1,000 and
10,000 tables stored (six players seated at each), on SQLite and on PostgreSQL.

The pass is the heart of ``store/nodes/store.py``'s ``pass_sync``: the tables with
their leases brought up to date (``tables_sync``: the tables written since the last pass
and the leases run out) and this node's leases renewed in one statement
(``renew_all_sync``), half of the tables being this node's, the other half another live
node's (renewed between the passes). Two passes are timed: a quiet one (nothing changed since
the last) and one after hands ended at 5% of the tables (their snapshots rewritten). The
lobby request is every table's lobby entry built and encoded as JSON, as ``GET /api/lobby``
does on a node. The node's CPU milliseconds (steady on a shared machine; the wall time is
in the notes), medians of several passes, beside the 100 tables' (the peer): a figure that
grows with the tables shows in the ratio. A pass reads every table whole at least every
``FULL_READ`` (store/nodes/store.py): that pass costs what every pass cost before.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.orm import Session
from tests.helpers.tables import make_table
from tests.store.conftest import drop_postgres, fresh_postgres

from benchmarks.report import Report, Row
from pokerroom.server.nodes.leasing import NO_FIGURES
from pokerroom.server.tables.views import lobby_entry
from pokerroom.store.db import Database, sqlite_url
from pokerroom.store.fence import Lease
from pokerroom.store.models import TableLease, TableRecord
from pokerroom.store.nodes.store import TableRow, renew_all_sync, tables_sync

SIZES = (100, 1_000, 10_000)
PASSES = int(os.environ.get("POKERROOM_BENCH_PASSES", "5"))
CHANGED = 0.05  # the share of tables whose hand ended between two passes
TTL = timedelta(seconds=3)  # short: the last pass's rows are out of date at the next
ME, OTHER = "n1", "n2"


def _table_json() -> tuple[str, Any]:
    table = make_table(players=dict.fromkeys(range(1, 7), 20000))
    return table.to_json(), table


def _stored(count: int, snapshot: str) -> Callable[[Session], tuple[list[Lease], list[Lease]]]:
    """``count`` tables with their leases, every other one this node's: this node's
    leases and the other's."""

    def store(session: Session) -> tuple[list[Lease], list[Lease]]:
        now = datetime.now(UTC)
        expires = now + timedelta(minutes=1)  # renewed for TTL before the first pass
        written = now - timedelta(minutes=1)  # a room that has run a while
        ids = [f"t{k:05d}" for k in range(count)]
        tables = [
            {
                "id": t,
                "name": t,
                "config": "{}",
                "snapshot": snapshot,
                "closed": False,
                "updated_at": written,
            }
            for t in ids
        ]
        session.execute(insert(TableRecord), tables)
        leases = [
            {"table_id": t, "node": ME if k % 2 else OTHER, "epoch": 1, "expires_at": expires}
            for k, t in enumerate(ids)
        ]
        session.execute(insert(TableLease), leases)
        mine = [Lease(t, ME, 1, expires) for k, t in enumerate(ids) if k % 2]
        return mine, [Lease(t, OTHER, 1, expires) for k, t in enumerate(ids) if not k % 2]

    return store


def _changed(count: int, snapshot: str, step: int) -> Callable[[Session], None]:
    """Hands ended at ``CHANGED`` of the tables (a different share each step)."""

    def write(session: Session) -> None:
        now = datetime.now(UTC)
        stride = round(1 / CHANGED)
        ids = [f"t{k:05d}" for k in range(step % stride, count, stride)]
        session.execute(
            update(TableRecord)
            .where(TableRecord.id.in_(ids))
            .values(snapshot=snapshot + " " * (step % 2), updated_at=now)
        )

    return write


def _now(session: Session) -> datetime:
    now = session.scalar(select(func.now()))
    assert isinstance(now, datetime)
    return now if now.tzinfo is not None else now.replace(tzinfo=UTC)


def _pass(known: list[TableRow], leases: list[Lease]) -> Callable[[Session], list[TableRow]]:
    def run(session: Session) -> list[TableRow]:
        now = _now(session)
        tables = tables_sync(session, known, now=now)
        kept, lost = renew_all_sync(session, leases, now=now, ttl=TTL)
        assert len(kept) == len(leases) and not lost
        return tables

    return run


def _renewed(leases: list[Lease]) -> Callable[[Session], None]:
    """The other node's renewals (its pass, not timed here)."""

    def renew(session: Session) -> None:
        renew_all_sync(session, leases, now=_now(session), ttl=TTL)

    return renew


async def _measure(url: str, count: int, snapshot: str) -> dict[str, float]:
    """Milliseconds of a quiet pass and of a pass after hands ended (medians): the node's
    CPU (this process: what a pass takes from the room's node, steady on a busy machine)
    and the wall time (the database's share in it too)."""
    db = Database(url)
    try:
        await db.migrate()
        leases, others = await db.run(_stored(count, snapshot))
        await db.run(_renewed(leases + others))
        known = await db.run(_pass([], leases))  # the node's first pass: everything read
        times: dict[str, list[float]] = {k: [] for k in ("quiet", "busy")}
        cpus: dict[str, list[float]] = {k: [] for k in ("quiet", "busy")}
        for step in range(PASSES):
            for kind in ("quiet", "busy"):
                if kind == "quiet":
                    await asyncio.sleep(1.0)  # a pass's interval, roughly
                else:
                    await db.run(_changed(count, snapshot, step))
                await db.run(_renewed(others))
                cpu, started = time.process_time(), time.perf_counter()
                known = await db.run(_pass(known, leases))
                times[kind].append(time.perf_counter() - started)
                cpus[kind].append(time.process_time() - cpu)
        assert len(known) == count
        return {
            **{f"{k}_ms": 1000 * statistics.median(v) for k, v in times.items()},
            **{f"{k}_cpu_ms": 1000 * statistics.median(v) for k, v in cpus.items()},
        }
    finally:
        await db.close()


async def _on_sqlite(count: int, snapshot: str) -> dict[str, float]:
    folder = Path(tempfile.mkdtemp(prefix="pokerroom-leases-"))
    return await _measure(sqlite_url(folder / "leases.db"), count, snapshot)


async def _on_postgres(count: int, snapshot: str) -> dict[str, float]:
    name, url = await fresh_postgres()
    try:
        return await _measure(url, count, snapshot)
    finally:
        await drop_postgres(name)


def _lobby_ms(count: int, table: Any) -> float:
    """A lobby request's entries for ``count`` tables, built and encoded (median)."""
    ids = [f"t{k:05d}" for k in range(count)]
    times = []
    for _ in range(PASSES):
        started = time.perf_counter()
        entries = [lobby_entry(table, t, closed=False, figures=NO_FIGURES) for t in ids]
        json.dumps(entries)
        times.append(time.perf_counter() - started)
    return 1000 * statistics.median(times)


def measure() -> dict[str, dict[int, dict[str, float]]]:
    """Every figure: by database (and "lobby"), by table count."""
    snapshot, table = _table_json()
    figures: dict[str, dict[int, dict[str, float]]] = {"sqlite": {}, "postgresql": {}}
    figures["lobby"] = {n: {"lobby_ms": _lobby_ms(n, table)} for n in SIZES}
    for count in SIZES:
        figures["sqlite"][count] = asyncio.run(_on_sqlite(count, snapshot))
    try:
        for count in SIZES:
            figures["postgresql"][count] = asyncio.run(_on_postgres(count, snapshot))
    except OSError:
        figures.pop("postgresql")
    return figures


def run() -> Report:
    report = Report("A node's lease pass and the lobby, by tables stored")
    figures = measure()
    first = SIZES[0]
    names = {
        "quiet_cpu_ms": "a quiet pass, node CPU",
        "busy_cpu_ms": f"a pass after {CHANGED:.0%} of hands ended, node CPU",
    }
    for engine in ("sqlite", "postgresql"):
        if engine not in figures:
            report.notes.append(f"{engine}: not measured (no server)")
            continue
        for key, what in names.items():
            for count in SIZES[1:]:
                report.add(
                    Row(
                        f"{engine}: {what}, {count:,} tables",
                        figures[engine][count][key] / 1000,
                        "s",
                        {f"{first} tables": figures[engine][first][key] / 1000},
                        higher_is_better=False,
                        target="does not grow with the tables",
                    )
                )
    for count in SIZES[1:]:
        report.add(
            Row(
                f"lobby entries built and encoded, {count:,} tables",
                figures["lobby"][count]["lobby_ms"] / 1000,
                "s",
                {f"{first} tables": figures["lobby"][first]["lobby_ms"] / 1000},
                higher_is_better=False,
            )
        )
    report.notes.append(
        "milliseconds: "
        + "; ".join(
            f"{engine} {count:,}: "
            + ", ".join(f"{k} {v:.1f}" for k, v in figures[engine][count].items())
            for engine in figures
            for count in SIZES
        )
    )
    return report


if __name__ == "__main__":
    run().print()
