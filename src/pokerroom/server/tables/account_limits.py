"""What one account may send, whatever the number of its sockets (S-ISOLATE-1): chat (5
messages per 10 s at a table, 10 in the room) and the messages that change its seat without
moving money (options, sitting out and in, the waiting list, a seed; 10 a second, 20 at once
at a table), counted over all of the account's sockets: the connection's own rate
(``room.RateLimit``) is per socket. Checked as a message is offered to a table, before it
waits in the inbox, so a refused one costs the table nothing."""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable

from pokerroom.server.sockets import protocol
from pokerroom.server.sockets.errors import RefusalError

CHAT_BURST = 5  # chat messages of one account at one table ...
CHAT_WINDOW = 10.0  # ... per this many seconds
ROOM_CHAT_BURST = 10  # chat messages of one account at all the room's tables per window
CHANGE_RATE = 10.0  # seat changes (``CHANGES``) of one account at one table a second ...
CHANGE_BURST = 20  # ... and at once
PRUNE_AT = 10_000  # keys kept before the quiet ones are forgotten
CHANGES = (protocol.Options, protocol.SitOut, protocol.WaitingList, protocol.Seed)


class Window:
    """At most ``burst`` events per key in any ``seconds`` (a sliding window). Keys quiet
    for a window are forgotten once there are many, so the dict holds recent ones only."""

    def __init__(self, burst: int, seconds: float) -> None:
        self.burst, self.seconds = burst, seconds
        self.times: dict[Hashable, deque[float]] = {}
        self.prune_at = PRUNE_AT

    def full(self, key: Hashable, now: float) -> bool:
        times = self.times.get(key)
        if times is None:
            return False
        while times and now - times[0] >= self.seconds:
            times.popleft()
        return len(times) >= self.burst

    def take(self, key: Hashable, now: float) -> None:
        if len(self.times) >= self.prune_at:
            self.times = {k: t for k, t in self.times.items() if now - t[-1] < self.seconds}
            self.prune_at = max(PRUNE_AT, 2 * len(self.times))
        self.times.setdefault(key, deque()).append(now)


class Buckets:
    """A token bucket per key: ``rate`` a second, ``burst`` at once. Keys whose bucket is
    full again are forgotten once there are many (a full bucket is a new key's)."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.state: dict[Hashable, tuple[float, float]] = {}  # key -> (tokens, at)
        self.prune_at = PRUNE_AT

    def take(self, key: Hashable, now: float) -> bool:
        if len(self.state) >= self.prune_at:
            self.state = {
                k: (t, a)
                for k, (t, a) in self.state.items()
                if t + (now - a) * self.rate < self.burst
            }
            self.prune_at = max(PRUNE_AT, 2 * len(self.state))
        tokens, at = self.state.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < 1:
            self.state[key] = (tokens, now)
            return False
        self.state[key] = (tokens - 1, now)
        return True


class AccountLimits:
    """The room's: one per room, consulted by every table it runs (``TableActor.offer``)."""

    def __init__(self) -> None:
        self.chat_at_table = Window(CHAT_BURST, CHAT_WINDOW)
        self.chat_in_room = Window(ROOM_CHAT_BURST, CHAT_WINDOW)
        self.changes = Buckets(CHANGE_RATE, CHANGE_BURST)

    def refusal(
        self, account: int | None, table: str, message: protocol.ClientMessage, now: float
    ) -> RefusalError | None:
        """Why the account may not send ``message`` to ``table`` now, None if it may (and
        then it is counted)."""
        if account is None:
            return None  # refused at the table: log in first
        if isinstance(message, protocol.Chat):
            here = (table, account)
            if self.chat_at_table.full(here, now) or self.chat_in_room.full(account, now):
                return RefusalError(code="chat.slow_down")
            self.chat_at_table.take(here, now)
            self.chat_in_room.take(account, now)
        elif isinstance(message, CHANGES) and not self.changes.take((table, account), now):
            return RefusalError(code="protocol.account_slow_down", table=table)
        return None
