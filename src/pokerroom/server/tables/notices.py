"""What one node tells the others of the room (on one node: nothing), one typed model each:
they are carried by the bus (server/nodes/messages.py encodes them) and done by each
node's room (``Room.notice``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class _Notice(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    sender: str = ""  # the bus name of the node that sent it (its own are done at once)


class Revoke(_Notice):
    """A session was revoked (logged out): its sockets close."""

    kind: Literal["revoke"] = "revoke"
    token: str


class Suspend(_Notice):
    """An account was suspended: its sockets close, its seats sit out."""

    kind: Literal["suspend"] = "suspend"
    account: int


class AutoMuck(_Notice):
    """An account's auto-muck preference changed: its seats follow it."""

    kind: Literal["auto_muck"] = "auto_muck"
    account: int
    on: bool


class Deliver(_Notice):
    """A tournament's frame to its player, for the player's sockets on every node."""

    kind: Literal["deliver"] = "deliver"
    account: int
    line: str


class Follow(_Notice):
    """The table a tournament's player sits at now: their sockets on every node watch it."""

    kind: Literal["follow"] = "follow"
    account: int
    table: str


RoomNotice = Revoke | Suspend | AutoMuck | Deliver | Follow
