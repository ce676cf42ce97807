"""Where the room's tables run: the placement, chosen in the composition root (server/app.py)
and passed to the room, which calls it instead of asking which deployment it is in.

``Placement`` itself is one node running every table; ``Links`` itself is a node that no
other node reaches. The placements of several nodes (a leased owner, a node that only holds
sockets, a node running every table for the others' sockets) and the Redis bus between
nodes are in server/nodes/placement.py, which one node never reads."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

from pokerroom.errors import CodedError
from pokerroom.server.sockets.client import Client
from pokerroom.server.tables.notices import RoomNotice

if TYPE_CHECKING:
    from pokerroom.server.tables.actor import TableActor
    from pokerroom.table import Table


class Placed(Protocol):
    """What a placement drives of the room (server/tables/room.py)."""

    async def reopen(self, *, demo: bool) -> None: ...

    async def open_here(self, config: Any, table: Table) -> TableActor: ...


class ElsewhereError(CodedError, RuntimeError):
    """A request for a table or an event another node runs did not reach its owner, or got
    no answer (its owner changing, Redis unreachable, no bus): nothing changed."""


class RefusedError(ElsewhereError):
    """The owner refused a request (a player's error there: nothing changed)."""


class Links:
    """How this node reaches the others (server/nodes: the Redis bus); this one: no other
    node reaches it, and it reaches none."""

    def bind(self, room: Any) -> None:
        """Called once by the room it links (server/tables/room.py)."""

    async def start(self) -> None:
        """Once the room's tables run."""

    async def stop(self) -> None:
        """After the room's tables stopped and their leases were given up."""

    def attach(self, client: Client) -> None:
        """A connection opened on this node."""

    def detach(self, client: Client) -> None:
        """A connection closed on this node."""

    def remotes(self) -> Iterable[Client]:
        """The connections of other nodes at this node's tables."""
        return ()

    def notify(self, notice: RoomNotice) -> None:
        """Tell every other node something room-wide."""

    async def has_table(self, table_id: str) -> bool:
        """Whether another node runs this table (its messages go there)."""
        return False

    async def command(self, client: Client, table: str, kind: str, text: str) -> None:
        """A client's message for a table another node runs, carried to it."""
        raise ElsewhereError(f"table {table!r} is not run on this node")

    async def call(self, table: str, kind: str, reason: str) -> dict[str, Any]:
        """The floor's act on a table another node runs, answered by its owner."""
        raise ElsewhereError(f"table {table!r} is not run on this node")

    def resync(self, client: Client, table: str) -> None:
        """The client's view of another node's table, asked for again whole."""

    def gone(self, client: Client, table: str) -> None:
        """A connection closed that watched (or sat at) another node's table."""

    def unwatch(self, client: Client, table: str) -> None:
        """A connection stopped watching another node's table."""

    async def seated_elsewhere(self, account_id: int) -> list[str]:
        """The tables other nodes run where the account sits (as last stored)."""
        return []

    async def lobby(self, viewer: int | None) -> list[dict[str, Any]]:
        """The lobby's entries of the tables other nodes run (their owners publish them)."""
        return []


class Placement:
    """Where the room's tables run; this one: every table on this node, none leased."""

    def __init__(self, links: Links | None = None) -> None:
        self.links = Links() if links is None else links
        self.hold: float | None = None  # longest a table's write may hold its lease's lock

    def bind(self, room: Any) -> None:
        """Called once by the room it places (server/tables/room.py)."""
        self.room: Placed = room
        self.links.bind(room)

    async def start(self, *, demo: bool) -> None:
        """Run this node's tables: every stored one (its hand in progress cancelled), or
        the demo tables on a first start."""
        await self.room.reopen(demo=demo)
        await self.links.start()

    async def stop(self) -> None:
        """Before the tables stop: no more renewals or adoptions."""

    async def release(self) -> None:
        """After the tables stopped (their last writes made): what this node held is given
        up, the other nodes no longer reached."""
        await self.links.stop()

    async def open_table(self, config: Any, table: Table) -> TableActor:
        """A new table opened while the room runs (stored, then run here)."""
        return await self.room.open_here(config, table)

    def added(self, actor: TableActor) -> None:
        """A table now run here (its writes refused by a lost lease stop it)."""

    def lobby(
        self, entries: list[dict[str, Any]], viewer: int | None, local: set[str]
    ) -> list[dict[str, Any]]:
        """This node's lobby entries as the room lists them, with the other nodes' tables
        known to this placement."""
        return entries

    async def lobby_elsewhere(self, viewer: int | None) -> list[dict[str, Any]]:
        """The tables other nodes run, as their owners publish them."""
        return await self.links.lobby(viewer)

    def owner_of(self, table_id: str) -> str | None:
        """The node another node's table runs on, as last read (None: not known)."""
        return None

    async def hand_over(self, *, reason: str) -> None:
        """On a draining node: the tables whose hand is over given to other nodes."""
