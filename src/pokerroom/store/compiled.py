"""Statements the database writer runs at every hand, compiled once per dialect.

``Connection.execute`` of a Core statement looks its compiled form up in the statement
cache, builds the parameters from the bound ones and sets up an execution context at every
call: on SQLite that Python work was most of a hand's end, holding the interpreter lock the
tables' loop needs. A ``Compiled`` statement keeps SQLAlchemy's own compiled SQL and bind
processors (a datetime as SQLite stores it) from its first run on a dialect and runs them
with ``exec_driver_sql``: the same SQL, the same parameters, SQLAlchemy's events and its
errors (an ``IntegrityError`` is SQLAlchemy's, wrapped as ever), less of the rest.

For statements whose every parameter is named: bound values (``bindparam``) or literal
values compiled in, and no column defaults filled in at execution (an INSERT names every
column it writes).

On SQLite (pysqlite) and asyncpg, whose execution SQLAlchemy hands straight to the
cursor (asyncpg's casts are in the SQL), even ``exec_driver_sql`` was more Python than the
statement: an execution context, a cursor result and its metadata, events looked up, each
time, at every hand in the writer's thread (on asyncpg what its context does besides, the
schema cache's stamp, is done here too). There a statement runs on the driver's cursor
(``_on_cursor``) unless something
watches the connection's statements (a ``before_cursor_execute`` listener, echo): the same
SQL and parameters in the same transaction, a driver's error raised as SQLAlchemy raises it
(``Connection._handle_dbapi_exception``: wrapped, ``handle_error`` events told), its rows
read whole. A datetime, the same for every statement of a hand, is written to SQLite's text
once (``_LastDatetime``), not at each statement.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy import Connection, DateTime, Dialect
from sqlalchemy.exc import MultipleResultsFound, NoResultFound
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler


@dataclass(frozen=True, slots=True)
class _Form:
    """A statement as one dialect runs it: its SQL and its parameters in order."""

    sql: str
    params: tuple[tuple[str, Callable[[Any], Any] | None], ...]  # name, bind processor
    fixed: Mapping[str, Any]  # the literal values compiled in as parameters
    row: list[Any] = field(default_factory=list)  # the rows' named tuple, once rows came


class Result(Protocol):
    """What a compiled statement's run gives: SQLAlchemy's ``CursorResult`` or ``Ran``."""

    @property
    def rowcount(self) -> int: ...

    def __iter__(self) -> Iterator[Any]: ...

    def first(self) -> Any: ...

    def one(self) -> Any: ...

    def scalar(self) -> Any: ...

    def scalar_one(self) -> Any: ...


class Ran:
    """A statement run on the driver's cursor: its rows (named tuples, read whole) and the
    count of rows it changed, read as a ``CursorResult`` is."""

    __slots__ = ("rowcount", "rows")

    def __init__(self, rowcount: int, rows: list[Any]) -> None:
        self.rowcount = rowcount
        self.rows = rows

    def __iter__(self) -> Iterator[Any]:
        return iter(self.rows)

    def first(self) -> Any:
        return self.rows[0] if self.rows else None

    def one(self) -> Any:
        if not self.rows:
            raise NoResultFound("No row was found when one was required")
        if len(self.rows) > 1:
            raise MultipleResultsFound("Multiple rows were found when exactly one was required")
        return self.rows[0]

    def scalar(self) -> Any:
        return self.rows[0][0] if self.rows else None

    def scalar_one(self) -> Any:
        return self.one()[0]


class Compiled:
    """A Core statement compiled on its first run on each dialect, then run as compiled."""

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        self._forms: dict[tuple[str, str], _Form] = {}

    def _form(self, dialect: Dialect) -> _Form:
        form = self._forms.get((dialect.name, dialect.driver))
        if form is None:
            compiled = self.statement.compile(dialect=dialect)
            assert isinstance(compiled, SQLCompiler)
            names = tuple(compiled.positiontup or ())
            binds = [compiled.binds[name] for name in names]
            if not compiled.positional or any(b.expanding for b in binds):
                raise ValueError(f"not a statement of named parameters: {compiled.string!r}")
            form = _Form(
                sql=compiled.string,
                params=tuple(
                    (name, _processor(bind.type, dialect))
                    for name, bind in zip(names, binds, strict=True)
                ),
                fixed={
                    name: bind.effective_value
                    for name, bind in zip(names, binds, strict=True)
                    if not bind.required
                },
            )
            self._forms[(dialect.name, dialect.driver)] = form
        return form

    def execute(self, connection: Connection, values: Mapping[str, Any]) -> Result:
        """The statement with ``values``, as ``connection.execute`` would run it."""
        form = self._form(connection.dialect)
        if _plain(connection):
            return _on_cursor(connection, form, _row(form, values), many=False)
        return connection.exec_driver_sql(form.sql, _row(form, values))

    def executemany(self, connection: Connection, rows: Sequence[Mapping[str, Any]]) -> Result:
        """The statement once for each of ``rows`` (the driver's executemany)."""
        form = self._form(connection.dialect)
        parameters = [_row(form, values) for values in rows]
        if _plain(connection):
            return _on_cursor(connection, form, parameters, many=True)
        return connection.exec_driver_sql(form.sql, parameters)


_ON_CURSOR = frozenset({"pysqlite", "asyncpg"})


def _plain(connection: Connection) -> bool:
    """SQLite's driver or asyncpg's, in a transaction begun, and nothing watching their
    statements: what ``exec_driver_sql`` would do is the cursor's execute, and only that."""
    if connection.dialect.driver not in _ON_CURSOR:
        return False
    dispatch = connection.dispatch
    return (
        connection.in_transaction()
        and not connection._echo
        and not dispatch.before_cursor_execute
        and not dispatch.after_cursor_execute
        and not getattr(connection.dialect, "_has_events", True)
    )


def _on_cursor(connection: Connection, form: _Form, parameters: Any, *, many: bool) -> Ran:
    dialect: Any = connection.dialect
    cursor: Any = connection.connection.cursor()
    asyncpg = dialect.driver == "asyncpg"
    if asyncpg:  # what its execution context does before a statement (its ``pre_exec``)
        cursor._invalidate_schema_cache_asof = dialect._invalidate_schema_cache_asof
    try:
        if many:
            cursor.executemany(form.sql, parameters)
        else:
            cursor.execute(form.sql, parameters)
        rows: list[Any] = []
        if cursor.description is not None:
            if not form.row:
                names = [column[0] for column in cursor.description]
                form.row.append(namedtuple("Row", names, rename=True))
            make = form.row[0]._make
            rows = [make(row) for row in cursor.fetchall()]
        return Ran(cursor.rowcount, rows)
    except Exception as error:  # wrapped as SQLAlchemy wraps it (raises)
        if asyncpg and isinstance(  # as its execution context does on an error
            error, (dialect.dbapi.InvalidCachedStatementError, dialect.dbapi.InternalServerError)
        ):
            dialect._invalidate_schema_cache()
        connection._handle_dbapi_exception(error, form.sql, parameters, cursor, None)
    finally:
        cursor.close()


class _LastDatetime:
    """A datetime's bind processor that remembers its last value (the same object, at
    every statement of a hand's end): SQLite's text of it written once, not each time."""

    def __init__(self, process: Callable[[Any], Any]) -> None:
        self.process = process
        self.last: tuple[Any, Any] = (None, None)

    def __call__(self, value: Any) -> Any:
        last = self.last  # one tuple, read and replaced whole (any thread)
        if value is not last[0] or value is None:
            last = self.last = (value, self.process(value))
        return last[1]


_DATETIMES: dict[tuple[str, str, str], _LastDatetime] = {}


def _processor(kind: Any, dialect: Dialect) -> Callable[[Any], Any] | None:
    process: Callable[[Any], Any] | None = kind.dialect_impl(dialect).bind_processor(dialect)
    if process is None or not isinstance(kind, DateTime):
        return process
    # shared by every statement's parameter of that type (the same text for the same value)
    key = (dialect.name, dialect.driver, repr(kind))
    return _DATETIMES.setdefault(key, _LastDatetime(process))


def _row(form: _Form, values: Mapping[str, Any]) -> tuple[Any, ...]:
    if form.fixed:
        values = {**form.fixed, **values}
    try:
        return tuple(
            [values[n] if process is None else process(values[n]) for n, process in form.params]
        )
    except KeyError as missing:
        raise ValueError(f"a value is required for the parameter {missing.args[0]!r}") from None
