"""A statement compiled once (store/compiled.py) writes what ``Connection.execute`` of the
same statement writes (a datetime as SQLite stores it, a literal value compiled in), and
fails as it fails: SQLAlchemy's IntegrityError, a missing parameter refused."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import (
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    bindparam,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from pokerroom.store.compiled import Compiled

metadata = MetaData()
rows = Table(
    "rows",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("status", String(16)),
    Column("at", DateTime(timezone=True)),
)
NOW = datetime(2026, 12, 2, 1, 30, 15, 123456, tzinfo=UTC)
WRITE = insert(rows).values(id=bindparam("id"), status="running", at=bindparam("at"))


def test_a_compiled_statement_stores_what_the_statement_stores() -> None:
    engine = create_engine("sqlite://")
    metadata.create_all(engine)
    with engine.begin() as connection:
        connection.execute(WRITE, {"id": 1, "at": NOW})
        Compiled(WRITE).execute(connection, {"id": 2, "at": NOW})
        Compiled(WRITE).executemany(connection, [{"id": 3, "at": NOW}, {"id": 4, "at": NOW}])
        stored = connection.exec_driver_sql("SELECT id, status, at FROM rows ORDER BY id").all()
        assert [tuple(r[1:]) for r in stored] == [tuple(stored[0][1:])] * 4
        assert (
            connection.execute(select(rows.c.at)).scalars().all() == [NOW.replace(tzinfo=None)] * 4
        )
        ended = Compiled(
            update(rows).where(rows.c.status == "running").values(status=bindparam("new"))
        ).execute(connection, {"new": "complete"})
        assert ended.rowcount == 4


def test_a_compiled_statement_fails_as_the_statement_fails() -> None:
    engine = create_engine("sqlite://")
    metadata.create_all(engine)
    with engine.begin() as connection:
        Compiled(WRITE).execute(connection, {"id": 1, "at": NOW})
        with pytest.raises(IntegrityError):
            Compiled(WRITE).execute(connection, {"id": 1, "at": NOW})
        with pytest.raises(ValueError, match="required for the parameter 'at'"):
            Compiled(WRITE).execute(connection, {"id": 2})
        listed = select(rows).where(rows.c.id.in_(bindparam("ids", expanding=True)))
        with pytest.raises(ValueError, match="not a statement of named parameters"):
            Compiled(listed).execute(connection, {"ids": [1]})


def test_on_sqlite_a_compiled_statement_runs_on_the_drivers_cursor(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SQLAlchemy's execution (a context, a cursor result, per statement) was more
    of the writer's work than SQLite's. Nothing watching the statements, they go to the
    driver's cursor; rows read back by name, counts and errors as before."""
    engine = create_engine("sqlite://")
    metadata.create_all(engine)

    def refused(*_: object, **__: object) -> None:
        raise AssertionError("exec_driver_sql: SQLAlchemy's execution, not the cursor's")

    with engine.begin() as connection:
        monkeypatch.setattr(type(connection), "exec_driver_sql", refused)
        Compiled(WRITE).execute(connection, {"id": 1, "at": NOW})
        Compiled(WRITE).executemany(connection, [{"id": 2, "at": NOW}, {"id": 3, "at": NOW}])
        read = Compiled(select(rows.c.id, rows.c.status).where(rows.c.id > bindparam("low")))
        found = read.execute(connection, {"low": 1})
        assert [(r.id, r.status) for r in found] == [(2, "running"), (3, "running")]
        assert read.execute(connection, {"low": 2}).scalar_one() == 3
        assert read.execute(connection, {"low": 3}).first() is None
        ended = Compiled(update(rows).values(status=bindparam("new"))).execute(
            connection, {"new": "complete"}
        )
        assert ended.rowcount == 3
        with pytest.raises(IntegrityError):
            Compiled(WRITE).execute(connection, {"id": 1, "at": NOW})


def test_statements_watched_are_run_by_sqlalchemy() -> None:
    """A ``before_cursor_execute`` listener (a test counting statements, a tracer) still
    sees every compiled statement: then SQLAlchemy runs them, events and all."""
    engine = create_engine("sqlite://")
    metadata.create_all(engine)
    seen: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *a: seen.append(a[2]))
    with engine.begin() as connection:
        Compiled(WRITE).execute(connection, {"id": 1, "at": NOW})
        Compiled(WRITE).executemany(connection, [{"id": 2, "at": NOW}, {"id": 3, "at": NOW}])
    assert [s.split()[0] for s in seen] == ["INSERT", "INSERT"]
