"""The CPU a PostgreSQL server spends on one load test's database: the room and
its load client are not all that shares the machine's cores with it.

Read from /proc for the server's processes, so it works only where PostgreSQL runs on this
machine (elsewhere every figure is 0). Two figures: the backends connected to the run's own
database (its sessions, and autovacuum working on it), and the server's background
processes (WAL writer, checkpointer, background writer), which are shared with whatever
else uses the server and so reported apart.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerroom.cli.load_client import process_cpu_seconds

BACKENDS = """
SELECT pid, datname = $1 AS ours FROM pg_stat_activity
WHERE pid <> pg_backend_pid() AND (datname = $1 OR datname IS NULL)
"""


@dataclass(frozen=True)
class DatabaseCpu:
    """CPU seconds used so far by a database's backends and by the server's background
    processes, per process (a process that ended meanwhile drops out of the difference)."""

    ours: dict[int, float]
    background: dict[int, float]

    def since(self, before: DatabaseCpu) -> tuple[float, float]:
        """CPU seconds from ``before`` to this one: (the database's backends, background)."""
        return (
            sum(cpu - before.ours.get(pid, 0.0) for pid, cpu in self.ours.items()),
            sum(cpu - before.background.get(pid, 0.0) for pid, cpu in self.background.items()),
        )


async def database_cpu(url: str) -> DatabaseCpu:
    """The CPU so far of the PostgreSQL processes serving the database of ``url`` (an
    SQLAlchemy URL, ``postgresql+asyncpg://...``), as seen from another database there."""
    import asyncpg  # type: ignore[import-untyped]
    from sqlalchemy import make_url

    parsed = make_url(url)
    admin = parsed.set(drivername="postgresql", database="postgres")
    connection = await asyncpg.connect(admin.render_as_string(hide_password=False))
    try:
        rows = await connection.fetch(BACKENDS, parsed.database)
    finally:
        await connection.close()
    ours = {row["pid"]: process_cpu_seconds(row["pid"]) for row in rows if row["ours"]}
    background = {row["pid"]: process_cpu_seconds(row["pid"]) for row in rows if not row["ours"]}
    return DatabaseCpu(ours, background)
