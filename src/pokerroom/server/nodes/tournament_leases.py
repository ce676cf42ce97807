"""Tournaments on a room of several nodes (docs/nodes.md).

Each event is run whole (its coordinator and every table of it) by the node holding its
lease (``store/nodes/tournament_leases.py``, renewed with the node's table leases by
``server/nodes/leasing.py``); every write of the runner and of its tables is fenced on that
lease's epoch, so a stale owner never pays a prize or stores a hand after another node took
the event. When the owner's lease runs out, a node adopts the event from its last committed
state: the hands its tables had in progress cancelled (R-DECK-5: every chip back where it
was at the hand's start), the levels going on from their stored absolute deadlines.

Every other node shows the event as last read and forwards its players' requests to this
one (server/nodes/event_views.py, server/nodes/event_requests.py)."""

from __future__ import annotations

import math
import time
from functools import partial
from typing import TYPE_CHECKING, Any

from pokerroom.server.nodes.event_views import EventViews
from pokerroom.server.nodes.leasing import releasing
from pokerroom.server.ops.drain import in_play
from pokerroom.server.tables.actor import TableActor
from pokerroom.server.tournaments.hall import Tournaments
from pokerroom.server.tournaments.runner import TournamentRunner
from pokerroom.store.fence import Lease
from pokerroom.store.nodes.leases import at_db_now
from pokerroom.store.nodes.store import Pass
from pokerroom.store.nodes.tournament_leases import (
    COORDINATOR,
    OPEN,
    adopt_tournament_sync,
    create_and_read_sync,
    lease_key,
)
from pokerroom.store.tournaments.store import TournamentStore

if TYPE_CHECKING:
    from pokerroom.server.nodes.event_requests import EventRequests
    from pokerroom.server.nodes.leasing import NodeLeases


class TournamentLeases(EventViews):
    """The events of a leased owner on a room of several nodes: those whose leases it holds
    run here (the hall's runners), taken, renewed and lost with its table leases by its
    lease pass, which reads the others' too (shadows)."""

    def __init__(self, leases: NodeLeases, requests: EventRequests) -> None:
        super().__init__(requests)
        self.leases = leases

    def bind(self, hall: Tournaments) -> None:
        super().bind(hall)
        self.leases.coordinators = self

    async def start(self) -> bool:
        """The events come with their leases."""
        return True

    def watch(self, runner: TournamentRunner, actor: TableActor) -> None:
        actor.on_stale = self.on_stale(runner)

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
