"""The player's preferences: ``GET`` the whole object, ``PUT`` part of it."""

import json
from typing import Any

from fastapi import APIRouter, Request

from pokerroom.server.accounts.preferences import MAX_BODY_BYTES, Preferences, changed, saved
from pokerroom.server.clock import utcnow
from pokerroom.server.http.deps import Player, Store, TheRoom
from pokerroom.server.sockets.errors import ApiError

router = APIRouter(prefix="/api")


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read no further than MAX_BODY_BYTES (413 past them)."""
    length = request.headers.get("content-length", "")
    if length and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
        raise ApiError(413, "request.too_large", limit=MAX_BODY_BYTES)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise ApiError(413, "request.too_large", limit=MAX_BODY_BYTES)
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise ApiError(400, "request.not_json") from None
    if not isinstance(data, dict):
        raise ApiError(400, "request.not_json")
    return data


@router.get("/preferences", response_model=Preferences)
async def get_preferences(account: Player, store: Store) -> Preferences:
    """The account's preferences, every field (defaults where none was saved)."""
    return saved(await store.preferences(account.id))


@router.put(
    "/preferences",
    response_model=Preferences,
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/Preferences"}}
            },
        }
    },
)
async def put_preferences(
    request: Request, account: Player, store: Store, room: TheRoom
) -> Preferences:
    """Change some preferences (any of the object's fields); answers the whole object. An
    unknown field or a bad value is refused (422, ``code`` ``preferences.unknown`` or
    ``preferences.invalid``) and nothing is stored."""
    change = await _body(request)
    stored = await store.update_preferences(
        account.id, lambda current: changed(current, change), now=utcnow()
    )
    if "auto_muck" in change:  # the server applies it at the showdowns of the player's seats
        room.auto_muck(account.id, bool(stored["auto_muck"]))
    return Preferences.model_validate(stored)
