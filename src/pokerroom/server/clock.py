"""The server's wall clock. The core below ``server`` never reads it: the moments it needs
come in as arguments (tests/test_layers.py)."""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    """Now, as the store records it (timezone-aware UTC)."""
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """A stored moment as UTC (SQLite gives back naive datetimes, stored as UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
