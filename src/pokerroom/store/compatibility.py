"""Which code may run on a schema (docs/deploy.md, Upgrades).

Each migration says whether the code of the version before it may still run once it is
applied: ``older_code_may_run = True`` in its module for an additive one (new tables, new
nullable columns, new indexes); a contract migration (it removes or renames) says nothing,
or False. Whenever a node migrates, the oldest revision whose code may run on the result is
stored with the schema (``schema_compatibility``): walking down from the schema's revision
past every migration that allows older code, the first one that does not.

A node whose code does not know the schema's revision (a newer version migrated it) runs
only if it knows that stored revision (its own newest is then at or past it); otherwise it
refuses to start with ``SchemaTooNewError`` (``pokerroom serve`` exits with
``EXIT_SCHEMA_TOO_NEW``), rather than run on a schema it may not fit or be restarted forever
by its supervisor."""

from __future__ import annotations

from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import Connection, inspect, text

MARK = "older_code_may_run"  # a migration module's flag
TABLE = "schema_compatibility"
# sysexits' EX_CONFIG: a supervisor told not to restart on it (systemd's
# RestartPreventExitStatus=78) does not crash-loop the node.
EXIT_SCHEMA_TOO_NEW = 78


class SchemaTooNewError(RuntimeError):
    """The schema's revision is one this version does not know, and not marked safe for it."""


def oldest_code(script: ScriptDirectory, revision: str) -> str:
    """The oldest revision whose code may run on a schema at ``revision``."""
    at = script.get_revision(revision)
    while at is not None and getattr(at.module, MARK, False) is True:
        down = at.down_revision
        if not isinstance(down, str):  # the first migration, or a merge: no further
            break
        at = script.get_revision(down)
    assert at is not None
    return at.revision


def knows(script: ScriptDirectory, revision: str) -> bool:
    try:
        return script.get_revision(revision) is not None
    except CommandError:  # a revision this version's migrations do not have
        return False


def stored(connection: Connection) -> str | None:
    """The oldest code revision stored with the schema (None: none stored, or no table)."""
    if not inspect(connection).has_table(TABLE):
        return None
    found = connection.execute(text(f"SELECT oldest_code FROM {TABLE} WHERE id = 1")).scalar()
    return None if found is None else str(found)


def store(connection: Connection, script: ScriptDirectory, revision: str | None) -> None:
    """After a migration to ``revision``: the oldest code that may run on it, stored (when
    the schema has the table: a downgrade may have taken it away)."""
    if revision is None or not inspect(connection).has_table(TABLE):
        return
    oldest = oldest_code(script, revision)
    connection.execute(text(f"DELETE FROM {TABLE}"))
    connection.execute(
        text(f"INSERT INTO {TABLE} (id, oldest_code) VALUES (1, :oldest)"), {"oldest": oldest}
    )


def check(connection: Connection, script: ScriptDirectory, current: str, head: str) -> str:
    """For a schema at ``current``, a revision this version (newest: ``head``) does not
    know: the oldest code revision stored with it, if this version knows it (it may run);
    else SchemaTooNewError, saying what to do."""
    oldest = stored(connection)
    if oldest is not None and knows(script, oldest):
        return oldest
    marked = (
        "no code older than its own is marked safe on it"
        if oldest is None
        else f"it allows code from revision {oldest} on only"
    )
    raise SchemaTooNewError(
        f"the database's schema is at revision {current}, newer than this version's newest"
        f" ({head}), and {marked}: this node refuses to start (exit {EXIT_SCHEMA_TOO_NEW})."
        " Run the version that migrated it (or a newer one); to go back to this version,"
        f" first take the schema back with that version: pokerroom migrate downgrade {head}"
        " (docs/deploy.md, Upgrades)"
    )
