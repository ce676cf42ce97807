"""How a player's request for an event another node runs reaches its owner, chosen in
server/app.py with the node's links: over the Redis bus (``BusRequests``: the stream
``table:tournament:<id>:in``, answered on the asking node's channel, as the floor's calls
are), or, on nodes that share PostgreSQL without Redis, not at all (``EventRequests``:
refused with ``tournament.elsewhere`` naming the owner, for the player to ask there)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from pokerroom.server.nodes import messages
from pokerroom.server.nodes.bus import Bus, BusError
from pokerroom.server.tournaments.requests import (
    REFUSED,
    EventRequest,
    fields_of,
    perform,
    request_of,
)
from pokerroom.store.nodes.tournament_leases import COORDINATOR, lease_key

if TYPE_CHECKING:
    from pokerroom.server.tournaments.hall import Tournaments


class Owners(Protocol):
    """What the requests read of the node's events (server/nodes/event_views.py)."""

    hall: Tournaments

    def owner_of(self, tournament_id: str) -> str | None: ...

    async def table_ids(self) -> set[str]: ...


class EventRequests:
    """Nodes without Redis: nothing carries a request to the event's owner, so the player
    is told which node runs it."""

    def bind(self, events: Owners) -> None:
        """Called once by the events it carries requests for."""
        self.events = events

    async def forward(
        self, tournament_id: str, account: int, request: EventRequest
    ) -> dict[str, Any]:
        """A player's request for an event another node runs: refused, naming that node."""
        owner = self.events.owner_of(tournament_id)
        raise BusError(code="tournament.elsewhere", tournament=tournament_id, node=str(owner))


class BusRequests(EventRequests):
    """Requests carried over the bus, both ways: this node's players' to the owners, and the
    other nodes' to the events run here (the streams of calls it reads, one per event)."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus

    def bind(self, events: Owners) -> None:
        """The bus reads a stream of calls for each event run here, and asks the events for
        the room's tables (a table id it does not know reads them again)."""
        super().bind(events)
        self.bus.coordinators = lambda: {lease_key(i) for i in events.hall.runners}
        self.bus.on_call = self.handle
        self.bus.tables_of = events.table_ids

    async def forward(
        self, tournament_id: str, account: int, request: EventRequest
    ) -> dict[str, Any]:
        """Answered by the event's owner: RefusedError (the owner's refusal) or BusError (no
        owner answered)."""
        call = messages.EventCall(kind=request.kind, account=account, fields=fields_of(request))
        return await self.bus.call(lease_key(tournament_id), call)

    async def handle(self, key: str, call: messages.EventCall) -> messages.Reply:
        """As the event's owner: a request forwarded by another node; ``refused`` names a
        player's error (an HTTP 400 there)."""
        runner = self.events.hall.runners.get(key[len(COORDINATOR) :])
        if runner is None:
            raise BusError(f"{key} is not run here any more: try again")
        try:
            return messages.Reply(
                result=await perform(runner, call.account, request_of(call.kind, call.fields))
            )
        except REFUSED as error:
            return messages.error_reply(error, refused=True)
