"""Which nodes are alive (server/nodes/bus.py): every node rewrites its liveness key
(and its tables' lobby entries) every few seconds; an owner whose remote clients' node
stopped doing so takes them off its tables, as if their sockets had closed."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from redis.exceptions import RedisError

from pokerroom.server.nodes.lobby import Publishing, publish_lobby
from pokerroom.server.nodes.remote import Remote
from pokerroom.server.tables.inbox import Gone

log = logging.getLogger("pokerroom.bus")


class Beating(Publishing, Protocol):
    """What the liveness beat and the reaper take of the bus (server/nodes/bus.py)."""

    @property
    def name(self) -> str: ...  # this process: its liveness key

    @property
    def beat_seconds(self) -> float: ...

    @property
    def reap_seconds(self) -> float: ...

    @property
    def owned(self) -> Callable[[], Mapping[str, Any]]: ...  # this node's actors

    @property
    def remotes(self) -> dict[tuple[str, str], Remote]: ...  # (node, conn): others' clients


async def beat(bus: Beating) -> None:
    """This node is alive (``alive:<name>``, expiring), and its tables' lobby entries."""
    while True:
        with contextlib.suppress(RedisError, OSError):
            await bus.redis.set(bus.key(f"alive:{bus.name}"), b"1", ex=bus.alive_seconds)
            await publish_lobby(bus, bus.owned())
        await asyncio.sleep(bus.beat_seconds)


async def reap(bus: Beating) -> None:
    """Clients of a node that died (its liveness key expired, seen twice in a row: a
    flushed Redis is written again within ``BEAT_SECONDS``) are gone from their tables:
    their seats show disconnected, and wait for them to come back through another node."""
    missing: set[str] = set()
    while True:
        await asyncio.sleep(bus.reap_seconds)
        nodes = {node for node, _ in bus.remotes}
        try:
            alive = {n for n in nodes if await bus.redis.exists(bus.key(f"alive:{n}"))}
        except (RedisError, OSError):
            continue  # Redis away: nobody is judged meanwhile
        dead = (nodes - alive) & missing
        missing = nodes - alive
        for (node, conn), remote in list(bus.remotes.items()):
            if node in dead:
                log.info("node %s is gone: its connection %s leaves its tables", node, conn)
                # Closed there too, should the node be alive after all (a stalled loop):
                # its client reconnects and watches again, never left deaf.
                remote.drop(1012, "the table's node lost this connection: reconnect")
                for table in remote.tables:
                    actor = bus.owned().get(table)
                    if actor is not None:
                        actor.post(Gone(remote))
