"""What the routes share: the room, its store, and who is asking."""

from typing import Annotated, Any

from fastapi import Depends, Header, Request

from pokerroom.server.clock import utcnow
from pokerroom.server.sockets.errors import ApiError
from pokerroom.server.tables.room import Room
from pokerroom.store.accounts.accounts import AuthError
from pokerroom.store.tables.store import RoomStore


def room(request: Request) -> Room:
    found: Room = request.app.state.room
    return found


def store(request: Request) -> RoomStore:
    found: RoomStore = request.app.state.store
    return found


async def current(request: Request, authorization: Annotated[str | None, Header()] = None) -> Any:
    if not authorization or not authorization.startswith("Bearer "):
        raise ApiError(401, "auth.no_token")
    try:
        return await store(request).authenticate(authorization[7:], now=utcnow())
    except AuthError as error:
        raise ApiError.of(401, error) from None


async def operator(account: Annotated[Any, Depends(current)]) -> Any:
    if account.role != "operator":
        raise ApiError(403, "auth.operators_only")
    return account


Player = Annotated[Any, Depends(current)]
Operator = Annotated[Any, Depends(operator)]
Store = Annotated[RoomStore, Depends(store)]
TheRoom = Annotated[Room, Depends(room)]
