"""The ASGI app: REST (accounts, balance, lobby; OpenAPI at /openapi.json) and the WebSocket,
assembled from the routers in ``pokerroom.server.http``."""

import asyncio
import os
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import MutableHeaders

from pokerroom.rules.schedule import load_schedule
from pokerroom.server.accounts.auth import Auth
from pokerroom.server.http import (
    accounts,
    backoffice,
    fairness,
    floor,
    hands,
    preferences,
    private_games,
    results,
    socket,
    tournaments,
)
from pokerroom.server.nodes.bus import forget_room as forget_room_keys
from pokerroom.server.nodes.event_requests import BusRequests, EventRequests
from pokerroom.server.nodes.event_views import EventViewer
from pokerroom.server.nodes.placement import BusLinks, Leased, SocketsOnly
from pokerroom.server.nodes.tournament_leases import TournamentLeases
from pokerroom.server.ops.logs import node_id
from pokerroom.server.ops.metric_history import MetricHistory
from pokerroom.server.ops.metrics import CONTENT_TYPE_LATEST, CountResponses, MetricsAccess
from pokerroom.server.ops.request_ids import RequestIds
from pokerroom.server.private.games import PrivateGames
from pokerroom.server.sockets import errors
from pokerroom.server.tables.placement import Links, Placement
from pokerroom.server.tables.room import Limits, Room
from pokerroom.server.tournaments.hall import Events, Tournaments
from pokerroom.store.db import Database
from pokerroom.store.nodes.leases import LeaseSettings
from pokerroom.store.tables.private_games import PrivateGamesStore

WEB = Path(__file__).resolve().parent.parent / "web"  # the browser client, no build step
NO_CACHE = {"Cache-Control": "no-cache"}


class ClientFiles(StaticFiles):
    """The client's files, each revalidated on every load (``no-cache``: the browser keeps
    it and asks with its ETag, a 304 when unchanged). The ES modules import each other by
    plain names, with no hash to bust a cache, so a file kept without asking could pair a new
    page with an old module after an upgrade."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers.update(NO_CACHE)
        return response


HOST = re.compile(r"^[A-Za-z0-9.:\[\]-]{1,255}$")  # a Host header fit to repeat in the CSP
__all__ = ["WEB", "SecurityHeaders", "create_app"]


class SecurityHeaders:
    """Headers for a room on the internet, on every HTTP response: a Content-Security-Policy
    with no inline script and no framing, no MIME sniffing, no referrer to other sites."""

    def __init__(self, app: Any, *, exempt: tuple[str, ...] = ()) -> None:
        self.app = app
        self.exempt = exempt  # the Swagger pages when switched on (their script is inline)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
        sockets = f" ws://{host} wss://{host}" if HOST.match(host) else ""
        policy = (
            "default-src 'self'; script-src 'self'; style-src 'self'; "
            "style-src-attr 'unsafe-inline'; img-src 'self' data:; "
            f"connect-src 'self'{sockets}; object-src 'none'; base-uri 'none'; "
            "form-action 'self'; frame-ancestors 'none'"
        )
        exempt = scope["path"] in self.exempt

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if not exempt:
                    headers["Content-Security-Policy"] = policy
                headers["X-Frame-Options"] = "DENY"
                headers["X-Content-Type-Options"] = "nosniff"
                headers["Referrer-Policy"] = "same-origin"
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def forget_room(url: str, prefix: str | None = None) -> None:
    """The room's keys on the nodes' Redis at ``url`` deleted, for a fresh room (a load
    test's, a test's): ``server/nodes/bus.py``, reached, as all of nodes/, from here."""
    await forget_room_keys(url, prefix)


def _links(redis: str | None, node: str, prefix: str | None) -> tuple[Links, EventRequests]:
    """How this node reaches the others: over the Redis bus at ``redis`` (its clients'
    commands and its players' requests for other nodes' events), or not at all (a player
    who asks for another node's event is told which node runs it)."""
    if redis is None:
        return Links(), EventRequests()
    links = BusLinks(redis, node, prefix=prefix)
    return links, BusRequests(links.bus)


def _placement(
    links: Links, requests: EventRequests, leases: LeaseSettings | None, *, own_tables: bool
) -> tuple[Placement, Callable[[], Events | None]]:
    """Where the tables run, and (once the room is built) where the events run: with
    ``leases``, the tables and events whose leases this node holds; else with ``own_tables``
    every table and event here (reached by other nodes' sockets over ``links``); else none,
    a node that only holds sockets (its clients' commands carried over ``links``, its
    players' requests for events by ``requests``)."""
    if leases is not None:
        leased = Leased(leases, links)
        return leased, lambda: TournamentLeases(leased.leases, requests)
    if own_tables:
        return Placement(links), lambda: None
    return SocketsOnly(links), lambda: EventViewer(requests)


def create_app(
    database_url: str,
    *,
    demo: bool = True,
    pause: float = 1.5,
    docs: bool | None = None,
    limits: Limits | None = None,
    repeat: tuple[str, ...] = (),
    schedule: str | None = None,
    node: str | None = None,
    leases: LeaseSettings | None = None,
    redis: str | None = None,
    redis_prefix: str | None = None,
    own_tables: bool = True,
    metrics_access: MetricsAccess | None = None,
) -> FastAPI:
    """The room's app. ``docs`` (default: the setting POKERROOM_DOCS, off) serves Swagger UI at
    /docs, which loads its script from a CDN: for development, not for a room on the
    internet. ``limits`` default to Limits.from_env() (POKERROOM_* settings). ``repeat``
    names the sit & go structures kept open for registration, one after another. With
    ``leases`` the room is one node (``node``) of several sharing a PostgreSQL database:
    it runs the tables whose leases it holds (server/nodes/leasing.py); ``redis``: the nodes'
    Redis, which carries clients' commands to a table's owner and its frames back
    (server/nodes/bus.py), under ``redis_prefix`` (default ``pokerroom:<db>:``); ``own_tables``
    False: without leases, a node that only holds sockets.
    Each tournament is run by the node holding its lease (server/nodes/tournament_leases.py).
    ``metrics_access``: who may read /metrics (default: MetricsAccess.from_env())."""
    access = MetricsAccess.from_env() if metrics_access is None else metrics_access
    if docs is None:
        docs = os.environ.get("POKERROOM_DOCS", "").lower() in ("1", "true", "yes", "on")
    if leases is not None and not database_url.startswith("postgresql"):
        raise ValueError(f"several nodes share a PostgreSQL database, not {database_url!r}")
    name = node_id() if node is None else node  # (the room's, as it names itself)
    links, requests = _links(redis, name, redis_prefix)
    placement, events = _placement(links, requests, leases, own_tables=own_tables)
    room = Room(
        Database(database_url, name=node, immediate=True),
        pause=pause,
        limits=Limits.from_env() if limits is None else limits,
        node=node,
        placement=placement,
    )
    auth = Auth(room.store)
    # Before the room starts: its private tables are restored dealing through their games.
    private = PrivateGames(room, PrivateGamesStore(room.db))
    hall = Tournaments(
        room,
        repeat=repeat,
        schedule=None if schedule is None else load_schedule(schedule),
        events=events(),
    )
    private.hall = hall  # a private sit & go is one of the hall's events

    history = MetricHistory(room.metrics.registry)  # the back office's charts

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await room.start(demo=demo)
        await hall.start()
        if own_tables:  # a node that runs tables runs the private games' too
            await private.start()
        sampling = asyncio.create_task(history.run(), name="metric history")
        yield
        sampling.cancel()
        if own_tables:
            await private.stop()
        await hall.stop()
        await room.stop()
        auth.close()

    app = FastAPI(
        title="pokerroom",
        version="0.1.0",
        lifespan=lifespan,
        docs_url="/docs" if docs else None,
        redoc_url=None,
    )
    app.add_middleware(SecurityHeaders, exempt=("/docs",) if docs else ())
    # Counted inside RawSocketSend: the send the sockets keep is the server's own, not
    # the counting wrapper (every frame would pay for it).
    app.add_middleware(CountResponses, counter=room.metrics.http)
    app.add_middleware(socket.RawSocketSend)  # the sockets' frames, straight to the server
    # Outermost: the other middlewares' lines name the request too (server/ops/request_ids.py).
    app.add_middleware(RequestIds)
    app.state.room = room
    app.state.store = room.store
    app.state.auth = auth
    app.state.tournaments = hall
    app.state.private = private
    app.state.metric_history = history
    app.state.redis = redis  # the nodes' Redis, None on a single node
    for concern in (
        floor,
        backoffice,
        accounts,
        hands,
        results,
        fairness,
        preferences,
        socket,
        tournaments,
        private_games,
    ):
        app.include_router(concern.router)
    errors.install(app)  # every error response carries a code and its params

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return FileResponse(WEB / "index.html", headers=NO_CACHE)

    @app.get("/ready", include_in_schema=False)
    async def ready() -> Response:
        """For a balancer's health check: 200 once the node has started (schema migrated,
        tables opened: the app answers nothing before), 503 while it drains to stop."""
        if room.draining:
            return Response('{"ready":false,"draining":true}', 503, media_type="application/json")
        return Response('{"ready":true}', media_type="application/json")

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        """Prometheus metrics (server/ops/metrics.py), for the operators' scraper only
        (``MetricsAccess``: loopback, the networks named, or the token)."""
        address = request.client.host if request.client is not None else None
        if not access.allows(address, request.headers.get("authorization")):
            raise errors.ApiError(403, "metrics.operators_only")
        return Response(room.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)

    app.mount("/static", ClientFiles(directory=WEB), name="static")
    return app
