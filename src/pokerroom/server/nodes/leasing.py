"""A node's leases: which tables this node runs when several share one PostgreSQL.

Each table is run by the one node that holds its lease row (table, node, epoch, expiry). A
node says it is alive (its heartbeat row) and renews all its leases in one transaction every
``renew`` seconds; each renewal is good for ``ttl`` seconds. The same pass reads every
table with its lease (the snapshots of others' tables that changed since the last pass):
the lobby lists them all, and a table nobody holds (never leased, or
its owner's lease expired: the owner died, paused or lost its database) is adopted by a node
with room for it (its fair share, ``ceil(tables / live nodes)``), under the next epoch, from
the last committed snapshot with the hand in progress cancelled (R-DECK-5).

A node that cannot renew in time stops dealing its tables before the lease runs out (the
watchdog): another node may adopt them, and this node's writes would be refused by the
epoch anyway (``store/fence.py``); it adopts tables again once it has its database back.
Lease times are the database's clock (``now()``), so nodes' clocks need not agree.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from pokerroom.rng import SystemRandomSource
from pokerroom.server.tables.views import lobby_entry
from pokerroom.store.fence import Lease
from pokerroom.store.nodes.leases import LeaseSettings, at_db_now, try_taking
from pokerroom.store.nodes.store import (
    Adopted,
    Pass,
    TableRow,
    adopt_sync,
    first_read_sync,
    heartbeat_sync,
    leave_sync,
    open_sync,
    pass_sync,
    release_sync,
)
from pokerroom.store.nodes.tournament_leases import COORDINATOR, TournamentRow
from pokerroom.table import Table

if TYPE_CHECKING:
    from pokerroom.server.tables.room import Room

T = TypeVar("T")
log = logging.getLogger("pokerroom.leases")
WATCHDOG_SECONDS = 0.25  # how often the watchdog looks at the last renewal
NO_FIGURES = {"hands_per_hour": 0, "average_pot": 0, "players_per_flop": 0}  # not run here


class EventLeases(Protocol):
    """The tournaments' side of the leases (server/nodes/tournament_leases.py), which the
    node's pass reads, renews and loses with the tables'."""

    def seen(self, rows: list[TournamentRow]) -> None: ...

    def known(self) -> dict[str, TournamentRow]: ...

    async def after_pass(self, done: Pass) -> None: ...

    async def hand_over(self, *, reason: str) -> None: ...

    def lost(self, key: str, reason: str) -> bool: ...

    def table_owner(self, table_id: str) -> str | None: ...


def releasing(lease: Lease) -> Callable[[Any], None]:
    """The lease given up at once, on the database's clock."""
    return at_db_now(release_sync, lease=lease)


class NodeLeases:
    """The room's leases on a node of several: held (this node's tables), renewed, adopted."""

    def __init__(self, room: Room, node: str, settings: LeaseSettings) -> None:
        self.room = room
        self.node = node
        self.settings = settings
        self.held: dict[str, Lease] = {}
        self.deadlines: dict[str, float] = {}  # monotonic: stop dealing a table then
        self.tables: list[TableRow] = []  # every table as the last pass read it
        self.live = 1  # nodes alive at the last pass
        self.task: asyncio.Task[None] | None = None
        self.watchdog: asyncio.Task[None] | None = None
        self._entries: dict[str, tuple[str, dict[str, Any], Table]] = {}  # remote tables
        # The tournaments' leases (keys ``tournament:<id>``) are held, renewed and lost
        # with the tables'; what they mean is the hall's (server/nodes/tournament_leases.py,
        # which binds itself here when the hall is built, before the room starts).
        self.coordinators: EventLeases

    @property
    def ttl(self) -> timedelta:
        return timedelta(seconds=self.settings.ttl)

    async def start(self) -> None:
        """Say this node is alive, then share the tables out from the next pass on (so
        nodes started together count each other before taking their shares). Every table
        and event is read at once: the lobby lists them from the node's first answer, not
        only after its first pass, half a lease later."""
        # A one-off write: a busy loop between its statements must not fail the start
        # (the passes' heartbeats are retried by the next pass; this one is not).
        once = at_db_now(heartbeat_sync, wait=self.settings.ttl, node=self.node, ttl=self.ttl)
        await self.room.db.run(once)
        self.tables, events = await self.room.db.run(first_read_sync)
        self.coordinators.seen(events)
        self.task = asyncio.create_task(self._run(), name=f"leases of {self.node}")
        self.watchdog = asyncio.create_task(self._watch(), name=f"lease watchdog {self.node}")

    async def stop(self) -> None:
        for task in (self.task, self.watchdog):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def release(self) -> None:
        """At a clean stop, after the tables' tasks ended: the leases given up at once."""
        held, self.held = list(self.held.values()), {}
        for lease in held:
            with contextlib.suppress(Exception):  # expiry gives it up anyway
                await self.room.db.run(releasing(lease))
                self._changed("released", lease.table_id, lease.epoch)
        with contextlib.suppress(Exception):  # no longer counted live: the others' shares
            await self.room.db.run(partial(leave_sync, node=self.node))

    async def _run(self) -> None:
        # The first pass waits half a lease: nodes started together count each other
        # before taking their shares.
        await asyncio.sleep(max(self.settings.renew, self.settings.ttl / 2))
        while True:
            try:
                await self.tick()
            except Exception:  # the database is away: the watchdog stops the tables in time
                log.warning("renewing the leases of node %s failed", self.node, exc_info=True)
            await asyncio.sleep(self.settings.renew)

    async def _watch(self) -> None:
        """Stop dealing each table before its last renewal runs out."""
        while True:
            await asyncio.sleep(WATCHDOG_SECONDS)
            now = time.monotonic()
            for table_id in [t for t in self.held if now >= self.deadlines.get(t, math.inf)]:
                late = now - self.deadlines[table_id] + self.settings.ttl - self.settings.margin
                self._lose(table_id, f"lease not renewed for {late:.1f} s")

    async def tick(self) -> None:
        """One pass: heartbeat, renew, read every table; then adopt what needs an owner."""
        started = time.monotonic()
        leases = list(self.held.values())
        events = self.coordinators.known()
        # On the database writer's loop: its round trips do not wait for the room's loop,
        # busy with hundreds of sockets (passes that took seconds let leases run out).
        # A draining node is not counted live: the others' shares grow to take its tables.
        work = partial(
            pass_sync,
            node=self.node,
            leases=leases,
            known=self.tables,
            events=events,
            ttl=self.ttl,
            wait=self.settings.renew,
            alive=not self.room.draining,
        )
        done = await self.room.db.run_apart(work)
        took = time.monotonic() - started
        if took > self.settings.renew:  # (what lets leases run out: worth an operator's look)
            log.warning(
                "node %s: a lease pass took %.2f s (began after %.2f s, %.2f s in it)",
                self.node,
                took,
                done.began - started,
                took - (done.began - started),
            )
        # The database renewed each kept lease before it expired (an expired one is not
        # renewed): they hold from the pass's start on, whatever the watchdog did meanwhile.
        # None is either if a row stayed locked (a node adopting it): the next pass tries.
        for lease in done.kept:
            if lease.table_id in self.held:
                self.held[lease.table_id] = lease
                self._hold_until(lease.table_id, started)
            else:  # handed over while the pass ran, which then renewed it: nobody runs it
                await self.room.db.run(releasing(lease))
        for lease in done.lost:
            self._lose(lease.table_id, f"lease lost (epoch {lease.epoch})")
        self.live, self.tables = done.live, done.tables
        await self._adopt(done)
        await self.coordinators.after_pass(done)

    def _hold_until(self, table_id: str, renewed: float) -> None:
        """The table is dealt here until ``margin`` before its lease (renewed at the
        monotonic moment ``renewed``) runs out, unless renewed again meanwhile."""
        self.deadlines[table_id] = renewed + self.settings.ttl - self.settings.margin

    async def _adopt(self, done: Pass) -> None:
        """Free tables, while this node has less than its share, for half a renewal's
        interval at most (then the next pass): the renewals stay on time however many
        tables need an owner, and a dead node's tables are not adopted one a pass (with
        the default 3 s, 20 tables would take a minute). Each node tries them in an
        order of its own, so that nodes adopting at once seldom reach for the same one."""
        if self.room.draining:  # handing its tables over, taking none
            return
        share = math.ceil(len(done.tables) / done.live)
        coordinators = sum(1 for key in self.held if key.startswith(COORDINATOR))
        if len(self.held) - coordinators >= share:
            await self._rebalance(share)
            return
        free = [r.id for r in done.tables if r.id not in self.held and r.free(done.now)]
        until = time.monotonic() + self.settings.renew / 2
        for table_id in sorted(free, key=lambda t: hash((self.node, t))):  # (salted a process)
            if len(self.held) - coordinators >= share or time.monotonic() > until:
                return
            await self.adopt(table_id)

    async def open(self, table_id: str, adopted: Adopted) -> None:
        """A table opened here (the floor): stored with its first lease, and run here;
        ValueError if a table of that id is stored already."""
        started = time.monotonic()
        one_off = self.settings.ttl  # a one-off write's bound (store/nodes/leases.py)
        work = at_db_now(
            open_sync,
            wait=one_off,
            table_id=table_id,
            node=self.node,
            name=adopted.name,
            config=adopted.config,
            snapshot=adopted.snapshot,
            ttl=self.ttl,
        )
        lease = await self.room.db.run(work)
        self.held[table_id] = lease
        self._hold_until(table_id, started)
        self.room.run_table(adopted, lease)
        self._changed("acquired", table_id, lease.epoch)

    async def _rebalance(self, share: int) -> None:
        """More tables than its share (a node joined, or this one adopted a dead node's):
        those above it stop dealing, each once its hand is over (nothing to cancel), and
        their leases are released for nodes with fewer tables to adopt (several a pass);
        their clients reconnect."""
        await self.hand_over(reason="more tables than its share")
        staying = [t for t in self.held if not getattr(self.room.actors.get(t), "moving", True)]
        for table_id in staying[share:]:
            self.room.actors[table_id].moving = True

    async def hand_over(self, *, reason: str) -> None:
        """Release the lease of every table marked ``moving`` whose hand is over (nothing
        to cancel): it stops here, its clients reconnect, another node adopts it."""
        for table_id in list(self.held):
            actor = self.room.actors.get(table_id)
            if actor is None or not actor.moving or actor.table.hand is not None:
                continue
            if actor.hand_ends.ending is not None or actor.recovery.pending is not None:
                continue
            lease = self.held.pop(table_id)
            self.deadlines.pop(table_id, None)
            self.room.depose(table_id, "handed over to another node")
            await self.room.db.run(releasing(lease))
            self._changed("released", table_id, lease.epoch, reason)
        await self.coordinators.hand_over(reason=reason)  # a draining node's events too

    async def adopt(self, table_id: str) -> bool:
        """Take the table's lease and run it here; False if another node has it."""
        started = time.monotonic()
        restore = partial(self.room.restored, reason="node failover")
        work = at_db_now(
            adopt_sync,
            table_id=table_id,
            node=self.node,
            restore=restore,
            ttl=self.ttl,
            reason="node failover",
        )
        got = await self.take(table_id, work)
        if got is None:
            return False
        lease, adopted = got
        self.held[table_id] = lease
        self._hold_until(table_id, started)
        self.room.run_table(adopted, lease)
        self.room.metrics.hands.labels(outcome="cancelled").inc(len(adopted.cancelled))
        cut = ", ".join(map(str, adopted.cancelled))
        why = f"hands cancelled, every chip back: {cut}" if cut else ""
        change = "acquired" if lease.epoch == 1 else "adopted"
        self._changed(change, table_id, lease.epoch, why, cut=bool(cut))
        return True

    async def take(self, key: str, work: Callable[[Any], T | None]) -> T | None:
        """``work``, which takes the lease ``key`` to adopt what it names; None if another
        node was quicker (or took it first), or its row is locked by a writer (paused?):
        a later pass tries again."""
        return await try_taking(self.room.db.run, key, self.node, work)

    def _lose(self, table_id: str, reason: str) -> None:
        lease = self.held.pop(table_id, None)
        self.deadlines.pop(table_id, None)
        if table_id.startswith(COORDINATOR):  # a tournament's: all its tables stop
            deposed = self.coordinators.lost(table_id, reason)
        else:
            deposed = self.room.depose(table_id, reason)
        if deposed or lease is not None:
            self._changed("lost", table_id, None if lease is None else lease.epoch, reason)

    def stale(self, table_id: str, reason: str) -> None:
        """A table's write was refused by its epoch (the actor stopped itself)."""
        self._lose(table_id, reason)

    def owner_of(self, table_id: str) -> str | None:
        """The node another node's table (or event's table) runs on, as last read."""
        owner = next((row.owner for row in self.tables if row.id == table_id), None)
        if owner is None:
            owner = self.coordinators.table_owner(table_id)
        return None if owner == self.node else owner

    def remote_entries(self, viewer: int | None, local: set[str]) -> list[dict[str, Any]]:
        """The lobby's entries of the tables other nodes run, from their stored state (as
        of the last pass: a few seconds old at most), each naming its ``node``."""
        entries = []
        for row in self.tables:
            if row.id in local:
                continue
            cached = self._entries.get(row.id)
            if cached is None or cached[0] != row.snapshot:  # parsed again only if changed
                table = Table.from_json(row.snapshot, rng=SystemRandomSource())
                entry = lobby_entry(table, row.id, closed=False, figures=NO_FIGURES)
                cached = (row.snapshot, entry, table)
                self._entries[row.id] = cached
            _, entry, table = cached
            waits = None if viewer is None else table.waiting.position(str(viewer))
            entries.append({**entry, "node": row.owner, "you_wait": waits})
        return entries

    def _changed(
        self, change: str, table_id: str, epoch: int | None, why: str = "", *, cut: bool = False
    ) -> None:
        """Counted and logged: routine changes (a table taken, handed over) at info; a
        lease lost, or a failover that ``cut`` hands off (cancelled), at warning."""
        metrics = self.room.metrics
        metrics.lease_changes.labels(change=change).inc()
        log.log(
            logging.WARNING if change == "lost" or cut else logging.INFO,
            "node %s %s table %s (epoch %s)%s",
            self.node,
            change,
            table_id,
            epoch,
            f": {why}" if why else "",
            extra={"table": table_id},
        )
