"""The real server on SQLite and PostgreSQL, for replaying attacks over its own protocol."""

from tests.server.conftest import postgres_server, server

__all__ = ["postgres_server", "server"]
