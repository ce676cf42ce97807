"""One WebSocket connection as the tables see it: its frames written to the socket at once
while it takes them, else a bounded queue that the connection's own writer task sends
(S-ISOLATE-1)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from pokerroom.server.sockets.wire import FRAMES, DirectSocket, direct_socket, text_frame
from pokerroom.store.account_ids import AccountId, player_key

OUTBOX_FRAMES = 256  # frames waiting for one client's socket before it is dropped


@dataclass(eq=False)
class Client:
    """One WebSocket connection (a person or a bot), as the table sees it.

    Tables only ever ``deliver`` to it, which never waits: the frame is written to the
    socket's transport at once when nothing is ahead of it and the socket takes it without
    waiting (``wire.DirectSocket``), else it goes into a bounded queue that the connection's
    own writer task sends (S-ISOLATE-1). A client that cannot keep up, or whose socket fails,
    is dropped; the table never waits for it and never sees its errors."""

    send: Callable[[str], Awaitable[None]]
    # The ASGI server's own ``send`` for this socket, when the app was given it
    # (app.RawSocketSend): frames then go straight to it as ``websocket.send`` messages, not
    # through Starlette's WebSocket.send and the exception handler's wrapper, two coroutine
    # calls and state checks a frame, six frames an action.
    asgi_send: Callable[[dict[str, Any]], Awaitable[None]] | None = None
    account_id: AccountId | None = None
    name: str = ""
    token: str | None = None  # the session it said hello with (closed when revoked)
    address: str = ""
    tables: set[str] = field(default_factory=set)  # the tables it watches or plays at
    outbox_frames: int = OUTBOX_FRAMES
    outbox: asyncio.Queue[str] = field(init=False)
    dropped: asyncio.Event = field(init=False, default_factory=asyncio.Event)
    drop_reason: str = ""
    drop_code: int = 1000
    flush: bool = False  # send what is queued before closing (a protocol error's message)
    waiting: int = 0  # its messages in tables' inboxes
    conn: str = ""  # its name on this node's bus (several nodes: server/nodes/bus.py)
    # The socket written to directly (uvicorn's websockets-sansio protocol), and the frames
    # queued or being sent by the writer: while any is, a new frame queues behind it (order).
    socket: DirectSocket | None = field(init=False, default=None)
    pending: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.outbox = asyncio.Queue(self.outbox_frames)
        self.socket = direct_socket(self.asgi_send)

    @property
    def player(self) -> str | None:
        return None if self.account_id is None else player_key(self.account_id)

    @property
    def closed(self) -> bool:
        return self.dropped.is_set()

    def deliver(self, text: str, table: str | None = None, version: int | None = None) -> None:
        """Send or queue one frame; never waits. A full queue drops the client (it is not
        reading). A table frame names its table and version: a client on another node
        (bus.Remote) sends them with it, so that node sees a gap (here the socket is the
        order)."""
        if self.closed:
            return
        socket = self.socket
        if not self.pending and socket is not None and socket.ready():
            self._write(socket, FRAMES.of(text))  # nothing ahead of it: no queue, no task switch
            return
        self._queue(text)

    def deliver_utf8(self, data: bytes, table: str, version: int) -> None:
        """``deliver`` of a frame's text as UTF-8 (``encoding.encode_utf8``): the same bytes
        on the wire, framed as they are when the socket takes them at once."""
        socket = self.socket
        if socket is None or self.pending or self.dropped.is_set() or not socket.ready():
            self.deliver(data.decode(), table, version)  # queued, closed or another node's
            return
        self._write(socket, text_frame(data))

    def _write(self, socket: DirectSocket, frame: bytes) -> None:
        try:
            socket.write(frame)
        except Exception as error:  # a broken socket: only this client goes
            self.drop(1011, f"send failed: {type(error).__name__}")

    def _queue(self, text: str) -> None:
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.drop(1008, f"too slow: {self.outbox_frames} frames were waiting to be sent")
            return
        self.pending += 1

    def drop(self, code: int, reason: str, *, flush: bool = False) -> None:
        """Close this connection (the socket's handler sees ``dropped`` and closes it)."""
        if not self.closed:
            self.drop_code, self.drop_reason, self.flush = code, reason, flush
            self.dropped.set()

    async def write(self) -> None:
        """The connection's writer: send queued frames in order until the socket fails."""
        asgi_send = self.asgi_send
        while True:
            text = await self.outbox.get()
            try:
                if asgi_send is None:
                    await self.send(text)
                else:
                    await asgi_send({"type": "websocket.send", "text": text})
            except Exception as error:  # a closed or broken socket: only this client goes
                self.drop(1011, f"send failed: {type(error).__name__}")
                return
            finally:
                self.pending -= 1
                self.outbox.task_done()
