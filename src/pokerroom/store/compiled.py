"""Statements the database writer runs at every hand, compiled once per dialect (issue 15).

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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, CursorResult, Dialect
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler


@dataclass(frozen=True, slots=True)
class _Form:
    """A statement as one dialect runs it: its SQL and its parameters in order."""

    sql: str
    params: tuple[tuple[str, Callable[[Any], Any] | None], ...]  # name, bind processor
    fixed: Mapping[str, Any]  # the literal values compiled in as parameters


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
                    (name, bind.type.dialect_impl(dialect).bind_processor(dialect))
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

    def execute(self, connection: Connection, values: Mapping[str, Any]) -> CursorResult[Any]:
        """The statement with ``values``, as ``connection.execute`` would run it."""
        form = self._form(connection.dialect)
        return connection.exec_driver_sql(form.sql, _row(form, values))

    def executemany(
        self, connection: Connection, rows: Sequence[Mapping[str, Any]]
    ) -> CursorResult[Any]:
        """The statement once for each of ``rows`` (the driver's executemany)."""
        form = self._form(connection.dialect)
        return connection.exec_driver_sql(form.sql, [_row(form, values) for values in rows])


def _row(form: _Form, values: Mapping[str, Any]) -> tuple[Any, ...]:
    if form.fixed:
        values = {**form.fixed, **values}
    try:
        return tuple(
            [values[n] if process is None else process(values[n]) for n, process in form.params]
        )
    except KeyError as missing:
        raise ValueError(f"a value is required for the parameter {missing.args[0]!r}") from None
