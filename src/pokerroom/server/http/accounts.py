"""Accounts: sign-up, log-in, log-out and the player's own page."""

from typing import Annotated

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, Field

from pokerroom.server.accounts.auth import Auth
from pokerroom.server.http.deps import Player, Store, TheRoom
from pokerroom.server.sockets.errors import ApiError
from pokerroom.store.accounts.accounts import AuthError, canonical_username

router = APIRouter(prefix="/api")


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
    role: str  # "player" or "operator" (the back office shows for an operator)


def _auth(request: Request) -> Auth:
    auth: Auth = request.app.state.auth
    return auth


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


@router.post("/signup", response_model=SessionOut)
async def signup(body: Credentials, request: Request) -> SessionOut:
    """A new account, logged in (rate-limited: 429 with Retry-After)."""
    try:
        account_id, username, token = await _auth(request).sign_up(
            _address(request), body.username, body.password
        )
    except AuthError as error:
        raise ApiError.of(400, error) from None
    return SessionOut(account_id=account_id, username=username, token=token)


@router.post("/login", response_model=SessionOut)
async def login(body: Credentials, request: Request) -> SessionOut:
    """A session token (rate-limited: 429; locked for a while after wrong passwords)."""
    try:
        logged = await _auth(request).log_in(_address(request), body.username, body.password)
    except AuthError as error:
        raise ApiError.of(401, error) from None
    return SessionOut(
        account_id=logged.account_id, username=canonical_username(body.username), token=logged.token
    )


@router.post("/logout", status_code=204)
async def logout(authorization: Annotated[str, Header()], room: TheRoom, store: Store) -> None:
    token = authorization.removeprefix("Bearer ")
    await store.revoke(token)
    room.revoke(token)  # S-AUTH-2: the sockets that logged in with it close now


@router.get("/me", response_model=MeOut)
async def me(account: Player, store: Store) -> MeOut:
    return MeOut(
        account_id=account.id,
        username=account.username,
        display_name=account.display_name,
        balance=await store.balance(account.id),
        role=account.role,
    )
