"""What a page sends on its socket, recorded as it goes, and the actions among it."""

from __future__ import annotations

import json
from typing import Any

from playwright.async_api import Page, WebSocket


def record_sent(page: Page, sent: list[dict[str, Any]]) -> None:
    def on_socket(socket: WebSocket) -> None:
        socket.on("framesent", lambda payload: sent.append(json.loads(payload)))

    page.on("websocket", on_socket)


def acts(sent: list[dict[str, Any]]) -> list[str]:
    return [m["action"] for m in sent if m.get("type") == "act"]
