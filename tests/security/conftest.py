"""The real server on SQLite and PostgreSQL, for replaying attacks over its own protocol."""

from tests.server.conftest import people_closed, postgres_server, server

__all__ = ["people_closed", "postgres_server", "server"]
