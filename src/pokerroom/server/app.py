"""The ASGI app: REST (accounts, balance, lobby; OpenAPI at /openapi.json) and the WebSocket."""

import asyncio
import contextlib
import json
import logging
import os
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import (
    Depends,
    FastAPI,
    Header,
    HTTPException,
    Query,
    Request,
    WebSocket,
)
from fastapi import (
    Path as PathParam,
)
from fastapi.responses import FileResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.datastructures import MutableHeaders

from pokerroom.history.phh import PHHError, load_text, phh_fields, replay, to_toml, write_phh
from pokerroom.history.pokerstars import pokerstars_text
from pokerroom.history.viewer import ViewerHand, viewer_hand
from pokerroom.rules.errors import RulesError
from pokerroom.server import protocol
from pokerroom.server.actor import Client, utcnow
from pokerroom.server.auth import Auth
from pokerroom.server.inbox import Close, Gone, Said, Void, Watching
from pokerroom.server.replayer import replay_frames
from pokerroom.server.room import Limits, RateLimit, Room, TableConfig
from pokerroom.store.accounts import AuthError, authenticate, revoke
from pokerroom.store.db import Database
from pokerroom.store.floor import FloorError, correct_hand, floor_acts, record_act, suspend_account
from pokerroom.store.hands import player_hands
from pokerroom.store.ledger import balance
from pokerroom.store.models import HandPlayer, HandRecord, TableRecord
from pokerroom.table import TableError

log = logging.getLogger("pokerroom.server")
WEB = Path(__file__).resolve().parent.parent / "web"  # the browser client, no build step
NO_CACHE = {"Cache-Control": "no-cache"}
CLOSE_SECONDS = 2.0  # the longest a dropped connection's closing handshake may take
HOST = re.compile(r"^[A-Za-z0-9.:\[\]-]{1,255}$")  # a Host header fit to repeat in the CSP
SLOW_DOWN = protocol.error("slow down: too many messages (this one was refused)")  # encoded once
HandId = Annotated[int, PathParam(ge=1, le=2**63 - 1)]  # the database's 64-bit ids


class Credentials(BaseModel):
    username: str = Field(min_length=3, max_length=32)
    password: str = Field(min_length=8, max_length=256)


class SessionOut(BaseModel):
    account_id: int
    username: str
    token: str


class FloorReason(BaseModel):
    reason: str = Field(min_length=1, max_length=500)


class NewTable(BaseModel):
    id: str = Field(min_length=1, max_length=64, pattern=r"^[a-z0-9-]+$")
    name: str = Field(min_length=1, max_length=64)
    preset: str = "titan"
    variant: str = "holdem"
    structure: str = "no_limit"
    big_blind: int = Field(default=200, gt=0)
    seats: int = Field(default=6, ge=2, le=10)


class Correction(BaseModel):
    account_id: int
    amount: int  # cents: positive pays the player, negative takes chips back
    reason: str = Field(min_length=1, max_length=500)


class MeOut(BaseModel):
    account_id: int
    username: str
    display_name: str
    balance: int


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


def create_app(
    database_url: str,
    *,
    demo: bool = True,
    pause: float = 1.5,
    docs: bool | None = None,
    limits: Limits | None = None,
) -> FastAPI:
    """The room's app. ``docs`` (default: the setting POKERROOM_DOCS, off) serves Swagger UI at
    /docs, which loads its script from a CDN: for development, not for a room on the
    internet. ``limits`` default to Limits.from_env() (POKERROOM_* settings)."""
    if docs is None:
        docs = os.environ.get("POKERROOM_DOCS", "").lower() in ("1", "true", "yes", "on")
    room = Room(
        Database(database_url), pause=pause, limits=Limits.from_env() if limits is None else limits
    )
    auth = Auth(room.db)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await room.start(demo=demo)
        yield
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
    app.state.room = room
    app.state.auth = auth

    async def current(authorization: Annotated[str | None, Header()] = None) -> Any:
        if not authorization or not authorization.startswith("Bearer "):
            raise HTTPException(401, "send 'Authorization: Bearer <token>'")
        async with room.db.transaction() as session:
            try:
                return await authenticate(session, authorization[7:], now=utcnow())
            except AuthError as error:
                raise HTTPException(401, str(error)) from None

    async def operator(account: Annotated[Any, Depends(current)]) -> Any:
        if account.role != "operator":
            raise HTTPException(403, "the floor is for operators")
        return account

    @app.get("/api/floor/tables")
    async def floor_tables(_: Annotated[Any, Depends(operator)]) -> list[dict[str, Any]]:
        """Live tables, with the hand in progress and the faults each table's task has logged."""
        return [{**actor.lobby_entry(), "faults": actor.faults} for actor in room.actors.values()]

    @app.post("/api/floor/tables")
    async def floor_open(body: NewTable, who: Annotated[Any, Depends(operator)]) -> dict[str, Any]:
        """Open a table while the room runs."""
        config = TableConfig(
            body.id,
            body.name,
            body.preset,
            body.variant,
            body.structure,
            body.big_blind,
            body.seats,
        )
        try:
            actor = await room.open_table(config)
        except (ValueError, RulesError) as error:
            raise HTTPException(409, str(error)) from None
        async with room.db.transaction() as session:
            await record_act(
                session, who.id, "open_table", f"table {body.id}", "opened", now=utcnow()
            )
        return actor.lobby_entry()

    @app.post("/api/floor/tables/{table_id}/void")
    async def floor_void(
        table_id: str, body: FloorReason, who: Annotated[Any, Depends(operator)]
    ) -> dict[str, Any]:
        """Void the hand in progress: every chip goes back (R-DECK-5)."""
        return await _floor_table(table_id, "void", body.reason, who)

    @app.post("/api/floor/tables/{table_id}/close")
    async def floor_close(
        table_id: str, body: FloorReason, who: Annotated[Any, Depends(operator)]
    ) -> dict[str, Any]:
        """Close a table: the hand in progress is voided and every player cashed out."""
        return await _floor_table(table_id, "close", body.reason, who)

    async def _floor_table(table_id: str, kind: str, reason: str, who: Any) -> dict[str, Any]:
        actor = room.actors.get(table_id)
        if actor is None:
            raise HTTPException(404, f"no table {table_id!r}")
        try:
            result = await actor.call(Close if kind == "close" else Void, reason)
        except TableError as error:
            raise HTTPException(409, str(error)) from None
        async with room.db.transaction() as session:
            await record_act(
                session,
                who.id,
                f"{kind}_table" if kind == "close" else "void_hand",
                f"table {table_id}",
                reason,
                now=utcnow(),
            )
            if kind == "close":
                record = await session.get(TableRecord, table_id)
                if record is not None:
                    record.closed = True
        return result

    @app.post("/api/floor/hands/{hand_id}/correct")
    async def floor_correct(
        hand_id: HandId, body: Correction, who: Annotated[Any, Depends(operator)]
    ) -> dict[str, Any]:
        """Correct a finished hand by a compensating ledger entry."""
        async with room.db.transaction() as session:
            try:
                act = await correct_hand(
                    session,
                    who.id,
                    hand_id,
                    body.account_id,
                    body.amount,
                    body.reason,
                    now=utcnow(),
                )
            except FloorError as error:
                raise HTTPException(409, str(error)) from None
        return {"act": act.id}

    @app.post("/api/floor/accounts/{account_id}/suspend")
    async def floor_suspend(
        account_id: int, body: FloorReason, who: Annotated[Any, Depends(operator)]
    ) -> dict[str, Any]:
        async with room.db.transaction() as session:
            try:
                act = await suspend_account(session, who.id, account_id, body.reason, now=utcnow())
            except FloorError as error:
                raise HTTPException(404, str(error)) from None
        room.suspend(account_id)  # S-AUTH-2: its sockets close now, its seats follow the floor
        return {"act": act.id}

    @app.get("/api/floor/acts")
    async def floor_log(_: Annotated[Any, Depends(operator)]) -> list[dict[str, Any]]:
        async with room.db.transaction() as session:
            acts = await floor_acts(session)
        return [
            {
                "id": a.id,
                "operator": a.operator_id,
                "act": a.act,
                "target": a.target,
                "reason": a.reason,
                "at": a.at.isoformat(),
            }
            for a in acts
        ]

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return FileResponse(WEB / "index.html", headers=NO_CACHE)

    app.mount("/static", StaticFiles(directory=WEB), name="static")

    def address(request: Request) -> str:
        return request.client.host if request.client is not None else "unknown"

    @app.post("/api/signup", response_model=SessionOut)
    async def signup(body: Credentials, request: Request) -> SessionOut:
        """A new account, logged in (rate-limited: 429 with Retry-After)."""
        try:
            account_id, username, token = await auth.sign_up(
                address(request), body.username, body.password
            )
        except AuthError as error:
            raise HTTPException(400, str(error)) from None
        return SessionOut(account_id=account_id, username=username, token=token)

    @app.post("/api/login", response_model=SessionOut)
    async def login(body: Credentials, request: Request) -> SessionOut:
        """A session token (rate-limited: 429; locked for a while after wrong passwords)."""
        try:
            logged = await auth.log_in(address(request), body.username, body.password)
        except AuthError as error:
            raise HTTPException(401, str(error)) from None
        return SessionOut(
            account_id=logged.account_id, username=body.username.lower(), token=logged.token
        )

    @app.post("/api/logout", status_code=204)
    async def logout(authorization: Annotated[str, Header()]) -> None:
        token = authorization.removeprefix("Bearer ")
        async with room.db.transaction() as session:
            await revoke(session, token)
        room.revoke(token)  # S-AUTH-2: the sockets that logged in with it close now

    @app.get("/api/me", response_model=MeOut)
    async def me(account: Annotated[Any, Depends(current)]) -> MeOut:
        async with room.db.transaction() as session:
            chips = await balance(session, "player", str(account.id))
        return MeOut(
            account_id=account.id,
            username=account.username,
            display_name=account.display_name,
            balance=chips,
        )

    @app.get("/api/hands")
    async def my_hands(
        account: Annotated[Any, Depends(current)],
        table: str | None = None,
        limit: Annotated[int, Query(ge=1)] = 50,
    ) -> list[dict[str, Any]]:
        """The player's hands, newest first, with their result."""
        async with room.db.transaction() as session:
            rows = await player_hands(session, account.id, table_id=table, limit=min(limit, 500))
        return [
            {
                "id": hand.id,
                "table": hand.table_id,
                "number": hand.number,
                "status": hand.status,
                "started_at": hand.started_at.isoformat(),
                "seat": player.seat,
                "net": player.end_stack - player.start_stack,
                "rake": hand.rake,
            }
            for hand, player in rows
        ]

    def _seen_by(record: HandRecord, position: int) -> ViewerHand:
        """A stored hand as the player in ``position`` may see it: the one decision every
        export below is written from (S-EXPORT-1)."""
        try:
            hand = replay(load_text(record.phh)[0]).hand
        except PHHError as error:  # pragma: no cover - our own records replay
            raise HTTPException(500, f"hand {record.id} does not replay: {error}") from None
        return viewer_hand(hand, position)

    async def _viewer_hand(account: Any, hand_id: int) -> tuple[HandRecord, ViewerHand]:
        async with room.db.transaction() as session:
            record = await session.get(HandRecord, hand_id)
            player = await session.get(HandPlayer, (hand_id, account.id))
        if record is None or player is None or record.status == "running":
            raise HTTPException(404, f"no finished hand {hand_id} of yours")
        return record, _seen_by(record, player.position)

    @app.get("/api/hands/{hand_id}.phh", response_class=PlainTextResponse)
    async def hand_phh(hand_id: HandId, account: Annotated[Any, Depends(current)]) -> str:
        """One hand as PHH, as this player may see it (S-EXPORT-1)."""
        record, seen = await _viewer_hand(account, hand_id)
        return write_phh(seen, _table=record.table_id, hand=record.number)

    @app.get("/api/hands/{hand_id}.txt", response_class=PlainTextResponse)
    async def hand_text(hand_id: HandId, account: Annotated[Any, Depends(current)]) -> str:
        """One hand as PokerStars-style text, for tracking programs."""
        record, seen = await _viewer_hand(account, hand_id)
        async with room.db.transaction() as session:
            table = await session.get(TableRecord, record.table_id)
        name, seats = record.table_id, None
        if table is not None:
            name, seats = table.name, json.loads(table.config).get("seats")
        return pokerstars_text(
            seen,
            hand_id=record.id,
            table_name=name,
            started_at=record.started_at,
            max_seats=seats if isinstance(seats, int) else None,
        )

    @app.get("/api/hands/{hand_id}/replay")
    async def hand_replay(
        hand_id: HandId, account: Annotated[Any, Depends(current)]
    ) -> dict[str, Any]:
        """The hand step by step for the browser's replayer, as this player saw it."""
        record, seen = await _viewer_hand(account, hand_id)
        frames = replay_frames(seen)
        return {"id": record.id, "table": record.table_id, "number": record.number, **frames}

    @app.get("/api/sessions/{table_id}.phhs", response_class=PlainTextResponse)
    async def session_phhs(
        table_id: str,
        account: Annotated[Any, Depends(current)],
        limit: Annotated[int, Query(ge=1)] = 200,
    ) -> str:
        """The player's recent hands at one table, oldest first, as one .phhs file."""
        async with room.db.transaction() as session:
            rows = await player_hands(
                session, account.id, table_id=table_id, limit=min(limit, 1000)
            )
        parts = []
        for k, (record, player) in enumerate(reversed(rows), start=1):
            seen = _seen_by(record, player.position)
            parts.append(f"[{k}]\n" + to_toml(phh_fields(seen, hand=record.number)))
        return "\n".join(parts)

    @app.get("/api/lobby")
    async def lobby() -> list[dict[str, Any]]:
        return room.lobby()

    @app.websocket("/ws")
    async def socket(websocket: WebSocket) -> None:
        await _connection(room, websocket)

    return app


async def _connection(room: Room, websocket: WebSocket) -> None:
    """One WebSocket: a reader (this coroutine's task), a writer draining the client's bounded
    queue, and the room's registry; whichever ends first ends the connection (S-ISOLATE-1)."""
    limits = room.limits
    origin = websocket.headers.get("origin")
    if origin is not None and not origin_allowed(origin, websocket.headers.get("host"), limits):
        await websocket.close(code=1008, reason="origin not allowed")  # before accept: 403
        return
    address = websocket.client.host if websocket.client is not None else ""
    client = Client(send=websocket.send_text, address=address, outbox_frames=limits.outbox_frames)
    refused = room.connect(client)
    if refused is not None:
        await websocket.close(code=1013, reason=refused)
        return
    tasks: list[asyncio.Task[Any]] = []
    try:
        await websocket.accept()
        client.deliver(protocol.frame(protocol.Welcome(version=protocol.PROTOCOL_VERSION)))
        tasks = [
            asyncio.create_task(client.write()),
            asyncio.create_task(_read(room, client, websocket)),
            asyncio.create_task(client.dropped.wait()),
        ]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        if client.closed:
            log.info(
                "connection %s (account %s) closed: %s",
                address,
                client.account_id,
                client.drop_reason,
            )
        if client.closed and client.drop_code != 1011:  # dropped, not broken: say why
            with contextlib.suppress(Exception):
                async with asyncio.timeout(CLOSE_SECONDS):
                    if client.flush:  # a protocol error: its message goes out first
                        await client.outbox.join()
                    tasks[0].cancel()
                    await websocket.close(code=client.drop_code, reason=client.drop_reason)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        room.disconnect(client)
        for table_id in client.tables:
            room.actors[table_id].post(Gone(client))


async def _read(room: Room, client: Client, websocket: WebSocket) -> None:
    """Read frames until the client leaves; refuse what is over the limits."""
    limits = room.limits
    bucket = RateLimit(limits)
    while True:
        # Idle: anonymous and watching nothing (a logged-in socket is accountable, and a
        # watching one is dropped if it stops reading).
        idle = None if client.tables or client.account_id is not None else limits.idle_seconds
        try:
            async with asyncio.timeout(idle):
                frame = await websocket.receive()
        except TimeoutError:
            client.drop(1000, f"idle for {limits.idle_seconds:g} s")
            return
        if frame["type"] == "websocket.disconnect":
            return
        # Frames already parsed are handed over without a pause: let the tables and other
        # sockets run between two of them, so a flood cannot hold the loop for thousands.
        await asyncio.sleep(0)
        if not bucket.take():
            client.deliver(SLOW_DOWN)
            if bucket.flooding:
                client.drop(1008, "too many messages")
                return
            continue
        try:
            message = protocol.parse_frame(frame.get("text"), frame.get("bytes"))
        except protocol.ProtocolError as error:
            client.deliver(protocol.error(str(error)))
            if error.fatal:  # binary or nested past reason: say so and close cleanly
                code = 1003 if frame.get("bytes") is not None else 1007
                client.drop(code, str(error)[:100], flush=True)
                return
            continue
        await _dispatch(room, client, message)


def origin_allowed(origin: str, host: str | None, limits: Limits) -> bool:
    """A browser may connect from the room's own origin or one the operator allowed."""
    if origin in limits.origins:
        return True
    return host is not None and origin in (f"http://{host}", f"https://{host}")


async def _dispatch(room: Room, client: Client, message: Any) -> None:
    if isinstance(message, protocol.Ping):
        client.deliver(protocol.frame(protocol.Pong()))
        return
    if isinstance(message, protocol.Hello):
        async with room.db.transaction() as session:
            try:
                account = await authenticate(session, message.token, now=utcnow())
            except AuthError as error:
                client.deliver(protocol.error(str(error), request="hello"))
                return
        client.account_id, client.name = account.id, account.display_name
        client.token = message.token
        client.deliver(
            protocol.frame(protocol.HelloOk(account=account.id, name=account.display_name))
        )
        return
    actor = room.actors.get(message.table)
    if actor is None:
        client.deliver(
            protocol.error(f"no table {message.table!r}", request=message.type, table=message.table)
        )
        return
    if isinstance(message, protocol.Watch):
        if (
            client.account_id is None
            and not client.tables
            and room.anonymous_watchers() >= room.limits.anonymous_watchers
        ):
            client.deliver(
                protocol.error(
                    "too many spectators: log in to watch",
                    request=message.type,
                    table=message.table,
                )
            )
            return
        item: Watching | Said = Watching(client)
    elif client.account_id is None:
        client.deliver(
            protocol.error(
                "log in first (send a hello with your session token)",
                request=message.type,
                table=message.table,
            )
        )
        return
    else:
        item = Said(client, message)
    if not actor.offer(item):
        client.deliver(
            protocol.error(
                f"table {message.table!r} is busy: try again in a moment", request=message.type
            )
        )
        return
    client.tables.add(message.table)
