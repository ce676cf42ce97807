"""A room's store that fails on purpose: the error a failing database raises, and the database
with its writes replaced."""

from __future__ import annotations

from typing import Any

from pokerroom.store.db import Database

CLOCK = (("decision_seconds", 30), ("warning_after_seconds", 20), ("time_bank_seconds", 0))


class StoreDownError(RuntimeError):
    """What a failing database looks like to the table (injected)."""


class DbWith:
    """The room's database with another ``run`` and ``grouped`` (the actor only, not the
    whole room)."""

    def __init__(self, db: Database, run: Any, grouped: Any) -> None:
        self._db, self.run, self.grouped = db, run, grouped

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)
