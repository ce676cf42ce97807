"""Frames written straight to the socket (server/sockets/wire.py): the very bytes websockets
frames them as, and never ahead of the frames queued while the socket was paused."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Callable

import pytest
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.asyncio.client import ClientConnection, connect
from websockets.protocol import State
from websockets.server import ServerProtocol

from pokerroom.server.sockets.client import Client
from pokerroom.server.sockets.wire import FrameCache, direct_socket, text_frame
from tests.server.conftest import Server


def websockets_frame(data: bytes) -> bytes:
    """The frame websockets' own server protocol sends for ``data`` (what uvicorn writes)."""
    conn = ServerProtocol()
    conn.state = State.OPEN
    conn.send_text(data)
    return b"".join(conn.data_to_send())


@pytest.mark.parametrize(
    "text",
    ["", "a", "x" * 125, "x" * 126, "é" * 63, "x" * 65535, "x" * 65536, "♠" * 30_000],
    ids=lambda text: f"{len(text.encode())}-bytes",
)
def test_a_text_frame_is_websockets_own(text: str) -> None:
    # 7-bit length up to 125 bytes, 16-bit to 65,535, 64-bit past it (RFC 6455 5.2)
    assert text_frame(text.encode()) == websockets_frame(text.encode())


def test_one_string_is_framed_once_and_an_equal_other_one_the_same() -> None:
    cache = FrameCache()
    line = json.dumps({"type": "chat", "text": "hi"})
    first = cache.of(line)
    assert cache.of(line) is first  # the same string for every viewer: framed once
    other = cache.of("".join(line))  # equal, not the same object: framed again, equally
    assert other == first == websockets_frame(line.encode())


async def test_only_uvicorns_sansio_send_as_this_module_knows_it_is_written_to_directly() -> None:
    async def send(message: dict[str, object]) -> None:
        pass

    assert direct_socket(send) is None  # a test client's, or a wrapped send
    assert direct_socket(None) is None
    # The protocol without the inner names ``ready`` reads (another version's): the writer.
    bare = object.__new__(WebSocketsSansIOProtocol)
    assert direct_socket(bare.send) is None


def numbered(seq: int, size: int) -> str:
    return json.dumps({"seq": seq, "pad": "x" * size})


async def quiet_client(server: Server, outbox: int = 100_000) -> tuple[ClientConnection, Client]:
    """A client that reads only when told to (websockets stops reading the socket past one
    frame), and its connection as the server sees it."""
    limits = server.room.limits
    server.room.limits = dataclasses.replace(limits, outbox_frames=outbox)
    try:
        ws = await connect(server.base.replace("http", "ws", 1) + "/ws", max_queue=1)
    finally:
        server.room.limits = limits
    assert json.loads(await ws.recv())["type"] == "welcome"
    (client,) = server.room.clients
    return ws, client


def delivering(client: Client, utf8: bool) -> Callable[[str], None]:
    """``client.deliver``, or ``deliver_utf8`` of the text's UTF-8 (a seated player's table
    frame, as the actor's broadcast gives it)."""
    if not utf8:
        return client.deliver
    return lambda text: client.deliver_utf8(text.encode(), "t", 1)


@pytest.mark.parametrize("utf8", [False, True], ids=["text", "utf8"])
async def test_frames_queued_while_the_socket_was_paused_go_out_before_later_ones(
    server: Server, utf8: bool
) -> None:
    ws, client = await quiet_client(server)
    assert client.socket is not None  # uvicorn's websockets-sansio protocol: the direct path
    deliver = delivering(client, utf8)
    deliver(numbered(0, 10))
    assert client.pending == 0 and client.outbox.empty()  # written at once, nothing queued
    # Not read: the socket's buffers fill, flow control pauses it, and frames queue.
    seq = 1
    while client.pending < 10:
        assert seq < 10_000, "the socket never paused"
        deliver(numbered(seq, 16_384))
        seq += 1
    assert not client.socket.ready()
    received: list[int] = []

    async def read() -> None:
        while not received or received[-1] != seq - 1 or direct < 20:
            received.append(json.loads(await ws.recv())["seq"])

    # Now it reads. The moment the socket is writable again, frames are still queued for the
    # writer task: a frame delivered then must queue behind them, not be written ahead.
    direct = 0
    reading = asyncio.create_task(read())
    async with asyncio.timeout(30):
        while direct < 20:
            queued = client.pending > 0
            deliver(numbered(seq, 10))
            seq += 1
            if not queued and client.pending == 0:  # it went straight to the socket
                direct += 1
            await asyncio.sleep(0)
        await reading
    assert not client.closed
    assert received == list(range(seq))  # every frame, in the order delivered
    await ws.close()


@pytest.mark.parametrize("utf8", [False, True], ids=["text", "utf8"])
async def test_a_client_that_does_not_read_is_written_to_only_up_to_flow_controls_mark(
    server: Server, utf8: bool
) -> None:
    """A spectator's frames (text) or a seated player's (UTF-8): the same mark, the same drop."""
    ws, client = await quiet_client(server, outbox=8)
    deliver = delivering(client, utf8)
    socket = client.socket
    assert socket is not None
    transport = socket.protocol.transport
    _, high = transport.get_write_buffer_limits()
    seq = 0
    while not client.closed:
        assert seq < 10_000, "never dropped"
        deliver(numbered(seq, 16_384))
        seq += 1
        # Past the mark the socket is paused and frames queue: the buffer grows no further.
        assert transport.get_write_buffer_size() <= high + 16_384 + 100
    assert client.drop_code == 1008 and client.drop_reason.startswith("too slow")
    ws.transport.abort()
