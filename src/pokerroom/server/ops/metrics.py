"""What operators watch: Prometheus metrics served at ``/metrics``.

Each room has its own registry (a test may run several rooms in one process). The gauges
are read from the room when Prometheus scrapes; the counters and histograms are fed by the
tables' tasks (hands, actions) and by the database's writer (its batches and commits).
"""

from __future__ import annotations

import hmac
import ipaddress
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from pokerroom.server.sockets.addresses import ip_of
from pokerroom.store.group_commit import Committed

__all__ = ["CONTENT_TYPE_LATEST", "CountResponses", "MetricsAccess", "RoomMetrics"]

# Seconds from a player's action reaching the table to the table's frame showing it.
ACTION_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
COMMIT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
# Seconds from a command sent by a socket's node to its table's owner reading it.
LAG_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0, 30.0)

# The bus's figures (``Bus.figures``), read at each scrape: counters, then gauges.
BUS_COUNTERS = {
    "sent": ("pokerroom_bus_commands_sent", "Commands this node sent to tables' owners"),
    "applied": ("pokerroom_bus_commands_applied", "Commands applied by this node as owner"),
    "duplicates": (
        "pokerroom_bus_commands_duplicate",
        "Commands read again under a key already applied (applied once)",
    ),
    "expired": (
        "pokerroom_bus_commands_expired",
        "Commands read too late to apply (their sender was told so)",
    ),
    "resyncs": (
        "pokerroom_bus_resyncs",
        "Whole table states asked for (a version skipped, Redis back, a new owner)",
    ),
    "reconnections": (
        "pokerroom_bus_reconnections",
        "Times this node's Redis subscription was lost and came back",
    ),
}
BUS_GAUGES = {
    "up": ("pokerroom_bus_up", "1 while this node listens to its Redis channels"),
    "remote_clients": (
        "pokerroom_bus_remote_clients",
        "Connections on other nodes that this node's tables send to",
    ),
    "backlog": (
        "pokerroom_bus_backlog",
        "Messages this node has yet to publish (frames for other nodes, notices)",
    ),
    "acks_waiting": (
        "pokerroom_bus_acks_waiting",
        "Commands handled by this node's tables and not yet acknowledged on Redis",
    ),
}


class RoomMetrics:
    """The room's series. ``tables`` and ``players`` are read from the room at each scrape."""

    def __init__(
        self,
        *,
        node: str,
        tables: Callable[[], int],
        players: Callable[[], int],
        sockets: Callable[[], int] = lambda: 0,
    ) -> None:
        self.node = node
        self.registry = CollectorRegistry()
        labels = {"node": node}
        # The process's own (process_cpu_seconds_total, process_resident_memory_bytes,
        # process_open_fds, process_start_time_seconds) and the Python's (python_info).
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        build = Gauge(
            "pokerroom_build_info",
            "The room's version on this node (1): a rolling upgrade's progress",
            ["version"],
            registry=self.registry,
        )
        build.labels(version=_version()).set(1)
        self.sockets = Gauge(
            "pokerroom_websockets_open",
            "WebSocket connections open on this node (players and watchers)",
            registry=self.registry,
        )
        self.sockets.set_function(sockets)
        self.http = Counter(
            "pokerroom_http_responses",
            "HTTP responses by status; a WebSocket handshake counts 101 (accepted) or the"
            " status it was refused with (403: its Origin)",
            ["status"],
            registry=self.registry,
        )
        self.faults = Counter(
            "pokerroom_table_faults",
            "Faults in the tables' logic or writes the store refused (each logged): the"
            " floor's faults, counted on the node where they happened",
            registry=self.registry,
        )
        self.tables = Gauge("pokerroom_tables", "Tables open on this node", registry=self.registry)
        self.tables.set_function(tables)
        self.players = Gauge(
            "pokerroom_players_seated",
            "Players seated at this node's tables",
            registry=self.registry,
        )
        self.players.set_function(players)
        self.hands = Counter(
            "pokerroom_hands",
            "Hands ended and stored, by outcome: complete, or cancelled (every chip back: a"
            " void, a fault, a failover); rate() gives hands/s",
            ["outcome"],
            registry=self.registry,
        )
        for outcome in ("complete", "cancelled"):
            self.hands.labels(outcome=outcome)  # both shown from the start, at 0
        histogram = partial(Histogram, registry=self.registry)
        self.actions = histogram(
            "pokerroom_action_seconds",
            "From a player's action reaching its table to the table's frame that shows it",
            buckets=ACTION_BUCKETS,
        )
        self.batch = histogram(
            "pokerroom_write_batch_units",
            "Writes (hands' starts and ends) committed together by the group commit",
            buckets=BATCH_BUCKETS,
        )
        self.commit = histogram(
            "pokerroom_commit_seconds",
            "One group-commit transaction, from its start to its commit",
            buckets=COMMIT_BUCKETS,
        )
        self.failed_batches = Counter(
            "pokerroom_write_batches_failed",
            "Batches rolled back whole (their units then committed one at a time)",
            registry=self.registry,
        )
        self.lease_changes = Counter(
            "pokerroom_lease_changes",
            "Tables' leases taken (acquired, adopted from a node gone), lost or released",
            ["change"],
            registry=self.registry,
        )
        info = Gauge("pokerroom_node", "This node", ["node"], registry=self.registry)
        info.labels(**labels).set(1)

    def watch_bus(self, figures: Callable[[], Mapping[str, float]]) -> Callable[[float], None]:
        """A node of several (server/nodes/bus.py): its bus's ``figures`` are read at each scrape.
        Returns what observes a command's lag (sent to read by its owner)."""
        self.registry.register(_BusCollector(figures))
        lag = Histogram(
            "pokerroom_bus_command_lag_seconds",
            "From a command sent by a socket's node to its table's owner reading it "
            "(the nodes' clocks: keep them in sync)",
            buckets=LAG_BUCKETS,
            registry=self.registry,
        )
        return lag.observe

    def committed(self, commit: Committed) -> None:
        """The database writer's hook (``GroupCommit.observe``)."""
        self.commit.observe(commit.seconds)
        if commit.ok:
            self.batch.observe(commit.units)
        else:
            self.failed_batches.inc()

    def exposition(self) -> bytes:
        """The text Prometheus scrapes."""
        return generate_latest(self.registry)


def _version() -> str:
    try:
        return version("pokerroom")
    except PackageNotFoundError:  # pragma: no cover - run from a tree never installed
        return "unknown"


class CountResponses:
    """ASGI middleware: every HTTP response's status, and every WebSocket handshake's
    outcome, counted in ``counter`` (labelled by status)."""

    def __init__(self, app: Any, counter: Counter) -> None:
        self.app = app
        self.counter = counter

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        answered = False

        async def counting(message: Any) -> None:
            nonlocal answered
            kind = message["type"]
            if not answered and kind in ("http.response.start", "websocket.http.response.start"):
                self.counter.labels(status=str(message["status"])).inc()
                answered = True
            elif not answered and kind == "websocket.accept":
                self.counter.labels(status="101").inc()
                answered = True
            elif not answered and kind == "websocket.close":  # before accept: refused
                self.counter.labels(status="403").inc()
                answered = True
            await send(message)

        await self.app(scope, receive, counting)


class _BusCollector:
    """The bus's counters and gauges as Prometheus reads them (its own plain integers, so
    the bus's hot path never touches prometheus-client)."""

    def __init__(self, figures: Callable[[], Mapping[str, float]]) -> None:
        self.figures = figures

    def collect(self) -> Iterator[Metric]:
        now = self.figures()
        for key, (name, text) in BUS_COUNTERS.items():
            yield CounterMetricFamily(name, text, value=now[key])
        for key, (name, text) in BUS_GAUGES.items():
            yield GaugeMetricFamily(name, text, value=now[key])


Network = ipaddress.IPv4Network | ipaddress.IPv6Network
LOOPBACK: tuple[Network, ...] = (
    ipaddress.ip_network("127.0.0.0/8"),
    ipaddress.ip_network("::1/128"),
)


@dataclass(frozen=True, slots=True)
class MetricsAccess:
    """Who may read ``/metrics`` (docs/security.md): the figures say how busy each table
    and the database are, which is the operators' business, not the players'. Allowed:
    a request from loopback (a Prometheus or an agent on the node itself), from one of
    the ``networks`` the operator names (their Prometheus), or carrying the ``token`` as
    ``Authorization: Bearer ...``. Anyone else gets 403."""

    networks: tuple[Network, ...] = LOOPBACK
    token: str | None = None

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> MetricsAccess:
        """POKERROOM_METRICS_FROM: comma-separated addresses or networks allowed besides
        loopback; POKERROOM_METRICS_TOKEN: a bearer token that is allowed from anywhere.
        A malformed network is an error at start, never an open door."""
        env = dict(os.environ) if env is None else env
        extra = [n.strip() for n in env.get("POKERROOM_METRICS_FROM", "").split(",") if n.strip()]
        try:
            networks = LOOPBACK + tuple(ipaddress.ip_network(n, strict=False) for n in extra)
        except ValueError as error:
            raise ValueError(f"POKERROOM_METRICS_FROM: {error}") from None
        token = env.get("POKERROOM_METRICS_TOKEN") or None
        if token is not None and len(token) < 16:
            raise ValueError(
                "POKERROOM_METRICS_TOKEN: at least 16 characters (a guessable "
                "token would open the metrics to anyone)"
            )
        return cls(networks, token)

    def allows(self, address: str | None, authorization: str | None) -> bool:
        """Whether a request from ``address`` with this ``Authorization`` header may read."""
        if self.token is not None and authorization is not None:
            scheme, _, given = authorization.partition(" ")
            if scheme.lower() == "bearer" and hmac.compare_digest(
                given.strip().encode(), self.token.encode()
            ):
                return True
        if address is None:
            return False
        ip = ip_of(address)  # ::ffff:127.0.0.1 is loopback too
        if ip is None:  # not an address (a test client's name, a Unix socket)
            return False
        return any(ip in network for network in self.networks)
