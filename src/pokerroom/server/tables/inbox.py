"""What a table's task receives, one small frozen type per kind (the actor ``match``es on
them). Clients' messages are ``Watching`` and ``Said`` (counted and capped); the rest come
from the server itself (a connection gone, the floor) and are never refused."""

from __future__ import annotations

import asyncio
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pokerroom.server.sockets import protocol
from pokerroom.server.sockets.errors import RefusalError
from pokerroom.store.account_ids import AccountId

if TYPE_CHECKING:
    from pokerroom.server.sockets.client import Client


@dataclass(frozen=True, slots=True)
class Watching:
    """A client asks for the table's state from now on. ``done``: called once handled (a
    command that came over the bus is acknowledged then: server/nodes/bus.py)."""

    client: Client
    done: Callable[[], None] | None = None


@dataclass(frozen=True, slots=True)
class Said:
    """A logged-in client's message to the table (join, act, chat...), and when it came
    (``time.monotonic``: the action latency is measured from it)."""

    client: Client
    message: protocol.ClientMessage
    at: float = field(default_factory=time.monotonic)
    done: Callable[[], None] | None = None  # as Watching's


@dataclass(frozen=True, slots=True)
class Gone:
    """A connection closed: it stops watching, and its seat is disconnected."""

    client: Client


@dataclass(frozen=True, slots=True)
class Unwatching:
    """A client no longer shows the table: it stops watching (a seat or a place on the
    waiting list there keeps it watching: those frames are the player's own)."""

    client: Client


@dataclass(frozen=True, slots=True)
class Suspend:
    """S-AUTH-2: the account is sat out and cashed out after the hand."""

    account: AccountId


@dataclass(frozen=True, slots=True)
class AutoMuck:
    """The account changed its auto-muck preference: its seat here follows it."""

    account: AccountId
    on: bool


@dataclass(frozen=True, slots=True)
class Void:
    """R-FLOOR-1: void the hand in progress; ``answer`` gets ``{"voided": n}``."""

    reason: str
    answer: asyncio.Future[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Close:
    """R-FLOOR-1: close the table; ``answer`` gets what was voided."""

    reason: str
    answer: asyncio.Future[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Alarm:
    """The table's own clock: a moment it waits for has come (``TableAlarm.wait``)."""


@dataclass(frozen=True, slots=True)
class Wake:
    """Something changed elsewhere (a tournament's move, a round of hand-for-hand over, its
    start): look again whether to deal, and show the table."""


@dataclass(frozen=True, slots=True)
class Retire:
    """The table is done here (a tournament's table broke, or its event is over): stop."""


ALARM = Alarm()
FromClient = Watching | Said
Item = (
    Watching | Said | Gone | Unwatching | Suspend | AutoMuck | Void | Close | Alarm | Wake | Retire
)

CLIENT_WAITING = 32  # one connection's messages waiting at all its tables


class Shares:
    """What each source has waiting in one table's inbox (S-ISOLATE-1): a connection, an
    account and an address may each hold only a share of it, so a flood from one source
    (many sockets of one address, one account) is refused to that source alone and the
    others' messages still find room. An account with nothing waiting here, on a connection
    with nothing waiting here, is let past its address's share: a player behind the
    flooder's address (a shared NAT) can still act, and an address has at most one such
    message per connection (64) beyond its share."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.queued = 0  # clients' messages in the inbox
        self.held: Counter[object] = Counter()  # source -> its messages waiting here
        # The sources of each message waiting, in the inbox's order (a client may log in
        # while its ``watch`` waits: its message is released under what it was taken as).
        self.sources: deque[tuple[Client, tuple[object, ...]]] = deque()

    @property
    def per_account(self) -> int:
        return max(CLIENT_WAITING, self.limit // 20)

    @property
    def per_address(self) -> int:
        return max(CLIENT_WAITING, self.limit // 10)

    def refusal(self, client: Client, table: str) -> RefusalError | None:
        """Why ``client``'s next message cannot wait here now, None if it can."""
        if client.waiting >= CLIENT_WAITING or self.held[client] >= CLIENT_WAITING:
            return RefusalError(code="table.yours_waiting", table=table)
        account = self.held[("account", client.account_id)] if client.account_id else 0
        if account >= self.per_account:
            return RefusalError(code="table.yours_waiting", table=table)
        address_full = bool(client.address) and (
            self.held[("address", client.address)] >= self.per_address
        )
        # Past a full address: an account and its connection with nothing waiting here (a
        # socket may say hello as one account after another: one message, not one each).
        if address_full and (account or client.account_id is None or self.held[client]):
            return RefusalError(code="table.yours_waiting", table=table)
        if self.queued >= self.limit:
            return RefusalError(code="table.busy", table=table)
        return None

    def take(self, client: Client) -> None:
        """Count a message of ``client`` that goes into the inbox."""
        keys: list[object] = [client]
        if client.account_id is not None:
            keys.append(("account", client.account_id))
        if client.address:
            keys.append(("address", client.address))
        self.queued += 1
        client.waiting += 1
        self.held.update(keys)
        self.sources.append((client, tuple(keys)))

    def release(self) -> None:
        """The oldest client's message left the inbox (the inbox is first in, first out)."""
        client, keys = self.sources.popleft()
        self.queued -= 1
        client.waiting -= 1
        for key in keys:
            self.held[key] -= 1
            if self.held[key] <= 0:
                del self.held[key]

    def forget(self) -> None:
        """The table's task ended: its waiting messages will never be handled, so no
        connection may keep them counted (32 would refuse it at every table)."""
        while self.sources:
            self.release()
