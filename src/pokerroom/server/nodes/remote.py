"""A client on another node, as the owner's tables see it, and the frames the bus carries
to that node (server/nodes/bus.py): one Redis message carries every frame a node has for another
in one turn of its event loop, a header (JSON) then the frames' texts as they are (a table
frame is already JSON: it is not escaped into another JSON string)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlparse

from pydantic import NonNegativeInt, TypeAdapter, ValidationError

from pokerroom.server.nodes import messages
from pokerroom.server.sockets import protocol
from pokerroom.server.sockets.client import Client
from pokerroom.server.sockets.errors import RefusalError
from pokerroom.server.tables.inbox import Gone, Said, Unwatching, Watching
from pokerroom.server.tables.placement import ElsewhereError
from pokerroom.server.tables.placement import RefusedError as RefusedError

# The bus could not carry a command (Redis unreachable) or got no answer; RefusedError: the
# owner refused a call (a player's error there). The room's own types (server/tables/
# placement.py), so that the routes catch them without knowing the bus.
BusError = ElsewhereError


async def no_calls(stream: str, call: messages.EventCall) -> messages.Reply:
    raise BusError(f"{stream} is not run here")


def prefix_of(url: str) -> str:
    """Keys and channels per Redis database: pub/sub channels are shared by every database
    of a server, so two rooms on two databases of one Redis must not hear each other."""
    path = urlparse(url).path.strip("/")
    return f"pokerroom:{path or '0'}:"


@dataclass(frozen=True, slots=True)
class Frame:
    """``text`` for the connections ``conns`` of the receiving node. ``kind``: "frame" (a
    table frame has its ``table`` and ``version``), "drop" (close them: ``version`` is the
    close code, ``text`` the reason) or "reply" (the floor's answer: ``table`` is the call)."""

    conns: tuple[str, ...]
    table: str
    version: int | None
    kind: str
    text: str


Batch = list[Frame]
# A batch's header: each group's connections, table, version, kind and text's length in bytes.
_HEADER = TypeAdapter(
    list[tuple[list[str], str, int | None, Literal["frame", "drop", "reply"], NonNegativeInt]]
)


def encode_batch(frames: list[Frame]) -> bytes:
    """Frames to one message. The same text for several connections (a frame every
    spectator sees alike: one object per broadcast) is sent once, with all of them; never
    ahead of a frame a connection got before it (each keeps its order)."""
    groups: list[tuple[list[str], Frame]] = []
    by_text: dict[int, int] = {}  # id of a text (alive in ``frames``) -> its group
    last: dict[str, int] = {}  # connection -> its latest group
    for frame in frames:
        at = by_text.get(id(frame.text))
        if (
            at is None
            or groups[at][1].kind != frame.kind
            or any(last.get(conn, -1) >= at for conn in frame.conns)
        ):
            at = len(groups)
            by_text[id(frame.text)] = at
            groups.append(([], frame))
        groups[at][0].extend(frame.conns)
        for conn in frame.conns:
            last[conn] = at
    bodies = [f.text.encode() for _, f in groups]
    header = [
        [conns, f.table, f.version, f.kind, len(body)]
        for (conns, f), body in zip(groups, bodies, strict=True)
    ]
    return json.dumps(header).encode() + b"\n" + b"".join(bodies)


def decode_batch(payload: bytes) -> Batch:
    """The frames of one message; MessageError (none of them) if it cannot be read."""
    head, _, body = payload.partition(b"\n")
    try:
        header = _HEADER.validate_json(head)
    except ValidationError as error:
        raise messages.MessageError(f"a batch of frames that cannot be read: {error}") from None
    if sum(length for *_, length in header) != len(body):
        raise messages.MessageError("a batch of frames whose texts are not as long as it says")
    frames: Batch = []
    at = 0
    for conns, table, version, kind, length in header:
        try:
            text = body[at : at + length].decode()
        except UnicodeDecodeError as error:
            raise messages.MessageError(f"a frame that is not UTF-8: {error}") from None
        frames.append(Frame(tuple(conns), table, version, kind, text))
        at += length
    return frames


class Remote(Client):
    """A client whose socket is on another node: what a table delivers to it goes on the bus
    (``post``) to that node, addressed to that one connection (S-VIEW-1)."""

    node: str = ""  # the bus name of the node its socket is on
    post: Callable[[str, Frame], None]
    forget: Callable[[Remote], None]  # the bus stops knowing it (dropped)

    def deliver(self, text: str, table: str | None = None, version: int | None = None) -> None:
        if not self.closed:
            self.post(self.node, Frame((self.conn,), table or "", version, "frame", text))

    def drop(self, code: int, reason: str, *, flush: bool = False) -> None:
        if not self.closed:
            self.post(self.node, Frame((self.conn,), "", code, "drop", reason))
            self.forget(self)
        super().drop(code, reason, flush=flush)


def remote_client(
    node: str, conn: str, post: Callable[[str, Frame], None], forget: Callable[[Remote], None]
) -> Remote:
    remote = Remote(send=_never)
    remote.node, remote.conn, remote.post, remote.forget = node, conn, post, forget
    return remote


async def _never(text: str) -> None:
    raise AssertionError("a remote client's frames go on the bus")


def apply_to_actor(
    actor: Any,
    remote: Remote,
    command: messages.Command,
    table: str,
    ack: Callable[[], None] | None,
) -> None:
    """A client's command from another node, as the actor takes a local client's (same inbox,
    same limits); a message is parsed again here, at this node's edge (S-INPUT-1)."""
    if isinstance(command, messages.Gone):
        actor.post(Gone(remote))
        return
    if isinstance(command, messages.Unwatch):
        actor.post(Unwatching(remote))
        return
    if isinstance(command, messages.Watch):
        item: Watching | Said = Watching(remote, done=ack)
    elif isinstance(command, messages.Said):
        try:
            message = protocol.parse(command.text)
        except protocol.ProtocolError as error:
            remote.deliver(protocol.error(error))
            if ack is not None:
                ack()
            return
        item = Said(remote, message, done=ack)
    else:
        raise ValueError(f"a {command.kind} call is not a client's command")
    refused = actor.offer(item)
    if refused is not None:
        remote.deliver(protocol.error(refused, table=table))
        if ack is not None:
            ack()


def too_late(table: str, command: messages.Command, age: float) -> tuple[str, Frame] | None:
    """The error frame for the sender of a command read ``age`` seconds after it was sent,
    too late to apply (an owner far behind its streams, a stalled Redis), and its node;
    None for a command nobody waits for (a closed socket's "gone", the floor's call)."""
    if not isinstance(command, messages.Said | messages.Watch):
        return None
    late = RefusalError(code="table.too_late", table=table, seconds=int(age))
    text = protocol.error(late, request=messages.request_type(command), table=table)
    return command.node, Frame((command.conn,), "", None, "frame", text)
