"""Every node's view of the events other nodes run (docs/nodes.md).

A node of several shows another node's event from the state stored at its owner's last
write, as last read (a *shadow* runner: never launched, never written), and passes a
player's requests for it (register, unregister, rebuy, add-on, a deal) to the owner by its
``EventRequests`` (server/nodes/event_requests.py). Play itself goes to the event's tables'
streams like any table's. A leased owner reads the events with its lease pass
(server/nodes/tournament_leases.py); a node that holds sockets only (``EventViewer``) runs
none and reads them when asked, at most once a second."""

from __future__ import annotations

import math
import time
from functools import partial
from typing import TYPE_CHECKING, Any

from pokerroom.server.tables.placement import ElsewhereError
from pokerroom.server.tournaments.hall import Events, Tournaments
from pokerroom.server.tournaments.requests import EventRequest
from pokerroom.server.tournaments.runner import TournamentRunner
from pokerroom.store.nodes.tournament_leases import (
    TournamentRow,
    tournament_sync,
    tournaments_sync,
)

if TYPE_CHECKING:
    from pokerroom.rules.schedule import Schedule
    from pokerroom.server.nodes.event_requests import EventRequests

REFRESH_SECONDS = 1.0  # a sockets-only node reads the events again at most this often


class EventViews(Events):
    """The part of a room of several nodes' events that every node has: the others' events
    as last read (shadows), their tables, and their players' requests passed on by
    ``requests``."""

    def __init__(self, requests: EventRequests) -> None:
        self.requests = requests
        self.rows: list[TournamentRow] = []  # every event as the last read found it
        self.shadows: dict[str, tuple[str, TournamentRunner]] = {}  # by id: (snapshot, runner)

    def bind(self, hall: Tournaments) -> None:
        super().bind(hall)
        self.room = hall.room
        self.room.seated_elsewhere = self.seated
        self.requests.bind(self)

    async def keep_scheduled(self, schedule: Schedule, runners: list[TournamentRunner]) -> None:
        """The room's schedule is kept on one node only (not yet on several)."""

    def _know(self, row: TournamentRow) -> None:
        self.rows = [r for r in self.rows if r.id != row.id] + [row]

    def seen(self, rows: list[TournamentRow]) -> None:
        """Every event as just read. One not among them was created after the read began
        (events are never deleted): kept, as created here or found on a request."""
        read = {row.id for row in rows}
        self.rows = rows + [r for r in self.rows if r.id not in read]

    def known(self) -> dict[str, TournamentRow]:
        """The events as last read (the next read takes only those changed)."""
        return {row.id: row for row in self.rows}

    async def find(self, tournament_id: str) -> TournamentRunner | None:
        """Another node's event, read from the database if the last read did not see it
        (created since): no node answers 404 for an event that exists."""
        runner = self.shadow(tournament_id)
        if runner is None:
            row = await self.room.db.run(partial(tournament_sync, tournament_id=tournament_id))
            if row is None:
                return None
            self._know(row)
            runner = self.shadow(tournament_id)
        return runner

    def shadow(self, tournament_id: str) -> TournamentRunner | None:
        """Another node's event as stored at its owner's last write (read-only)."""
        row = next((r for r in self.rows if r.id == tournament_id), None)
        if row is None:
            return None
        cached = self.shadows.get(row.id)
        if cached is None or cached[0] != row.snapshot:
            cached = (row.snapshot, self.hall.runner_of(row, row.names))
            self.shadows[row.id] = cached
        return cached[1]

    def others(self) -> list[TournamentRunner]:
        found = (self.shadow(r.id) for r in self.rows if r.id not in self.hall.runners)
        return [runner for runner in found if runner is not None]

    def seated(self, account: int) -> list[str]:
        """The tables of other nodes' events where the account's entry sits (told at hello:
        a player who comes back through any node finds their table)."""
        tables = [runner.my_table(account) for runner in self.others()]
        return [table for table in tables if table is not None]

    def owner_of(self, tournament_id: str) -> str | None:
        row = next((r for r in self.rows if r.id == tournament_id), None)
        return None if row is None else row.owner

    def table_owner(self, table_id: str) -> str | None:
        """The node running the event whose table this is (None: no such table)."""
        for runner in self.others():
            if table_id in {runner.table_id(n) for n in runner.t.tables}:
                return self.owner_of(runner.id)
        return None

    async def table_ids(self) -> set[str]:
        """Every table of the room, on any node: cash tables and the events' tables, the
        events read again (those changed only; the bus asks at most once a second, on a
        miss): the tables of an event started since the last read are known at once, so
        its players' first watches and actions through this node reach them."""
        ids = await self.room.store.table_ids()
        self.seen(await self.room.db.run(partial(tournaments_sync, known=self.known())))
        for runner in [*self.hall.runners.values(), *self.others()]:
            ids.update(runner.table_id(n) for n in runner.t.tables)
        return ids

    async def forward(
        self, tournament_id: str, account: int, request: EventRequest
    ) -> dict[str, Any]:
        """A player's request for an event another node runs, answered by its owner:
        RefusedError (the owner's refusal) or ElsewhereError (no owner answered, or none
        can be reached from here)."""
        return await self.requests.forward(tournament_id, account, request)


class EventViewer(EventViews):
    """The events on a node that holds sockets only (``--sockets-only``): it runs none and
    shows them all, read again at most once a second when asked (``refresh``)."""

    def __init__(self, requests: EventRequests) -> None:
        super().__init__(requests)
        self.read_at = -math.inf  # (monotonic) the events' last read

    async def start(self) -> bool:
        """No event runs here: nothing to resume, start or keep open."""
        return False

    async def create(self, structure: str, **fields: Any) -> TournamentRunner | None:
        raise ElsewhereError("a node that holds sockets only runs no event")

    async def refresh(self) -> None:
        """The events read again (the changed ones), at most once a second: no lease pass
        reads them here."""
        if time.monotonic() - self.read_at >= REFRESH_SECONDS:
            self.read_at = time.monotonic()
            self.seen(await self.room.db.run(partial(tournaments_sync, known=self.known())))
