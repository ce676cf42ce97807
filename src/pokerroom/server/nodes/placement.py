"""The placements of a room of several nodes (server/tables/placement.py is one node's), chosen
in server/app.py: a leased owner (the tables whose leases it holds run here), a node that only
holds sockets (every table runs elsewhere), and the Redis bus that links a node to the others
(``BusLinks``; without it a node reaches no other, as on one node)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from redis.exceptions import RedisError

from pokerroom.server.nodes import messages
from pokerroom.server.nodes.bus import Bus
from pokerroom.server.nodes.leasing import NodeLeases
from pokerroom.server.nodes.lobby import lobby_elsewhere
from pokerroom.server.sockets.client import Client
from pokerroom.server.tables.actor import TableActor
from pokerroom.server.tables.inbox import Close, Void
from pokerroom.server.tables.notices import RoomNotice
from pokerroom.server.tables.placement import Links, Placement
from pokerroom.server.tables.room import Room, TableConfig, config_json
from pokerroom.store.nodes.leases import LeaseSettings
from pokerroom.store.nodes.store import Adopted
from pokerroom.table import Table


class BusLinks(Links):
    """The other nodes, reached over Redis (server/nodes/bus.py): their clients' commands
    to this node's tables, this node's clients' to theirs, room-wide notices, the lobby."""

    def __init__(self, url: str, node: str, *, prefix: str | None = None) -> None:
        self.bus = Bus(url, node, lambda: self.room.actors, prefix=prefix)

    def bind(self, room: Room) -> None:
        self.room = room
        bus = self.bus
        bus.tables_of = room.store.table_ids
        bus.on_notice = self._notice
        bus.on_floor = _floor_call
        bus.on_lag = room.metrics.watch_bus(bus.figures)

    def _notice(self, notice: RoomNotice) -> None:
        if notice.sender != self.bus.name:  # this node's own were done at once
            self.room.notice(notice)

    async def start(self) -> None:
        await self.bus.start()

    async def stop(self) -> None:
        await self.bus.stop()

    def attach(self, client: Client) -> None:
        self.bus.attach(client)

    def detach(self, client: Client) -> None:
        self.bus.detach(client)

    def remotes(self) -> Iterable[Client]:
        return self.bus.remotes.values()

    def notify(self, notice: RoomNotice) -> None:
        self.bus.notify(notice.model_copy(update={"sender": self.bus.name}))

    async def has_table(self, table_id: str) -> bool:
        return await self.bus.has_table(table_id)

    async def command(self, client: Client, table: str, kind: str, text: str) -> None:
        await self.bus.command(client, table, kind, text)

    async def call(self, table: str, kind: str, reason: str) -> dict[str, Any]:
        call = messages.FloorCall.model_validate({"kind": kind, "reason": reason})
        return await self.bus.call(table, call)

    def resync(self, client: Client, table: str) -> None:
        self.bus.resync(client, table)

    def gone(self, client: Client, table: str) -> None:
        self.bus.gone(client, table)

    def unwatch(self, client: Client, table: str) -> None:
        self.bus.unwatch(client, table)

    async def seated_elsewhere(self, account_id: int) -> list[str]:
        """As last stored, and the tables of other nodes' events."""
        elsewhere = await self.room.store.seated_at(account_id)
        seated = [t for t in elsewhere if t not in self.room.actors]
        return seated + self.room.seated_elsewhere(account_id)

    async def lobby(self, viewer: int | None) -> list[dict[str, Any]]:
        try:
            return await lobby_elsewhere(self.bus, self.room.actors, viewer)
        except (RedisError, OSError):
            return []  # Redis away: this node's own tables meanwhile


class Leased(Placement):
    """One node of several sharing a PostgreSQL database: the tables whose leases it holds
    run here (server/nodes/leasing.py), the others are remote."""

    def __init__(self, settings: LeaseSettings, links: Links | None = None) -> None:
        super().__init__(links)
        self.settings = settings
        self.hold = settings.hold

    def bind(self, room: Room) -> None:
        super().bind(room)
        self.host = room
        self.leases = NodeLeases(room, room.node, self.settings)

    async def start(self, *, demo: bool) -> None:
        """The tables come with their leases (the first node to start stores the demo's)."""
        await self.host.first_tables(demo)
        await self.leases.start()
        await self.links.start()

    async def stop(self) -> None:
        await self.leases.stop()

    async def release(self) -> None:
        await self.leases.release()
        await self.links.stop()

    async def open_table(self, config: TableConfig, table: Table) -> TableActor:
        """Stored with its lease in one transaction, and run here."""
        saved = (config.name, config_json(config), table.to_json())
        await self.leases.open(config.id, Adopted((config, table), *saved, []))
        return self.host.actors[config.id]

    def added(self, actor: TableActor) -> None:
        actor.on_stale = self.leases.stale

    def lobby(
        self, entries: list[dict[str, Any]], viewer: int | None, local: set[str]
    ) -> list[dict[str, Any]]:
        """Every table, each with its node: the other nodes' as the last pass read them."""
        for entry in entries:
            entry["node"] = self.host.node
        return entries + self.leases.remote_entries(viewer, local)

    async def lobby_elsewhere(self, viewer: int | None) -> list[dict[str, Any]]:
        return []  # listed already, from the lease pass

    def owner_of(self, table_id: str) -> str | None:
        return self.leases.owner_of(table_id)

    async def hand_over(self, *, reason: str) -> None:
        await self.leases.hand_over(reason=reason)


class SocketsOnly(Placement):
    """A node that holds clients' sockets and runs no table (nor event): each runs on
    another node, its commands carried there over the bus."""

    async def start(self, *, demo: bool) -> None:
        await self.links.start()


async def _floor_call(actor: TableActor, kind: str, reason: str) -> messages.Reply:
    """The floor's void or close, asked by another node (server/nodes/bus.py)."""
    return messages.Reply(result=await actor.call(Close if kind == "close" else Void, reason))
