"""The ASGI app: REST (accounts, balance, lobby; OpenAPI at /docs) and the WebSocket."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import (
    Depends,
    FastAPI,
    Header,
    HTTPException,
    Request,
    WebSocket,
    WebSocketDisconnect,
)
from fastapi.responses import FileResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from pokerroom.history.phh import PHHError, load_text, phh_fields, replay, to_toml, write_phh
from pokerroom.history.pokerstars import pokerstars_text
from pokerroom.rules.errors import RulesError
from pokerroom.server import protocol
from pokerroom.server.actor import Client, utcnow
from pokerroom.server.auth import Auth
from pokerroom.server.replayer import replay_frames
from pokerroom.server.room import Room, TableConfig
from pokerroom.store.accounts import AuthError, authenticate, revoke
from pokerroom.store.db import Database
from pokerroom.store.floor import FloorError, correct_hand, floor_acts, record_act, suspend_account
from pokerroom.store.hands import player_hands
from pokerroom.store.ledger import balance
from pokerroom.store.models import HandPlayer, HandRecord, TableRecord
from pokerroom.table import TableError

WEB = Path(__file__).resolve().parent.parent / "web"  # the browser client, no build step
NO_CACHE = {"Cache-Control": "no-cache"}


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


def create_app(database_url: str, *, demo: bool = True, pause: float = 1.5) -> FastAPI:
    room = Room(Database(database_url), pause=pause)
    auth = Auth(room.db)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await room.start(demo=demo)
        yield
        await room.stop()
        auth.close()

    app = FastAPI(title="pokerroom", version="0.1.0", lifespan=lifespan)
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
        """Live tables, with the hand in progress."""
        return room.lobby()

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
            result: dict[str, Any] = await actor.call(kind, reason)
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
        hand_id: int, body: Correction, who: Annotated[Any, Depends(operator)]
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
        async with room.db.transaction() as session:
            await revoke(session, authorization.removeprefix("Bearer "))

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
        account: Annotated[Any, Depends(current)], table: str | None = None, limit: int = 50
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

    async def _viewer_hand(account: Any, hand_id: int) -> tuple[Any, Any, Any]:
        async with room.db.transaction() as session:
            record = await session.get(HandRecord, hand_id)
            player = await session.get(HandPlayer, (hand_id, account.id))
        if record is None or player is None or record.status == "running":
            raise HTTPException(404, f"no finished hand {hand_id} of yours")
        try:
            hand = replay(load_text(record.phh)[0]).hand
        except PHHError as error:  # pragma: no cover - our own records replay
            raise HTTPException(500, f"hand {hand_id} does not replay: {error}") from None
        return record, player, hand

    @app.get("/api/hands/{hand_id}.phh", response_class=PlainTextResponse)
    async def hand_phh(hand_id: int, account: Annotated[Any, Depends(current)]) -> str:
        """One hand as PHH, as this player may see it (R-SHOW-8)."""
        record, player, hand = await _viewer_hand(account, hand_id)
        return write_phh(hand, viewer=player.position, _table=record.table_id, hand=record.number)

    @app.get("/api/hands/{hand_id}.txt", response_class=PlainTextResponse)
    async def hand_text(hand_id: int, account: Annotated[Any, Depends(current)]) -> str:
        """One hand as PokerStars-style text, for tracking programs."""
        record, player, hand = await _viewer_hand(account, hand_id)
        return pokerstars_text(
            hand,
            hand_id=record.id,
            table_name=record.table_id,
            started_at=record.started_at,
            viewer=player.position,
        )

    @app.get("/api/hands/{hand_id}/replay")
    async def hand_replay(
        hand_id: int, account: Annotated[Any, Depends(current)]
    ) -> dict[str, Any]:
        """The hand step by step for the browser's replayer, as this player saw it."""
        record, player, _ = await _viewer_hand(account, hand_id)
        frames = replay_frames(record.phh, player.position)
        return {"id": record.id, "table": record.table_id, "number": record.number, **frames}

    @app.get("/api/sessions/{table_id}.phhs", response_class=PlainTextResponse)
    async def session_phhs(
        table_id: str, account: Annotated[Any, Depends(current)], limit: int = 200
    ) -> str:
        """The player's recent hands at one table, oldest first, as one .phhs file."""
        async with room.db.transaction() as session:
            rows = await player_hands(
                session, account.id, table_id=table_id, limit=min(limit, 1000)
            )
        parts = []
        for k, (record, player) in enumerate(reversed(rows), start=1):
            hand = replay(load_text(record.phh)[0]).hand
            parts.append(
                f"[{k}]\n" + to_toml(phh_fields(hand, viewer=player.position, hand=record.number))
            )
        return "\n".join(parts)

    @app.get("/api/lobby")
    async def lobby() -> list[dict[str, Any]]:
        return room.lobby()

    @app.websocket("/ws")
    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        client = Client(send=websocket.send_text)
        tables: set[str] = set()
        await websocket.send_text(
            protocol.encode({"type": "welcome", "version": protocol.PROTOCOL_VERSION})
        )
        try:
            while True:
                raw = await websocket.receive_text()
                try:
                    message = protocol.parse(raw)
                except protocol.ProtocolError as error:
                    await websocket.send_text(protocol.error(str(error)))
                    continue
                await _dispatch(room, client, message, tables, websocket)
        except WebSocketDisconnect:
            pass
        finally:
            for table_id in tables:
                room.actors[table_id].post("gone", client)

    return app


async def _dispatch(
    room: Room, client: Client, message: Any, tables: set[str], websocket: WebSocket
) -> None:
    if isinstance(message, protocol.Ping):
        await websocket.send_text(protocol.encode({"type": "pong"}))
        return
    if isinstance(message, protocol.Hello):
        async with room.db.transaction() as session:
            try:
                account = await authenticate(session, message.token, now=utcnow())
            except AuthError as error:
                await websocket.send_text(protocol.error(str(error), request="hello"))
                return
        client.account_id, client.name = account.id, account.display_name
        await websocket.send_text(
            protocol.encode({"type": "hello", "account": account.id, "name": account.display_name})
        )
        return
    actor = room.actors.get(message.table)
    if actor is None:
        await websocket.send_text(
            protocol.error(f"no table {message.table!r}", request=message.type)
        )
        return
    if isinstance(message, protocol.Watch):
        tables.add(message.table)
        actor.post("watch", client)
        return
    if client.account_id is None:
        await websocket.send_text(
            protocol.error(
                "log in first (send a hello with your session token)", request=message.type
            )
        )
        return
    tables.add(message.table)
    actor.post("message", client, message)
