"""The table's error, apart from the compiled modules that raise it (mypyc compiles a class
whose base is not compiled only as an interpreted one)."""

from __future__ import annotations

from pokerroom.errors import CodedError


class TableError(CodedError, ValueError):
    """A table request that the rules or the table's state do not allow. Nothing changed.
    Raised with the ``code`` a player is sent (pokerroom/errors.py) where one is meant for a
    player."""
