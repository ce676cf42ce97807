"""Tournaments on a room of several nodes (docs/nodes.md).

Each event is run whole (its coordinator and every table of it) by the node holding its
lease (``store/nodes/tournament_leases.py``, renewed with the node's table leases by
``server/nodes/leasing.py``); every write of the runner and of its tables is fenced on that
lease's epoch, so a stale owner never pays a prize or stores a hand after another node took
the event. When the owner's lease runs out, a node adopts the event from its last committed
state: the hands its tables had in progress cancelled (R-DECK-5: every chip back where it
was at the hand's start), the levels going on from their stored absolute deadlines.

Every other node shows the event from the state stored at the owner's last write, as its
renewal pass read it (a *shadow* runner: never launched, never written), and forwards a
player's requests (register, unregister, rebuy, add-on, a deal) to the owner over the bus:
the stream ``table:tournament:<id>:in``, answered on the asking node's channel, as the
floor's calls are. Play itself goes to the event's tables' streams like any table's."""

from __future__ import annotations

import math
import time
from functools import partial
from typing import TYPE_CHECKING, Any

from pokerroom.server.nodes import messages
from pokerroom.server.nodes.bus import Bus, BusError
from pokerroom.server.nodes.leasing import releasing
from pokerroom.server.ops.drain import in_play
from pokerroom.server.tables.actor import TableActor
from pokerroom.server.tournaments.hall import Events, Tournaments
from pokerroom.server.tournaments.requests import (
    REFUSED,
    EventRequest,
    fields_of,
    perform,
    request_of,
)
from pokerroom.server.tournaments.runner import TournamentRunner
from pokerroom.store.fence import Lease
from pokerroom.store.nodes.leases import at_db_now
from pokerroom.store.nodes.store import Pass
from pokerroom.store.nodes.tournament_leases import (
    COORDINATOR,
    OPEN,
    TournamentRow,
    adopt_tournament_sync,
    create_and_read_sync,
    lease_key,
    tournament_sync,
    tournaments_sync,
)
from pokerroom.store.tournaments.store import TournamentStore

if TYPE_CHECKING:
    from pokerroom.rules.schedule import Schedule
    from pokerroom.server.nodes.leasing import NodeLeases

REFRESH_SECONDS = 1.0  # a sockets-only node reads the events again at most this often


class TournamentLeases(Events):
    """The events of a room of several nodes: those this node runs (the hall's runners)
    and the others' as last read (shadows); adoption and forwarding over ``bus`` (None:
    nodes without Redis, whose players ask the owner). ``leases`` None: a node that holds
    sockets only (``--sockets-only``), which runs no event and shows them all, the events
    read again at most once a second when asked (``refresh``)."""

    def __init__(self, leases: NodeLeases | None, bus: Bus | None) -> None:
        self._leases, self.bus = leases, bus
        self.rows: list[TournamentRow] = []  # every event as the last pass read it
        self.shadows: dict[str, tuple[str, TournamentRunner]] = {}  # by id: (snapshot, runner)
        self.read_at = -math.inf  # (monotonic) the events' last read on a sockets-only node

    def bind(self, hall: Tournaments) -> None:
        super().bind(hall)
        self.room = hall.room
        if self._leases is not None:
            self._leases.coordinators = self
        self.room.seated_elsewhere = self.seated
        if self.bus is not None:
            self.bus.coordinators = lambda: {lease_key(i) for i in self.hall.runners}
            self.bus.on_call = self.handle
            self.bus.tables_of = self.table_ids

    async def start(self) -> bool:
        """The events come with their leases (a node that holds sockets only runs none)."""
        return not self.viewer

    async def keep_scheduled(self, schedule: Schedule, runners: list[TournamentRunner]) -> None:
        """The room's schedule is kept on one node only (not yet on several)."""

    def watch(self, runner: TournamentRunner, actor: TableActor) -> None:
        actor.on_stale = self.on_stale(runner)

    @property
    def leases(self) -> NodeLeases:
        assert self._leases is not None, "a node that holds sockets only runs no event"
        return self._leases

    @property
    def viewer(self) -> bool:
        """A node that holds sockets only: no lease pass reads the events for it."""
        return self._leases is None

    async def refresh(self) -> None:
        """On a node that holds sockets only: the events read again (the changed ones),
        at most once a second."""
        if self.viewer and time.monotonic() - self.read_at >= REFRESH_SECONDS:
            self.read_at = time.monotonic()
            self.seen(await self.room.db.run(partial(tournaments_sync, known=self.known())))

    # ------------------------------------------------------------ owning

    def own(self, runner: TournamentRunner, lease: Lease, started: float) -> None:
        """Run ``runner`` here under ``lease`` (taken at the monotonic moment ``started``)."""
        store = TournamentStore(self.room.db, lease=lease)
        store.hold = self.leases.settings.hold
        store.on_stale = partial(self.leases.stale, lease.table_id)
        runner.store = store
        self.hall.runners[runner.id] = runner
        self.shadows.pop(runner.id, None)
        self.leases.held[lease.table_id] = lease
        self.leases._hold_until(lease.table_id, started)
        change = "acquired" if lease.epoch == 1 else "adopted"
        self.leases._changed(change, lease.table_id, lease.epoch)

    def on_stale(self, runner: TournamentRunner) -> Any:
        """For the event's table actors: a write refused by the epoch deposes the event."""
        key = lease_key(runner.id)
        return lambda _table, why: self.leases.stale(key, why)

    def lost(self, key: str, reason: str) -> bool:
        """The event's lease is lost (or could not be renewed in time): its tables stop at
        once, their clients reconnect (another node runs it now). False: not run here."""
        runner = self.hall.runners.pop(key[len(COORDINATOR) :], None)
        if runner is None:
            return False
        for actor in list(runner.actors.values()):
            self.room.depose(actor.table_id, reason)
        runner.actors.clear()
        return True

    async def create(self, structure: str, **fields: Any) -> TournamentRunner | None:
        """A new event stored with its first lease and run here; a repeating sit & go only
        if no node keeps one of its structure open (else None)."""
        made: list[TournamentRunner] = []

        def make(tournament_id: str) -> tuple[str, dict[str, Any], str]:
            runner = self.hall.new_runner(tournament_id, structure, **fields)
            made[:] = [runner]  # (a transaction run again makes it again)
            return runner.t.name, runner.config, runner.snapshot()

        prefix = f"{structure.replace('_', '-')}-"
        repeat = structure if fields.get("repeat") else None

        work = at_db_now(
            create_and_read_sync,
            wait=self.leases.settings.ttl,  # a one-off write (store/nodes/leases.py)
            prefix=prefix,
            make=make,
            node=self.leases.node,
            ttl=self.leases.ttl,
            repeat=repeat,
        )
        started = time.monotonic()
        got = await self.room.db.run(work)
        if got is None:
            return None
        self.own(made[-1], got[0], started)
        if got[1] is not None:  # listed even if its lease is lost before the next pass
            self._know(got[1])
        return made[-1]

    def _know(self, row: TournamentRow) -> None:
        self.rows = [r for r in self.rows if r.id != row.id] + [row]

    def seen(self, rows: list[TournamentRow]) -> None:
        """Every event as just read. One not among them was created after the read began
        (events are never deleted): kept, as created here or found on a request."""
        read = {row.id for row in rows}
        self.rows = rows + [r for r in self.rows if r.id not in read]

    async def find(self, tournament_id: str) -> TournamentRunner | None:
        """Another node's event, read from the database if the last pass did not see it
        (created since): no node answers 404 for an event that exists."""
        runner = self.shadow(tournament_id)
        if runner is None:
            row = await self.room.db.run(partial(tournament_sync, tournament_id=tournament_id))
            if row is None:
                return None
            self._know(row)
            runner = self.shadow(tournament_id)
        return runner

    def known(self) -> dict[str, TournamentRow]:
        """The events as the last pass read them (the next reads only those changed)."""
        return {row.id: row for row in self.rows}

    async def after_pass(self, done: Pass) -> None:
        """The events as this pass read them; one free event adopted while this node runs
        fewer than its share."""
        self.seen(done.tournaments)
        held = 0
        for key in [k for k in self.leases.held if k.startswith(COORDINATOR)]:
            runner = self.hall.runners.get(key[len(COORDINATOR) :])
            if runner is None or runner.status in OPEN:
                held += 1
            elif not runner.actors:  # over, its last table closed: nothing to run
                await self._release(key)
        if self.room.draining:  # handing its work over, taking none
            return
        free = [r for r in self.rows if r.free(done.now)]
        share = math.ceil(sum(1 for r in self.rows if r.status in OPEN) / done.live)
        if held >= share:
            return
        for row in free:
            if row.id not in self.hall.runners and await self.adopt(row.id):
                return

    async def _release(self, key: str, why: str = "the event is over") -> None:
        lease = self.leases.held.pop(key)
        self.leases.deadlines.pop(key, None)
        await self.room.db.run(releasing(lease))
        self.leases._changed("released", key, lease.epoch, why)

    async def hand_over(self, *, reason: str) -> None:
        """On a draining node (server/ops/drain.py): each event run here is given up once none
        of its tables has a hand in play and no request of it is being written (nothing to
        cancel): its tables stop, their clients reconnect, and its lease is released for
        another node to adopt from the state its last hand stored."""
        if not self.room.draining:
            return
        for key in [k for k in self.leases.held if k.startswith(COORDINATOR)]:
            runner = self.hall.runners.get(key[len(COORDINATOR) :])
            if runner is not None:
                if runner.lock.locked() or runner.saving.locked():
                    continue  # a registration or a rebuy on its way to the store
                if any(in_play(actor) for actor in runner.actors.values()):
                    continue
                self.lost(key, "handed over to another node")
            await self._release(key, reason)

    async def adopt(self, tournament_id: str) -> bool:
        """Take the event's lease and run it here from its last committed state."""
        leases = self.leases

        work = at_db_now(
            adopt_tournament_sync,
            tournament_id=tournament_id,
            node=leases.node,
            ttl=leases.ttl,
            reason="node failover",
        )
        started = time.monotonic()
        got = await leases.take(lease_key(tournament_id), work)
        if got is None:
            return False
        runner = self.hall.runner_of(got.row, got.row.names)
        self.own(runner, got.lease, started)
        await self.hall.resume(runner, got.last_hands)
        return True

    # ------------------------------------------------------------ every node's view

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
        miss): the tables of an event started since the last pass are known at once, so
        its players' first watches and actions through this node reach them."""
        ids = await self.room.store.table_ids()
        self.seen(await self.room.db.run(partial(tournaments_sync, known=self.known())))
        for runner in [*self.hall.runners.values(), *self.others()]:
            ids.update(runner.table_id(n) for n in runner.t.tables)
        return ids

    # ------------------------------------------------------------ requests

    async def forward(
        self, tournament_id: str, account: int, request: EventRequest
    ) -> dict[str, Any]:
        """A player's request for an event another node runs, answered by its owner:
        RefusedError (the owner's refusal) or BusError (no owner answered)."""
        bus = self.bus
        if bus is None:
            owner = self.owner_of(tournament_id)
            # Several nodes without Redis: the player must ask the owner.
            raise BusError(code="tournament.elsewhere", tournament=tournament_id, node=str(owner))
        call = messages.EventCall(kind=request.kind, account=account, fields=fields_of(request))
        return await bus.call(lease_key(tournament_id), call)

    async def handle(self, key: str, call: messages.EventCall) -> messages.Reply:
        """As the event's owner: a request forwarded by another node; ``refused`` names a
        player's error (an HTTP 400 there)."""
        runner = self.hall.runners.get(key[len(COORDINATOR) :])
        if runner is None:
            raise BusError(f"{key} is not run here any more: try again")
        try:
            return messages.Reply(
                result=await perform(runner, call.account, request_of(call.kind, call.fields))
            )
        except REFUSED as error:
            return messages.error_reply(error, refused=True)
