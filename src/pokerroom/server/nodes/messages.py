"""The messages between nodes, one typed model each (lila-ws's LilaIn and LilaOut), and their
one encoding: the commands on a table's stream (a client's, from the node its socket is on;
a call, the floor's or a player's request to a tournament, answered by a ``Reply``) and the
room-wide notices. Frames for clients go in batches (server/nodes/remote.py).

What a node cannot read (an unknown kind, a missing or ill-typed field: another version of
the room, a stray writer) is a ``MessageError``; the bus logs it and drops the message, and
the node goes on."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from pokerroom.errors import code_of
from pokerroom.server.tables.notices import AutoMuck, Deliver, Follow, Revoke, Suspend

FIELD = "message"  # the one field of a command's stream entry: the command as JSON


class MessageError(ValueError):
    """A message between nodes that cannot be read."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Command(_Message):
    """What every command carries; the bus that sends it sets these (``sent``)."""

    key: str = ""  # its idempotency key: a command sent again is applied once
    node: str = ""  # the sending node's bus name: the answers and frames go there
    at: float = 0.0  # when it was sent (``time.time()``): one read too late is not applied


class Sender(_Command):
    """Who sent a client's command: the connection, and as whom it said hello."""

    conn: str  # the client's connection on the sending node
    account: int | None = None  # the account it said hello as there
    name: str = ""
    address: str = ""  # the owner counts its share of the inbox by it too


class Watch(Sender):
    """Send the client the table's frames from now on (and its whole state now)."""

    kind: Literal["watch"] = "watch"


class Said(Sender):
    """A client's message to the table, as it sent it (parsed again at the owner's edge)."""

    kind: Literal["said"] = "said"
    text: str


class Gone(Sender):
    """The client's socket closed: its seat there shows it disconnected."""

    kind: Literal["gone"] = "gone"


class Unwatch(Sender):
    """The client shows the table no more: its frames stop."""

    kind: Literal["unwatch"] = "unwatch"


class _Call(_Command):
    call: str = ""  # the call's id: its reply names it


class FloorCall(_Call):
    """The floor voids a table's hand or closes the table; answered by a ``Reply``."""

    kind: Literal["void", "close"]
    reason: str


TournamentRequest = Literal[
    "register", "unregister", "rebuy", "addon", "decline_rebuy", "propose", "accept", "decline"
]


class EventCall(_Call):
    """A player's request to a tournament another node runs (server/tournaments/requests.py),
    on the event's stream of calls; answered by a ``Reply``."""

    kind: TournamentRequest
    account: int
    fields: dict[str, Any] = Field(default_factory=dict)


Command = Annotated[
    Watch | Said | Gone | Unwatch | FloorCall | EventCall, Field(discriminator="kind")
]
Call = FloorCall | EventCall
_COMMAND: TypeAdapter[Command] = TypeAdapter(Command)
_FROM_CLIENT: dict[str, type[Watch | Said | Gone | Unwatch]] = {
    "watch": Watch,
    "said": Said,
    "gone": Gone,
    "unwatch": Unwatch,
}


def from_client(kind: str, sender: Sender, text: str = "") -> Command:
    """A client's command of ``kind`` ("said": its message ``text``)."""
    model = _FROM_CLIENT.get(kind)
    if model is None:
        raise MessageError(f"no command {kind!r} from a client")
    fields = sender.model_dump()
    return Said(**fields, text=text) if model is Said else model(**fields)


class Reply(_Message):
    """A call's answer: its result, or the error that refused it (``refused``: a player's
    error, an HTTP 400 there; else the call could not be done)."""

    result: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None
    refused: bool = False
    code: str = "error.unknown"  # the error's code and params, as raised on its node
    params: dict[str, str | int] = Field(default_factory=dict)


def error_reply(error: BaseException, *, refused: bool = False) -> Reply:
    """The reply that carries ``error`` to the asking node: its text, code and params."""
    code, params = code_of(error)
    return Reply(error=str(error), refused=refused, code=code, params=params)


def encode_command(command: Command) -> dict[str, str]:
    """A command as the fields of its stream entry."""
    return {FIELD: command.model_dump_json()}


def decode_command(fields: dict[bytes, bytes]) -> Command:
    """A stream entry's command; MessageError if it has none this node can read."""
    raw = fields.get(FIELD.encode())
    if raw is None:
        raise MessageError(f"a command without its {FIELD!r} field: {sorted(fields)!r}")
    try:
        return _COMMAND.validate_json(raw)
    except ValidationError as error:
        raise MessageError(f"a command that cannot be read: {_first(error)}") from None


def encode_reply(reply: Reply) -> str:
    return reply.model_dump_json()


def decode_reply(text: str) -> Reply:
    try:
        return Reply.model_validate_json(text)
    except ValidationError as error:
        raise MessageError(f"a reply that cannot be read: {_first(error)}") from None


# ------------------------------------------------------------------ room-wide notices


class Adopted(_Message):
    """A table has a new owner, which knows none of its watchers: they watch again."""

    kind: Literal["adopted"] = "adopted"
    table: str
    sender: str = ""


# The room's own (server/tables/notices.py), and the bus's.
Notice = Annotated[
    Adopted | Revoke | Suspend | AutoMuck | Deliver | Follow, Field(discriminator="kind")
]
_NOTICE: TypeAdapter[Notice] = TypeAdapter(Notice)


def encode_notice(notice: Notice) -> bytes:
    return notice.model_dump_json().encode()


def decode_notice(data: bytes | str) -> Notice:
    try:
        return _NOTICE.validate_json(data)
    except ValidationError as error:
        raise MessageError(f"a notice that cannot be read: {_first(error)}") from None


def _first(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "message"
    return f"{where}: {first['msg']}"


def request_type(command: Command) -> str:
    """The client message a command carries, by its ``type`` (for an error about it)."""
    if isinstance(command, Said):
        try:
            said = json.loads(command.text)
        except ValueError:
            return "said"
        return str(said.get("type", "said")) if isinstance(said, dict) else "said"
    return command.kind
