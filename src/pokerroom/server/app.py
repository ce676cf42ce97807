"""The ASGI app: REST (accounts, balance, lobby; OpenAPI at /docs) and the WebSocket."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.responses import RedirectResponse
from pydantic import BaseModel, Field

from pokerroom.server import protocol
from pokerroom.server.actor import Client, utcnow
from pokerroom.server.room import Room
from pokerroom.store.accounts import AuthError, authenticate, log_in, revoke, sign_up
from pokerroom.store.db import Database
from pokerroom.store.ledger import balance


class Credentials(BaseModel):
    username: str = Field(min_length=3, max_length=32)
    password: str = Field(min_length=8, max_length=256)


class SessionOut(BaseModel):
    account_id: int
    username: str
    token: str


class MeOut(BaseModel):
    account_id: int
    username: str
    display_name: str
    balance: int


def create_app(database_url: str, *, demo: bool = True, pause: float = 1.5) -> FastAPI:
    room = Room(Database(database_url), pause=pause)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await room.start(demo=demo)
        yield
        await room.stop()

    app = FastAPI(title="pokerroom", version="0.1.0", lifespan=lifespan)
    app.state.room = room

    async def current(authorization: Annotated[str | None, Header()] = None) -> Any:
        if not authorization or not authorization.startswith("Bearer "):
            raise HTTPException(401, "send 'Authorization: Bearer <token>'")
        async with room.db.transaction() as session:
            try:
                return await authenticate(session, authorization[7:], now=utcnow())
            except AuthError as error:
                raise HTTPException(401, str(error)) from None

    @app.get("/", include_in_schema=False)
    async def home() -> RedirectResponse:
        return RedirectResponse("/docs")

    @app.post("/api/signup", response_model=SessionOut)
    async def signup(body: Credentials) -> SessionOut:
        async with room.db.transaction() as session:
            try:
                account = await sign_up(session, body.username, body.password, now=utcnow())
                logged = await log_in(session, body.username, body.password, now=utcnow())
            except AuthError as error:
                raise HTTPException(400, str(error)) from None
        return SessionOut(account_id=account.id, username=account.username, token=logged.token)

    @app.post("/api/login", response_model=SessionOut)
    async def login(body: Credentials) -> SessionOut:
        failure: AuthError | None = None
        async with room.db.transaction() as session:
            try:
                logged = await log_in(session, body.username, body.password, now=utcnow())
            except AuthError as error:
                failure = error  # commit the failed-attempt count: lock-out depends on it
        if failure is not None:
            raise HTTPException(401, str(failure))
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
