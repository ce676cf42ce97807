"""Opening the database: the same code on SQLite (embedded default) and PostgreSQL.

SQLite runs in WAL mode with foreign keys on; PostgreSQL through asyncpg. The
schema is created and upgraded by Alembic migrations shipped in the package.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import Connection, Engine, create_engine, event, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import Session
from sqlalchemy.pool import NullPool

from pokerroom.store import compatibility
from pokerroom.store.group_commit import GroupCommit

T = TypeVar("T")
P = ParamSpec("P")
MIGRATIONS = Path(__file__).parent / "migrations"


# How long closing waits for the writer's loop (PostgreSQL) to dispose of its connections and
# to stop: past it the room shuts down regardless (its daemon thread cannot hold the exit).
CLOSE_SECONDS = 10.0
log = logging.getLogger("pokerroom.store")
MIGRATION_LOCK = 15_0011  # a PostgreSQL advisory lock's key: one migration at a time


def _connect_args(url: str, name: str | None) -> dict[str, Any]:
    if name is None or not url.startswith("postgresql+asyncpg"):
        return {}
    return {"server_settings": {"application_name": name[:63]}}


def sqlite_url(path: str | Path) -> str:
    return f"sqlite+aiosqlite:///{Path(path)}"


def _on_sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    # The driver's own transaction handling starts a transaction only before a write, so
    # reads are not isolated and a SAVEPOINT commits early; SQLAlchemy emits BEGIN instead
    # (``_on_sqlite_begin``), as its SQLite documentation advises.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # readers never block the writer
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA synchronous={sqlite_synchronous()}")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


SYNCHRONOUS = ("NORMAL", "FULL")


def sqlite_synchronous(env: dict[str, str] | None = None) -> str:
    """POKERROOM_SQLITE_SYNCHRONOUS, NORMAL by default. In WAL mode NORMAL does not sync
    at each commit, only at checkpoints: a process killed at any moment (S-CRASH-1) loses
    nothing committed, since the WAL is in the operating system's cache; a power cut may
    lose the last commits, never half of one (a hand whose end is lost is cancelled and
    refunded on restart, R-DECK-5). FULL syncs every commit: a group commit pays one sync
    for its whole batch (docs/deploy.md)."""
    value = (os.environ if env is None else env).get("POKERROOM_SQLITE_SYNCHRONOUS", "NORMAL")
    if value.upper() not in SYNCHRONOUS:
        raise ValueError(f"POKERROOM_SQLITE_SYNCHRONOUS is NORMAL or FULL, not {value!r}")
    return value.upper()


def on_async_session(
    work: Callable[Concatenate[Session, P], T],
) -> Callable[Concatenate[AsyncSession, P], Awaitable[T]]:
    """The same store operation for callers holding an AsyncSession (written once, sync)."""

    async def run(session: AsyncSession, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await session.run_sync(work, *args, **kwargs)

    run.__name__ = work.__name__.removesuffix("_sync")
    run.__doc__ = work.__doc__
    return run


def _on_sqlite_begin(connection: Connection) -> None:
    connection.exec_driver_sql("BEGIN")


def _on_sqlite_begin_immediate(connection: Connection) -> None:
    # A transaction that reads and then writes, begun deferred while another process writes
    # the same file, fails at its first write at once if that process committed in between
    # ("database is locked": its snapshot is stale, and SQLite does not wait then). Begun
    # immediate, it takes the write lock first, waiting its turn (busy_timeout).
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url)
    return config


@dataclass(frozen=True, slots=True)
class SchemaRevisions:
    """Where a database's schema is: ``current`` (None: empty), this version's ``head``,
    the migrations ``pending`` (oldest first), and whether ``current`` is one this version
    knows (not: a newer version migrated it)."""

    current: str | None
    head: str
    pending: tuple[str, ...]
    known: bool


def _revisions(connection: Connection, url: str) -> SchemaRevisions:
    script = ScriptDirectory.from_config(alembic_config(url))
    current = MigrationContext.configure(connection).get_current_revision()
    head = script.get_current_head()
    assert head is not None
    try:
        known = current is None or script.get_revision(current) is not None
    except CommandError:  # a revision this version's migrations do not have
        known = False
    pending: list[str] = []
    if known:
        walked = script.iterate_revisions(head, current or "base")
        pending = [r.revision for r in reversed(list(walked))]
    return SchemaRevisions(current, head, tuple(pending), known)


def _check_schema(connection: Connection, url: str) -> None:
    found = _revisions(connection, url)
    if not found.known and found.current is not None:
        script = ScriptDirectory.from_config(alembic_config(url))
        compatibility.check(connection, script, found.current, found.head)


def _migrate(connection: Connection, url: str, revision: str, down: bool) -> None:
    config = alembic_config(url)
    config.attributes["connection"] = connection
    before = _revisions(connection, url)
    script = ScriptDirectory.from_config(config)
    if not before.known and not down and revision == "head" and before.current is not None:
        # A newer version migrated it: this version runs on it only if every migration
        # since its own newest says older code may (store/compatibility.py), else
        # SchemaTooNewError, which ``pokerroom serve`` turns into one line and its exit code.
        oldest = compatibility.check(connection, script, before.current, before.head)
        log.warning(
            "the database's schema is at revision %s, newer than this version's newest (%s);"
            " its migrations allow code from revision %s on: running on it unmigrated",
            before.current,
            before.head,
            oldest,
        )
        return
    if down:
        command.downgrade(config, revision)
    else:
        if before.pending:
            log.info(
                "migrating the database's schema from %s to %s: %s",
                before.current or "empty",
                before.head if revision == "head" else revision,
                ", ".join(before.pending),
            )
        command.upgrade(config, revision)
    after = MigrationContext.configure(connection).get_current_revision()
    compatibility.store(connection, script, after)  # for older nodes to read
    if after != before.current:
        log.info("the database's schema migrated from %s to %s", before.current or "empty", after)
    if connection.dialect.name == "sqlite":  # the keys were off: prove nothing dangles
        dangling = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
        if dangling:
            raise RuntimeError(f"migration to {revision} left dangling references: {dangling}")


def _on_sqlite_migration_connect(dbapi_connection: Any, record: Any) -> None:
    _on_sqlite_connect(dbapi_connection, record)
    # A batch migration copies a table, drops it and renames the copy; with foreign keys on,
    # dropping a table that other rows reference fails (SQLite's documented procedure for
    # altering a table turns them off; ``_migrate`` checks them before the commit).
    dbapi_connection.execute("PRAGMA foreign_keys=OFF")


class Database:
    """An engine and its sessions. ``transaction()`` commits on success, rolls back on error."""

    def __init__(self, url: str, *, name: str | None = None, immediate: bool = False) -> None:
        """``immediate`` (SQLite): every transaction takes the write lock as it begins. The
        room's are so (they queue in the process for the one writer anyway): an operator's
        command writing the file meanwhile makes them wait a moment, never fail. A tool
        that only reads leaves it off and reads its snapshot without stopping the room."""
        self.url = url
        begin = _on_sqlite_begin_immediate if immediate else _on_sqlite_begin
        if url.startswith("sqlite"):
            sqlite_synchronous()  # a bad setting refused here, not at each connection
        # ``name``: the node's, as PostgreSQL shows its connections (pg_stat_activity), so
        # an operator (or a test) can find one node's sessions.
        self.connect_args = _connect_args(url, name)
        self.engine: AsyncEngine = create_async_engine(
            url, pool_pre_ping=True, connect_args=self.connect_args
        )
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", _on_sqlite_connect)
            event.listen(self.engine.sync_engine, "begin", begin)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        # SQLite has one writer at a time, and a writer that finds the database busy polls
        # with growing sleeps: queueing transactions here instead keeps the wait short and
        # in order (the tail latency of a busy room).
        self._one_writer = asyncio.Lock() if self.is_sqlite else None
        self._inside: ContextVar[bool] = ContextVar(f"in_transaction_{id(self)}", default=False)
        # SQLite: ``run`` does a whole transaction in one step on this engine's own thread,
        # not one event-loop round trip per statement (what a busy room's latency needs).
        self._sync_engine: Engine | None = None
        self._thread: ThreadPoolExecutor | None = None
        if self.is_sqlite:
            self._sync_engine = create_engine(make_url(url).set(drivername="sqlite"))
            event.listen(self._sync_engine, "connect", _on_sqlite_connect)
            event.listen(self._sync_engine, "begin", begin)
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")
        # Hands' ends (and starts) from every table, batched into one transaction each
        # (store/group_commit.py): a burst of hands ending costs one commit.
        # On PostgreSQL the writer's transactions run on an event loop of their own, in a
        # thread (``_WriterLoop``): each statement's round trip then waits for the database
        # only, not for a turn of the room's loop among hundreds of sockets' callbacks.
        self._writer_loop = None if self.is_sqlite else _WriterLoop(url, self.connect_args)
        self.writer = GroupCommit(self.run if self._writer_loop is None else self._write)

    @property
    def is_sqlite(self) -> bool:
        return self.url.startswith("sqlite")

    async def migrate(self, revision: str = "head", *, down: bool = False) -> None:
        """Create or upgrade the schema to ``revision`` (the newest by default), or with
        ``down`` take it back to an older one."""
        engine = self.engine
        if self.is_sqlite:  # its own connection, with foreign keys off while tables are copied
            engine = create_async_engine(self.url, poolclass=NullPool)
            event.listen(engine.sync_engine, "connect", _on_sqlite_migration_connect)
            event.listen(engine.sync_engine, "begin", _on_sqlite_begin_immediate)
        try:
            async with engine.begin() as connection:
                if not self.is_sqlite:  # nodes starting together migrate one at a time
                    await connection.exec_driver_sql(
                        f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"
                    )
                await connection.run_sync(_migrate, self.url, revision, down)
        finally:
            if engine is not self.engine:
                await engine.dispose()

    async def check_schema(self) -> None:
        """SchemaTooNewError if this version may not run on the database's schema (a newer
        version migrated it past what this one fits: store/compatibility.py)."""
        async with self.engine.connect() as connection:
            await connection.run_sync(_check_schema, self.url)

    async def revisions(self) -> SchemaRevisions:
        """The schema's revision, this version's newest, and the migrations pending."""
        async with self.engine.connect() as connection:
            return await connection.run_sync(_revisions, self.url)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        if self._one_writer is None:
            async with self.sessions() as session, session.begin():
                yield session
            return
        if self._inside.get():
            raise RuntimeError("a transaction inside a transaction would wait for itself")
        async with self._one_writer:
            mark = self._inside.set(True)
            try:
                async with self.sessions() as session, session.begin():
                    yield session
            finally:
                self._inside.reset(mark)

    async def run(self, work: Callable[[Session], T]) -> T:
        """``work(session)`` in one transaction, committed if it returns, rolled back if it
        raises. Written against a synchronous Session, it runs unchanged on PostgreSQL."""
        if self._sync_engine is None or self._thread is None or self._one_writer is None:
            async with self.transaction() as session:
                return await session.run_sync(work)
        engine = self._sync_engine

        def in_thread() -> T:
            with Session(engine, expire_on_commit=False) as session, session.begin():
                return work(session)

        if self._inside.get():
            raise RuntimeError("a transaction inside a transaction would wait for itself")
        async with self._one_writer:
            return await asyncio.get_running_loop().run_in_executor(self._thread, in_thread)

    async def run_apart(self, work: Callable[[Session], T]) -> T:
        """``run``, but on PostgreSQL on the writer's own loop (``_WriterLoop``), not the
        room's: for a transaction that must keep its time however busy the room's loop is
        (a node's lease renewals), each statement's round trip waiting for the
        database only. Not queued behind the group commit's batches."""
        if self._writer_loop is None:
            return await self.run(work)
        return await self._writer_loop.run(work, ping=True)

    async def grouped(self, work: Callable[[Session], T]) -> T:
        """``work(session)`` committed by the writer in its next batch (``group_commit``),
        with whatever else is ready; its result, or the error it raises on its own."""
        return await self.writer.write(work)

    async def _write(self, work: Callable[[Session], T]) -> T:
        assert self._writer_loop is not None
        return await self._writer_loop.run(work)

    async def close(self) -> None:
        await self.writer.close()  # the writes already taken are committed first
        if self._writer_loop is not None:
            await self._writer_loop.close()
        await self.engine.dispose()
        if self._sync_engine is not None:
            self._sync_engine.dispose()
        if self._thread is not None:
            self._thread.shutdown(wait=True)


class _WriterLoop:
    """An event loop in a thread of its own, with its own engine, for the group commit's
    transactions on PostgreSQL (asyncpg needs a loop; this one does nothing else). Started
    on the first write."""

    def __init__(self, url: str, connect_args: dict[str, Any]) -> None:
        self.url = url
        self.connect_args = connect_args
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._engine: AsyncEngine | None = None

    def _start(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            loop = _new_loop()
            self._thread = threading.Thread(
                target=_run_until_stopped, args=(loop,), name="database writer", daemon=True
            )
            self._thread.start()
            self._loop = loop
        return self._loop

    async def _transaction(self, work: Callable[[Session], T], *, ping: bool) -> T:
        if self._engine is None:  # made on the writer's loop, used only there
            # No ping before each transaction (a round trip at every batch): a
            # batch that finds its connection lost is run again on a new one (GroupCommit).
            self._engine = create_async_engine(
                self.url, pool_pre_ping=False, connect_args=self.connect_args
            )
        if ping:  # pinged first, as pool_pre_ping does: a lost connection is replaced
            try:
                async with self._engine.connect() as connection:
                    await connection.exec_driver_sql("SELECT 1")
            except DBAPIError as error:
                if not error.connection_invalidated:
                    raise
        async with (
            AsyncSession(self._engine, expire_on_commit=False) as session,
            session.begin(),
        ):
            return await session.run_sync(work)

    async def run(self, work: Callable[[Session], T], *, ping: bool = False) -> T:
        """``work(session)`` in one transaction on the writer's loop; ``ping``: its
        connection checked first (a transaction not run again if its connection is lost)."""
        done = asyncio.run_coroutine_threadsafe(self._transaction(work, ping=ping), self._start())
        return await asyncio.wrap_future(done)

    async def close(self) -> None:
        """The engine disposed of and the writer's loop stopped and closed in its own thread
        (``_run_until_stopped``), waited for a bounded time: the room's loop never blocks
        on it (it did, in uvloop's close, once in a test run under load)."""
        loop, thread, engine = self._loop, self._thread, self._engine
        if loop is None or thread is None:
            return
        self._loop = self._thread = self._engine = None  # closed once, however often asked
        if engine is not None:
            disposed = asyncio.run_coroutine_threadsafe(engine.dispose(), loop)
            with contextlib.suppress(TimeoutError, DBAPIError, OSError):
                await asyncio.wait_for(asyncio.wrap_future(disposed), CLOSE_SECONDS)
        loop.call_soon_threadsafe(loop.stop)
        await asyncio.get_running_loop().run_in_executor(None, thread.join, CLOSE_SECONDS)
        if thread.is_alive():  # a daemon thread: it cannot hold the process at exit
            log.warning("the database writer's loop did not close in %s s", CLOSE_SECONDS)


def _run_until_stopped(loop: asyncio.AbstractEventLoop) -> None:
    """The writer's loop until ``close`` stops it; then what is still on it (a write cut
    short) is cancelled, so its caller gets an error rather than waiting forever, and the
    loop is closed here, off the room's loop."""
    try:
        loop.run_forever()
    finally:
        pending = asyncio.all_tasks(loop)
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.wait(pending, timeout=CLOSE_SECONDS))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()


def _new_loop() -> asyncio.AbstractEventLoop:
    """The writer's loop: uvloop's where installed, as the room's (``pokerroom serve``);
    asyncpg's round trips are cheaper on it. POKERROOM_LOOP=asyncio: the standard one."""
    if os.environ.get("POKERROOM_LOOP", "uvloop") != "asyncio":
        try:
            import uvloop
        except ImportError:  # pragma: no cover - a platform without uvloop's wheels
            pass
        else:
            return uvloop.new_event_loop()
    return asyncio.new_event_loop()
