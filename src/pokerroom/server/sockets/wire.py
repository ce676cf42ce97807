"""A table's frames written straight to a socket's transport, without a queue hop, a task
switch or websockets' per-frame objects (six frames an action).

Only for uvicorn's ``websockets-sansio`` protocol (the one uvicorn picks when websockets is
installed), and only while it would send at once itself: accepted, open, not closing, not
paused by flow control, no extension (permessage-deflate) negotiated. Otherwise the frame
goes the ordinary way (``Client.write``)."""

from __future__ import annotations

import asyncio
import struct
from typing import TYPE_CHECKING, Any

from websockets.protocol import State

if TYPE_CHECKING:
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

_LENGTH_16 = struct.Struct("!BBH")
_LENGTH_64 = struct.Struct("!BBQ")
_FIN_TEXT = 0x81  # FIN bit and opcode 0x1 (text); no RSV bits: no extension
# How long a cut connection's input is still read and dropped, for its close frame to arrive.
LINGER_SECONDS = 2.0


def text_frame(data: bytes) -> bytes:
    """One unfragmented, unmasked (a server's, RFC 6455 5.1) text frame carrying ``data``:
    the header's payload length in 7 bits, or 126 and 16 bits, or 127 and 64 bits (5.2)."""
    length = len(data)
    if length < 126:
        return bytes((_FIN_TEXT, length)) + data
    if length < 65536:
        return _LENGTH_16.pack(_FIN_TEXT, 126, length) + data
    return _LENGTH_64.pack(_FIN_TEXT, 127, length) + data


class FrameCache:
    """The frame of the text last framed: the spectators' frame and a told line are one
    string for every viewer, encoded and framed once (kept by identity, with a strong
    reference, so that identity cannot be reused; one pair, replaced whole)."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last = ("", text_frame(b""))

    def of(self, text: str) -> bytes:
        last = self.last
        if text is last[0]:
            return last[1]
        frame = text_frame(text.encode())
        self.last = (text, frame)
        return frame


FRAMES = FrameCache()


class DirectSocket:
    """A uvicorn websockets-sansio connection, written to directly when it would write at
    once itself (``ready``); the same bytes as its own ``send``
    (tests/server/sockets/test_wire.py)."""

    __slots__ = ("protocol",)

    def __init__(self, protocol: WebSocketsSansIOProtocol) -> None:
        self.protocol = protocol

    def ready(self) -> bool:
        """What uvicorn's ``send`` checks before it writes a frame without waiting, and what
        websockets' ``send_text`` refuses (not open: it raises, the writer's path drops)."""
        protocol = self.protocol
        return (
            protocol.writable.is_set()  # not paused: the transport's buffer is below its mark
            and protocol.handshake_complete
            and not protocol.close_sent
            and not protocol.disconnected
            and protocol.initial_response is None
            and protocol.conn.state is State.OPEN
            and not protocol.conn.extensions
            and not protocol.conn.expect_continuation_frame
        )

    def write(self, frame: bytes) -> None:
        """Hand ``frame`` to the transport: sent now, or buffered (flow control pauses the
        protocol past the buffer's high-water mark; ``ready`` then says no)."""
        self.protocol.transport.write(frame)

    def cut(self) -> None:
        """End the connection without waiting for the peer's close reply: uvicorn would read
        and parse what the peer still sends meanwhile, for up to its close timeout (10 s),
        and a flooder keeps sending. What is written (the close frame) goes out followed by
        the end of the stream; what the peer still sends is read and dropped unparsed until
        it closes too, ``LINGER_SECONDS`` at most. Closed at once over input left unread, the
        connection is reset: the peer's next write fails and it never reads the close frame."""
        transport = self.protocol.transport
        if transport.is_closing():
            return
        transport.set_protocol(_Discarding(self.protocol))
        if not transport.is_reading():  # paused by uvicorn's flow control: drained now
            transport.resume_reading()
        if transport.can_write_eof():
            transport.write_eof()
        asyncio.get_running_loop().call_later(LINGER_SECONDS, transport.close)


class _Discarding(asyncio.Protocol):
    """A cut connection's protocol: input is dropped unread by anyone; the connection's end
    still reaches uvicorn's own protocol (its handler's bookkeeping)."""

    def __init__(self, inner: asyncio.BaseProtocol) -> None:
        self.inner = inner

    def data_received(self, data: bytes) -> None:
        return None

    def eof_received(self) -> bool:
        return False  # the peer closed too: the transport closes

    def connection_lost(self, exc: Exception | None) -> None:
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


# What ``ready`` and ``write`` read of uvicorn's protocol and of its websockets connection:
# checked once a connection, so that another version's inner names mean the writer's path,
# never an error in a table.
_PROTOCOL_NAMES = (
    "writable",
    "handshake_complete",
    "close_sent",
    "disconnected",
    "initial_response",
    "conn",
    "transport",
)
_CONNECTION_NAMES = ("state", "extensions", "expect_continuation_frame")


def _sansio_protocol() -> type[Any] | None:
    try:  # uvicorn 0.35 and later
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )
    except ImportError:
        return None
    return WebSocketsSansIOProtocol


_SANSIO = _sansio_protocol()


def direct_socket(asgi_send: Any) -> DirectSocket | None:
    """The connection behind an ASGI ``send``, if it is uvicorn's websockets-sansio protocol's
    own (``RawSocketSend`` passes it unwrapped) as this module knows it; None for anything
    else (another protocol or version, a test client, a wrapped send)."""
    protocol = getattr(asgi_send, "__self__", None)
    if _SANSIO is None or not isinstance(protocol, _SANSIO):
        return None
    if not all(hasattr(protocol, name) for name in _PROTOCOL_NAMES):
        return None
    if not all(hasattr(protocol.conn, name) for name in _CONNECTION_NAMES):
        return None
    return DirectSocket(protocol)
