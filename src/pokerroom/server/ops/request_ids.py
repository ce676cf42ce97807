"""Request and connection ids, so an operator can follow one request through the logs.

Every HTTP request gets an id: the ``X-Request-ID`` its client (or the balancer in front)
sent, if sane (at most ``MAX_LENGTH`` characters of letters, digits and ``._:=+-``: nothing
that could forge a log line or fill one), else a new one. It is returned in the response's
``X-Request-ID`` and stamped on every log line written while the request is handled
(server/ops/logs.py: a context variable, so lines logged in the request's own task and in what
it awaits; a table's task started meanwhile starts in a context of its own). A WebSocket
connection gets a ``connection`` id the same way (the upgrade request's sane id, else a new
one) on every line logged while it is read or written."""

from __future__ import annotations

import re
import secrets
from typing import Any

from starlette.datastructures import MutableHeaders

from pokerroom.server.ops.logs import CONNECTION, REQUEST, stamp_records

HEADER = "X-Request-ID"
MAX_LENGTH = 128
SANE = re.compile(rf"[A-Za-z0-9._:=+-]{{1,{MAX_LENGTH}}}")


def request_id(incoming: str | None) -> str:
    """The id for a request that sent ``incoming`` (its X-Request-ID, None if none)."""
    if incoming is not None and SANE.fullmatch(incoming):
        return incoming
    return secrets.token_hex(8)


class RequestIds:
    """ASGI middleware: the request's id chosen, set for its log lines and returned in the
    response; a WebSocket's connection id set for its log lines."""

    def __init__(self, app: Any) -> None:
        self.app = app
        stamp_records()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        incoming = None
        for name, value in scope.get("headers", ()):
            if name == b"x-request-id":
                incoming = value.decode("latin-1")
                break
        chosen = request_id(incoming)
        if scope["type"] == "websocket":
            token = CONNECTION.set(chosen)
            try:
                await self.app(scope, receive, send)
            finally:
                CONNECTION.reset(token)
            return

        async def send_with_id(message: Any) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message)[HEADER] = chosen
            await send(message)

        token = REQUEST.set(chosen)
        try:
            await self.app(scope, receive, send_with_id)
        finally:
            REQUEST.reset(token)
