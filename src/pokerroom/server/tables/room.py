"""The room: the database, the tables and their actors; recovery on start (S-CRASH-1)."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import logging
import os
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from pokerroom.rng import SystemRandomSource
from pokerroom.rules import load_preset
from pokerroom.rules.game import Structure, Variant
from pokerroom.server.clock import utcnow
from pokerroom.server.ops.logs import node_id
from pokerroom.server.ops.metrics import RoomMetrics
from pokerroom.server.ops.refusal_log import RefusalLog
from pokerroom.server.sockets.client import OUTBOX_FRAMES, Client
from pokerroom.server.tables import notices
from pokerroom.server.tables.account_limits import AccountLimits
from pokerroom.server.tables.actor import INBOX_MESSAGES, TableActor
from pokerroom.server.tables.cash import CashPolicy
from pokerroom.server.tables.inbox import AutoMuck, Suspend
from pokerroom.server.tables.placement import Placement
from pokerroom.store.account_ids import AccountId, account_of
from pokerroom.store.db import Database
from pokerroom.store.fence import Lease
from pokerroom.store.nodes.store import Adopted, first_tables_sync
from pokerroom.store.tables.store import Reopened, RoomStore, TableSave
from pokerroom.table import Table, TableError
from pokerroom.table.events import SeatLeft


@dataclass(frozen=True, slots=True)
class TableConfig:
    id: str
    name: str
    preset: str
    variant: str
    structure: str
    big_blind: int  # cents (the small bet in limit games)
    seats: int
    overrides: tuple[tuple[str, Any], ...] = ()  # house options changed for this table

    def build(self) -> Table:
        house = load_preset(self.preset)
        if self.overrides:
            house = house.with_options(**dict(self.overrides))
        spec = house.game(Variant(self.variant), Structure(self.structure), self.big_blind)
        return Table(
            spec=spec, house=house, seats=self.seats, rng=SystemRandomSource(), name=self.name
        )


@dataclass(slots=True)
class Limits:
    """What one connection may do (S-ISOLATE-1); each is set by ``POKERROOM_<NAME>`` (upper
    case), e.g. ``POKERROOM_CONNECTIONS_PER_ADDRESS=20``. docs/security.md explains them."""

    outbox_frames: int = OUTBOX_FRAMES  # frames queued for a client before it is dropped
    inbox_messages: int = INBOX_MESSAGES  # clients' messages waiting for one table
    rate: float = 100.0  # messages a second a connection may send, on average ...
    burst: int = 200  # ... and at once
    flood_close: int = 100  # refused messages (forgiven at ``rate``) that close the connection
    connections_per_address: int = 64
    idle_seconds: float = 120.0  # an anonymous connection that watches and sends nothing
    anonymous_watchers: int = 200  # connections watching without logging in, room-wide
    origins: tuple[str, ...] = ()  # browser origins allowed besides the room's own

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> Limits:
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            raw = environ.get(f"POKERROOM_{f.name.upper()}")
            if raw is None:
                continue
            if f.name == "origins":
                values[f.name] = tuple(o.strip() for o in raw.split(",") if o.strip())
            else:
                kind = float if f.type == "float" else int
                values[f.name] = kind(raw)
        return cls(**values)


class RateLimit:
    """A token bucket per connection: ``rate`` messages a second, ``burst`` at once. Refused
    messages are counted as strikes that are forgiven at the same rate; too many is a flood."""

    def __init__(self, limits: Limits) -> None:
        self.rate, self.burst, self.flood = limits.rate, float(limits.burst), limits.flood_close
        self.tokens = self.burst
        self.strikes = 0.0
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        elapsed, self.at = now - self.at, now
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)
        self.strikes = max(0.0, self.strikes - elapsed * self.rate)
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.strikes += 1
        return False

    @property
    def flooding(self) -> bool:
        return self.strikes > self.flood


# One table per preset and game on first start, so hands are dealt at once, and one with
# the table options.
DEMO_TABLES = (
    TableConfig("nlhe-1-2", "Oslo (NL Hold'em $1/$2)", "multipoker", "holdem", "no_limit", 200, 6),
    TableConfig(
        "flhe-2-4", "Copenhagen (Limit Hold'em $2/$4)", "fortune", "holdem", "fixed_limit", 200, 5
    ),
    TableConfig("plo-1-2", "Bergen (PL Omaha $1/$2)", "titan", "omaha", "pot_limit", 200, 6),
    TableConfig(
        "o8-2-4",
        "Trondheim (Limit Omaha Hi-Lo $2/$4)",
        "titan",
        "omaha_hilo",
        "fixed_limit",
        200,
        6,
    ),
    TableConfig("hu-nlhe", "Stockholm (Heads-up NL $1/$2)", "sweden", "holdem", "no_limit", 200, 2),
    TableConfig(
        "casino-nlhe", "Budapest (Casino NL $1/$2)", "casino", "holdem", "no_limit", 200, 10
    ),
    # The table options of the large rooms, for everyone (RULES.md "Beyond the seeds"): a
    # straddle left of the big blind and the board run twice when all agree.
    TableConfig(
        "nlhe-options",
        "Reykjavik (NL Hold'em $1/$2, straddle, run it twice)",
        "multipoker",
        "holdem",
        "no_limit",
        200,
        6,
        (("straddle", True), ("run_it_twice", True)),
    ),
)


class Room:
    def __init__(
        self,
        db: Database,
        *,
        pause: float = 1.5,
        limits: Limits | None = None,
        node: str | None = None,
        placement: Placement | None = None,
    ) -> None:
        """``placement``: where the tables run (server/tables/placement.py; chosen in
        server/app.py), by default every table on this node."""
        self.db = db
        self.store = RoomStore(db)
        self.pause = pause
        self.limits = Limits() if limits is None else limits
        self.actors: dict[str, TableActor] = {}
        self.node = node_id() if node is None else node
        self.metrics = RoomMetrics(
            node=self.node,
            tables=self.open_tables,
            players=self.players_seated,
            sockets=lambda: len(self.clients),
        )
        db.writer.observe = self.metrics.committed
        self.clients: set[Client] = set()  # every open connection (S-AUTH-2 closes them)
        self.account_limits = AccountLimits()  # chat and seat changes per account
        self.per_address: Counter[str] = Counter()
        # Refused clients' warnings, limited per address and reason (refusal_log.py).
        self.refusals = RefusalLog(logging.getLogger("pokerroom.server"))
        self.draining = False  # stopping: no new hand, tables handed over (server/ops/drain.py)
        # The tournament tables other nodes run where an account sits (tournament_nodes.py).
        self.seated_elsewhere: Callable[[int], list[str]] = lambda account: []
        # Tables another concern runs its own way (server/private/): each actor as it is
        # added, before its task starts; and the tables the lobby never lists.
        self.prepare: Callable[[TableActor], None] | None = None
        self.unlisted: Callable[[str], bool] = lambda table_id: False
        # Which tables run here and how the other nodes are reached (one node: all, none).
        self.placement = Placement() if placement is None else placement
        self.links = self.placement.links
        self.placement.bind(self)

    # ------------------------------------------------------------ connections

    def connect(self, client: Client) -> str | None:
        """Register a new connection, or say why it is refused."""
        if self.per_address[client.address] >= self.limits.connections_per_address:
            return f"too many connections from {client.address}"
        self.per_address[client.address] += 1
        self.clients.add(client)
        self.links.attach(client)
        return None

    def disconnect(self, client: Client) -> None:
        self.links.detach(client)
        if client in self.clients:
            self.clients.discard(client)
            self.per_address[client.address] -= 1
            if self.per_address[client.address] <= 0:
                del self.per_address[client.address]

    def connections_of(self, account_id: int) -> list[Client]:
        """Every open connection of an account (a seat offered to it is told on each), on
        this node and, for this node's tables, on the others."""
        remote = list(self.links.remotes())
        return [c for c in [*self.clients, *remote] if c.account_id == account_id and not c.closed]

    def seated(self, account_id: int) -> list[str]:
        """The tables where the account has a seat (told at hello)."""
        return [i for i, a in self.actors.items() if a.seat_holder(account_id) is not None]

    def open_tables(self) -> int:
        return sum(1 for actor in self.actors.values() if not actor.closed)

    def players_seated(self) -> int:
        return sum(len(actor.table.seats) for actor in self.actors.values())

    def anonymous_watchers(self) -> int:
        return sum(1 for c in self.clients if c.account_id is None and c.tables)

    def revoke(self, token: str) -> int:
        """A session was revoked (log-out): close the sockets that logged in with it (on
        every node: the count is this node's)."""
        self.tell_nodes(notices.Revoke(token=token))
        return self._close(lambda c: c.token == token, "logged out")

    def suspend(self, account_id: int) -> int:
        """An account was suspended: close its sockets and tell every table (the floor's
        rule there: sat out, cashed out after the hand), on every node."""
        self.tell_nodes(notices.Suspend(account=account_id))
        closed = self._close(lambda c: c.account_id == account_id, "account suspended")
        for actor in self.actors.values():
            actor.post(Suspend(AccountId(account_id)))
        return closed

    def auto_muck(self, account_id: int, on: bool) -> None:
        """The account's auto-muck preference changed: its seats follow it from the next
        showdown (each table's own task sets it, between two of its messages)."""
        self.tell_nodes(notices.AutoMuck(account=account_id, on=on))
        for actor in self.actors.values():
            actor.post(AutoMuck(AccountId(account_id), on))

    def tell_nodes(self, notice: notices.RoomNotice) -> None:
        """Tell every other node something room-wide (on one node: nothing)."""
        self.links.notify(notice)

    def notice(self, notice: notices.RoomNotice) -> None:
        """Another node's room-wide notice (this node's own were done at once)."""
        match notice:
            case notices.Revoke(token=token):
                self._close(lambda c: c.token == token, "logged out")
            case notices.Suspend(account=account):
                self._close(lambda c: c.account_id == account, "account suspended")
                for actor in self.actors.values():
                    actor.post(Suspend(AccountId(account)))
            case notices.AutoMuck(account=account, on=on):
                for actor in self.actors.values():
                    actor.post(AutoMuck(AccountId(account), on))
            case notices.Deliver(account=account, line=line):  # a tournament's, to its player
                for client in self._sockets_of(account):
                    client.deliver(line)
            case notices.Follow(account=account, table=table):  # the table the player sits at
                for client in self._sockets_of(account):
                    client.tables.add(table)
                    if table not in self.actors:
                        self.links.resync(client, table)  # asks its owner for it (a watch)

    def _sockets_of(self, account: int) -> list[Client]:
        return [c for c in self.clients if c.account_id == account and not c.closed]

    def _close(self, which: Any, reason: str) -> int:
        chosen = [c for c in self.clients if which(c)]
        for client in chosen:
            client.drop(1008, reason)
        return len(chosen)

    def restored(
        self, table_id: str, raw: dict[str, Any], snapshot: str, last: int, *, reason: str
    ) -> Adopted:
        """A table rebuilt from its stored snapshot, as a restart (or a node adopting it)
        finds it: a hand cut off there cancelled, every chip back (R-DECK-5), its
        obligations restored; ``table`` is the (config, Table) pair to run."""
        raw["overrides"] = tuple(tuple(p) for p in raw.get("overrides", []))
        config = TableConfig(**raw)
        table = Table.from_json(snapshot, rng=SystemRandomSource())
        left: list[tuple[int, int]] = []
        if table.hand is not None:  # cut off by a crash: every chip goes back
            for event in table.cancel_hand(reason):
                if isinstance(event, SeatLeft):  # asked to leave during the hand
                    left.append((account_of(event.player), event.stack))
        table.hand_number = max(table.hand_number, last)
        return Adopted((config, table), config.name, config_json(config), table.to_json(), left)

    async def start(self, *, demo: bool = True) -> None:
        await self.db.migrate()
        await self.placement.start(demo=demo)

    async def reopen(self, *, demo: bool) -> None:
        """Run every stored table here (a hand cut off by a restart cancelled), or the
        demo tables if none is stored."""
        built: list[tuple[TableConfig, Table]] = []

        def restore(table_id: str, raw: dict[str, Any], snapshot: str, last: int) -> Reopened:
            adopted = self.restored(table_id, raw, snapshot, last, reason="server restart")
            config, table = adopted.table
            built.append((config, table))
            return Reopened(saved(config, table), adopted.leavers)

        def first() -> list[tuple[str, TableSave]]:
            tables = [(config, config.build()) for config in DEMO_TABLES] if demo else []
            built.extend(tables)
            return [(config.id, saved(config, table)) for config, table in tables]

        await self.store.reopen_tables(restore, first, now=utcnow())
        for config, table in built:
            self._add(config, table)
        for actor in self.actors.values():
            _launch(actor)

    async def first_tables(self, demo: bool) -> None:
        """The demo tables stored by the first node to start (the others find them)."""

        def tables() -> list[tuple[str, str, dict[str, Any], str]]:
            chosen = DEMO_TABLES if demo else ()
            return [(c.id, c.name, config_json(c), c.build().to_json()) for c in chosen]

        await self.db.run(partial(first_tables_sync, tables=tables, now=utcnow()))

    def run_table(self, adopted: Adopted, lease: Lease) -> TableActor:
        """Run a table this node has just taken the lease of: its writes fenced on it."""
        config, table = adopted.table
        self._add(config, table)
        actor = self.actors[config.id]
        actor.store.lease = lease
        actor.store.hold = self.placement.hold
        _launch(actor)
        return actor

    def depose(self, table_id: str, reason: str) -> bool:
        """Stop running a table at once (its lease is lost or could not be renewed): its
        task ends, no write of it is made under the old epoch (they would be refused), and
        its clients are told to reconnect (another node runs it now). False: not here."""
        actor = self.actors.pop(table_id, None)
        if actor is None:
            return False
        actor.closed = True
        if actor.task is not None and actor.task is not asyncio.current_task():
            actor.task.cancel()
        for client in list(actor.watchers):
            client.drop(1012, f"table {table_id} moved to another node: reconnect")
        return True

    async def open_table(self, config: TableConfig) -> TableActor:
        """Open a new table while the room runs."""
        if config.id in self.actors:
            raise TableError(code="table.already_open", table=config.id)
        return await self.placement.open_table(config, config.build())

    async def open_here(self, config: TableConfig, table: Table) -> TableActor:
        """A new table stored, then run on this node (no lease)."""
        await self.store.save_table(config.id, saved(config, table), now=utcnow())
        self._add(config, table)
        actor = self.actors[config.id]
        _launch(actor)
        return actor

    def _add(self, config: TableConfig, table: Table) -> None:
        table.waiting.wall_offset = wall_offset()  # its holds' deadlines on the wall clock
        actor = TableActor(
            self.db, config.id, table, config_json(config), pause=self.pause, policy=CashPolicy()
        )
        actor.shares.limit = self.limits.inbox_messages
        actor.waiting_list.reach = self.connections_of
        actor.limits = self.account_limits
        actor.metrics = self.metrics
        self.placement.added(actor)
        actor.moving = self.draining  # opened while the node drains: no hand to cancel
        if self.prepare is not None:
            self.prepare(actor)
        self.actors[config.id] = actor

    async def stop(self) -> None:
        await self.placement.stop()
        actors = list(self.actors.values())  # (a drain may still hand tables over)
        for actor in actors:
            if actor.task is not None:
                actor.task.cancel()
        for actor in actors:
            if actor.task is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await actor.task
        # Hands' ends already handed to the writer are committed (or refused) before the
        # database closes: what the players saw end is stored, or cancelled on restart.
        writes = [a.hand_ends.ending.write for a in actors if a.hand_ends.ending is not None]
        await asyncio.gather(*writes, return_exceptions=True)
        await self.placement.release()  # another node adopts them at once, not after the TTL
        await self.db.close()  # drains the writer's queue

    def lobby(self, viewer: int | None = None) -> list[dict[str, Any]]:
        """Every cash table as the lobby lists it (tournament tables are listed by their
        event, private games' not at all); ``you_wait`` is the ``viewer``'s place on its
        waiting list (None: not on it, or not logged in)."""
        entries = []
        for actor in self.actors.values():
            if actor.table.tournament or self.unlisted(actor.table_id):
                continue
            entry = actor.lobby_entry()
            waiting = actor.table.waiting
            entry["you_wait"] = None if viewer is None else waiting.position(str(viewer))
            entries.append(entry)
        listed = self.placement.lobby(entries, viewer, set(self.actors))
        return [e for e in listed if not self.unlisted(e["id"])]


def wall_offset() -> float:
    """The wall clock minus the tables' clock (the running loop's ``time``)."""
    return time.time() - asyncio.get_running_loop().time()


def saved(config: TableConfig, table: Table) -> TableSave:
    return TableSave(config.name, config_json(config), table.to_json())


def _launch(actor: TableActor) -> None:
    # A context of its own: a table opened while a request is handled is no part of it (its
    # lines name no request id, server/ops/request_ids.py).
    actor.task = asyncio.create_task(
        actor.run(), name=f"table {actor.table_id}", context=contextvars.Context()
    )
    actor.task.add_done_callback(_ended)


def _ended(task: asyncio.Task[None]) -> None:
    """A table's task never ends but by the room stopping: anything else is logged."""
    if not task.cancelled() and task.exception() is not None:
        logging.getLogger("pokerroom.table").error(
            "%s: the task ended: %r", task.get_name(), task.exception(), exc_info=task.exception()
        )


def config_json(config: TableConfig) -> dict[str, Any]:
    return {
        "id": config.id,
        "name": config.name,
        "preset": config.preset,
        "variant": config.variant,
        "structure": config.structure,
        "big_blind": config.big_blind,
        "seats": config.seats,
        "overrides": [list(p) for p in config.overrides],
    }
