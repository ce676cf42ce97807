"""Bare WebSocket echo apps: the ceilings a server on this machine can reach, for loadtest."""

from __future__ import annotations

import contextlib
from typing import Any


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "websocket":
        return
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            return
        await send({"type": "websocket.send", "text": message.get("text") or ""})


# A table frame's typical size: a six-seat hold'em table mid-hand as the room writes it for
# one of its players (server/tables/views.py; 2.3 KB).
FRAME_BYTES = 2300
_PAD = "x" * FRAME_BYTES
_GROUPS: dict[str, list[Any]] = {}


async def tables(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A table's WebSocket work with no poker (the ceiling ``loadtest`` sets the room's
    actions/s beside): the sockets of ``/N`` are one table; a message from one of them is
    answered, as the room answers an action, by a frame of a table frame's size to every
    socket of it, the next socket in turn's naming it (``"actor":true``)."""
    if scope["type"] != "websocket":
        await app(scope, receive, send)  # the lifespan as the echo's
        return
    group = _GROUPS.setdefault(scope["path"], [])
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    group.append(send)
    try:
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                return
            turn = (group.index(send) + 1) % len(group)
            text = message.get("text") or ""
            others = f'{{"actor":false,"action":{text},"pad":"{_PAD}"}}'
            actor = others.replace('"actor":false', '"actor":true', 1)
            for seat, member in enumerate(list(group)):
                frame = actor if seat == turn else others
                with contextlib.suppress(Exception):  # a socket closing at the run's end
                    await member({"type": "websocket.send", "text": frame})
    finally:
        group.remove(send)
