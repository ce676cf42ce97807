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
