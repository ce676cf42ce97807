"""A node being stopped drains (``pokerroom serve`` on SIGTERM): it deals no new hand, lets
the hands in play finish, hands each table over between hands (on a node of several its
lease is released at once, for another node to adopt), and only then stops. Nothing is
cancelled unless a hand outlasts the time limit; readiness (``/ready``) is false from the
start, so a balancer sends no new client.

Tournament tables drain as cash tables do: the hands in play there finish and no new one
is dealt (an event due to start waits for the node that runs it next). On a node of several
each event is handed over once none of its tables has a hand in play (its lease released,
server/nodes/tournament_leases.py); on one node the event resumes where it stopped when the node
starts again, nothing to cancel."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping
from typing import Any, Protocol

import uvicorn

from pokerroom.table import Table

log = logging.getLogger("pokerroom.server")
LOOK_SECONDS = 0.1  # how often the drain looks for tables whose hand has ended


class EndsWritten(Protocol):
    """A table's hand ends being written (server/tables/hand_ends.py)."""

    @property
    def ending(self) -> object | None: ...  # a hand's end not durable yet


class Recovering(Protocol):
    """A table's recovery from a fault (server/tables/recovery.py)."""

    @property
    def pending(self) -> object | None: ...  # a fault's cancel not durable yet


class DrainedTable(Protocol):
    """What the drain reads and sets of a table's actor (server/tables/actor.py)."""

    moving: bool  # set: the table deals no new hand

    @property
    def table_id(self) -> str: ...

    @property
    def table(self) -> Table: ...

    @property
    def closed(self) -> bool: ...

    @property
    def started(self) -> object | None: ...  # a hand begun, its start not durable yet

    @property
    def hand_ends(self) -> EndsWritten: ...

    @property
    def recovery(self) -> Recovering: ...


class HandsOver(Protocol):
    async def hand_over(self, *, reason: str) -> None: ...


class DrainedRoom(Protocol):
    """What the drain reads and sets of the room (server/tables/room.py)."""

    draining: bool

    @property
    def node(self) -> str: ...

    @property
    def actors(self) -> Mapping[str, DrainedTable]: ...

    @property
    def placement(self) -> HandsOver: ...


def in_play(actor: DrainedTable) -> bool:
    """A hand is in play at the table, or its end (or a fault's cancel) is not durable yet."""
    return not actor.closed and (
        actor.table.hand is not None
        or actor.started is not None
        or actor.hand_ends.ending is not None
        or actor.recovery.pending is not None
    )


def busy(room: DrainedRoom) -> list[str]:
    """The tables here (cash and tournament) with a hand in play, or its end not durable."""
    return sorted(actor.table_id for actor in list(room.actors.values()) if in_play(actor))


async def drain(room: DrainedRoom, seconds: float) -> list[str]:
    """Drain ``room`` for at most ``seconds``; the tables whose hands were still in play
    then (cancelled and refunded when the node stops, R-DECK-5)."""
    room.draining = True
    for actor in room.actors.values():
        actor.moving = True  # no new hand (the actors' _maybe_start)
    log.info(
        "node %s draining: no new hand; %d tables, %d with a hand in play (%s), handed over"
        " as their hands end, for %g s at most",
        room.node,
        len(room.actors),
        len(busy(room)),
        ", ".join(busy(room)) or "none",
        seconds,
    )
    deadline = time.monotonic() + seconds
    while True:
        await room.placement.hand_over(reason="the node is draining")
        left = busy(room)
        if not left:
            log.info("node %s drained: no hand in play", room.node)
            return []
        if time.monotonic() >= deadline:
            log.warning(
                "node %s: drain time (%g s) over with hands in play at %s: they are"
                " cancelled and refunded",
                room.node,
                seconds,
                ", ".join(left),
            )
            return left
        await asyncio.sleep(LOOK_SECONDS)


class DrainingServer(uvicorn.Server):
    """uvicorn, but the first SIGTERM or SIGINT drains the room (server/ops/drain.py) before
    uvicorn stops as usual (sockets closed, the room stopped); a second stops it at once."""

    def __init__(self, config: uvicorn.Config, room: DrainedRoom, seconds: float) -> None:
        super().__init__(config)
        self.room = room
        self.seconds = seconds
        self.loop: asyncio.AbstractEventLoop | None = None
        self.draining: asyncio.Task[None] | None = None
        self.signalled = False

    def handle_exit(self, sig: int, frame: Any) -> None:
        if self.signalled or self.loop is None or not self.started:
            # The second signal (or one before serving): stop at once, the drain with it.
            if self.draining is not None and self.loop is not None:
                self.loop.call_soon_threadsafe(self.draining.cancel)
            super().handle_exit(sig, frame)
            return
        self.signalled = True  # set here: a second signal before the drain starts counts
        # A signal handler: the drain starts on the loop, not in the middle of its step.
        self.loop.call_soon_threadsafe(self._drain)

    def _drain(self) -> None:
        if self.draining is None and not self.should_exit:
            self.draining = asyncio.create_task(self._drain_then_exit())

    async def _drain_then_exit(self) -> None:
        try:
            await drain(self.room, self.seconds)
        except Exception:  # the node stops all the same: its hands in play are cancelled
            log.exception("node %s: the drain failed; stopping now", self.room.node)
        finally:
            self.should_exit = True
