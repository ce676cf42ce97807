"""What an owner takes over on its tables' command streams (server/nodes/bus.py): on
adopting a table, the consumer group (made if missing) and what a former owner read and
did not acknowledge; and, while it owns the table, what another node read after that (a
former owner's blocking read under way at the hand-over, or a paused one) and left."""

from __future__ import annotations

from typing import Any, Protocol

import redis.asyncio as aioredis
from redis.exceptions import ResponseError

from pokerroom.server.nodes import messages

GROUP = "owner"
CALLS = object()  # what reads a tournament coordinator's stream of calls (no table actor)


class Claiming(Protocol):
    """What taking over a table's stream takes of the bus (server/nodes/bus.py)."""

    @property
    def redis(self) -> aioredis.Redis: ...

    @property
    def name(self) -> str: ...  # this process's consumer name

    @property
    def adopted(self) -> dict[str, Any]: ...  # the actor each table was announced for

    @property
    def claim_seconds(self) -> float: ...

    def key(self, what: str) -> str: ...

    def notify(self, notice: messages.Notice) -> None: ...

    async def apply(self, table: str, entry: bytes, fields: dict[bytes, bytes]) -> None: ...


async def adopt_stream(bus: Claiming, table: str, actor: Any) -> None:
    """Start reading a table's stream as its owner (``actor`` runs it here): the group
    made if missing (from the stream's start: commands sent while nobody owned it are
    read), and what a former owner read but did not acknowledge taken over and applied
    (once: by the keys). A table owned anew (even one this node ran before another
    node did) is announced: its new actor knows none of the watchers."""
    stream = bus.key(f"table:{table}:in")
    if bus.adopted.get(table) is not actor:  # (not after a lost connection: resync)
        bus.adopted[table] = actor
        bus.notify(messages.Adopted(table=table))  # every node's watchers of it watch again
    try:
        await bus.redis.xgroup_create(stream, GROUP, id="0", mkstream=True)
    except ResponseError as error:
        if "BUSYGROUP" not in str(error):
            raise
    start = "0-0"
    for _ in range(100):  # bounded: a stream holds at most STREAM_LENGTH entries
        answer = await bus.redis.xautoclaim(stream, GROUP, bus.name, 0, start, count=200)
        start, claimed = answer[0], answer[1]
        for entry, fields in claimed:
            if fields:  # an entry trimmed away meanwhile comes back empty
                await bus.apply(table, entry, fields)
        if start in (b"0-0", "0-0"):
            break


async def claim_stranded(bus: Claiming, table: str) -> None:
    """Commands another node read from this table's stream and never acknowledged, for
    ``claim_seconds``: a former owner's, read after this node had taken the table over
    (its blocking read was under way, or it was paused) and then left (not its table
    any more) or cut off by its epoch. Taken over and applied here (once: the keys)."""
    stream = bus.key(f"table:{table}:in")
    idle = int(bus.claim_seconds * 1000)
    pending = await bus.redis.xpending_range(stream, GROUP, "-", "+", 200, idle=idle)
    others: list[Any] = [p["message_id"] for p in pending if p["consumer"] != bus.name.encode()]
    if others:
        claimed: Any = await bus.redis.xclaim(stream, GROUP, bus.name, idle, others)
        for entry, fields in claimed:
            if fields:  # trimmed away meanwhile: nothing to apply
                await bus.apply(table, entry, fields)
