"""The lobby of several nodes: each owner writes its tables' lobby entries to
Redis every few seconds (expiring: a dead node's tables drop out until adopted), and any
node lists them beside its own. Rebuilt by the owners alone, like all that Redis holds."""

from __future__ import annotations

import json
from collections.abc import Container, Mapping
from typing import Any, Protocol

import redis.asyncio as aioredis


class Publishing(Protocol):
    """What writing the lobby entries takes of the bus (server/nodes/bus.py)."""

    @property
    def redis(self) -> aioredis.Redis: ...

    @property
    def alive_seconds(self) -> int: ...  # an entry expires with its node's liveness

    def key(self, what: str) -> str: ...


class Listing(Publishing, Protocol):
    """What listing the other nodes' entries takes of the bus."""

    @property
    def known(self) -> set[str]: ...  # every table of the room, any node's

    async def has_table(self, table_id: str) -> bool: ...


async def publish_lobby(bus: Publishing, owned: Mapping[str, Any]) -> None:
    """This node's cash tables' entries (with who waits, to answer each viewer's place)."""
    pipe = bus.redis.pipeline(transaction=False)
    count = 0
    for table_id, actor in owned.items():
        if actor.table.tournament:  # listed by their event
            continue
        entry = {**actor.lobby_entry(), "waiting_ids": list(actor.table.waiting.players)}
        pipe.set(bus.key(f"lobby:{table_id}"), json.dumps(entry), ex=bus.alive_seconds)
        count += 1
    if count:
        await pipe.execute()


async def lobby_elsewhere(
    bus: Listing, local: Container[str], viewer: int | None
) -> list[dict[str, Any]]:
    """The entries of the tables other nodes own, as the lobby lists them."""
    await bus.has_table("")  # the room's table ids, looked up again at most once a second
    others = sorted(t for t in bus.known if t not in local)
    if not others:
        return []
    values = await bus.redis.mget([bus.key(f"lobby:{t}") for t in others])
    entries = []
    for raw in values:
        if raw is None:
            continue  # its owner is gone and nobody has adopted it yet
        entry: dict[str, Any] = json.loads(raw)
        waiting = entry.pop("waiting_ids", [])
        mine = None if viewer is None else str(viewer)
        entry["you_wait"] = waiting.index(mine) + 1 if mine in waiting else None
        entries.append(entry)
    return entries
