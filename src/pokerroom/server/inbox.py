"""What a table's task receives, one small frozen type per kind (the actor ``match``es on
them). Clients' messages are ``Watching`` and ``Said`` (counted and capped); the rest come
from the server itself (a connection gone, the floor) and are never refused."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pokerroom.server import protocol

if TYPE_CHECKING:
    from pokerroom.server.client import Client


@dataclass(frozen=True, slots=True)
class Watching:
    """A client asks for the table's state from now on. ``done``: called once handled (a
    command that came over the bus is acknowledged then: server/bus.py)."""

    client: Client
    done: Callable[[], None] | None = None


@dataclass(frozen=True, slots=True)
class Said:
    """A logged-in client's message to the table (join, act, chat...), and when it came
    (``time.monotonic``: the action latency is measured from it)."""

    client: Client
    message: protocol.ClientMessage
    at: float = field(default_factory=time.monotonic)
    done: Callable[[], None] | None = None  # as Watching's


@dataclass(frozen=True, slots=True)
class Gone:
    """A connection closed: it stops watching, and its seat is disconnected."""

    client: Client


@dataclass(frozen=True, slots=True)
class Suspend:
    """S-AUTH-2: the account is sat out and cashed out after the hand."""

    player: str


@dataclass(frozen=True, slots=True)
class AutoMuck:
    """The account changed its auto-muck preference (issue 16): its seat here follows it."""

    player: str
    on: bool


@dataclass(frozen=True, slots=True)
class Void:
    """R-FLOOR-1: void the hand in progress; ``answer`` gets ``{"voided": n}``."""

    reason: str
    answer: asyncio.Future[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Close:
    """R-FLOOR-1: close the table; ``answer`` gets what was voided."""

    reason: str
    answer: asyncio.Future[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Alarm:
    """The table's own clock: a moment it waits for has come (``TableActor._wait``)."""


ALARM = Alarm()
FromClient = Watching | Said
Item = Watching | Said | Gone | Suspend | AutoMuck | Void | Close | Alarm
