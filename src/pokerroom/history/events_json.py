"""Events as JSON-ready dicts (for the event log in the store and, later, the wire)."""

from __future__ import annotations

from typing import Any

from pokerroom.cards import Card
from pokerroom.engine.events import Event


def _plain(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def event_to_dict(event: Event) -> dict[str, Any]:
    """``{"kind": ..., field: value, ...}`` with cards as text ("As")."""
    data: dict[str, Any] = {"kind": event.kind}
    for name, value in event.as_dict().items():
        data[name] = _plain(value)
    return data
