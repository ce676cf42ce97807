"""What a table does when something fails (S-CRASH-1: one rollback policy).

A player's request whose write the store refused leaves the table as it was before it
(``TableActor._as_it_was_on_failure``): nothing changed anywhere, and the player may try
again.

A fault (a bug in the table's logic, or a write the store refused outside a request) is a
crash of this one table: the table in memory goes back to the snapshot the store holds, and
a hand in progress there is cancelled with every chip back (R-DECK-5), in a fresh
transaction (``TableActor._fault``, ``_recover``: the actor's own state put back). If that
write fails too, the table waits (no hand is dealt, no money moves) and the clock tries
again with a growing back-off until the store takes it.

A part of its own (``TableActor.recovery``): its state is the fault being settled, when to
try its cancel again, and the floor's items held meanwhile; the inbox they go back to is
passed to it when the table is back."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from pokerroom.server.tables.inbox import Item
from pokerroom.store.tables.hands import StartedHand

RETRY_SECONDS = 0.5  # after a fault whose cancel the store refused: the first wait ...
RETRY_MAX_SECONDS = 30.0  # ... doubling up to this

log = logging.getLogger("pokerroom.table")


@dataclass(slots=True)
class Fault:
    """A fault being settled: the hand the store holds as running, and when to try again."""

    reason: str
    started: StartedHand | None
    tries: int = 0
    retry_at: float = 0.0


class Recovery:
    """One table's recovery from a fault: while ``pending`` is set the table waits."""

    def __init__(self, table_id: str, *, retry_seconds: float = RETRY_SECONDS) -> None:
        self.table_id = table_id
        self.pending: Fault | None = None  # a fault whose cancel is not stored yet
        self.retry_seconds = retry_seconds  # the first wait after a refused cancel
        self.deferred: list[Item] = []  # the floor's items held while the table waits

    def begin(self, reason: str, started: StartedHand | None) -> None:
        """A fault: the table waits until its cancel is stored (a fault while it already
        waits keeps the first one's reason and hand)."""
        if self.pending is None:
            self.pending = Fault(reason, started)

    def hold(self, item: Item) -> None:
        """A floor item held until the table is back (it moves money)."""
        self.deferred.append(item)

    def failed(self, pending: Fault, now: float) -> None:
        """The cancel's write failed (called while its error is handled): the table waits
        and tries again, each wait twice the last (bounded)."""
        pending.tries += 1
        wait = min(RETRY_MAX_SECONDS, self.retry_seconds * 2 ** (pending.tries - 1))
        pending.retry_at = now + wait
        log.exception(
            "table %s: storing the cancel of hand %s failed (try %d); the table waits"
            " and tries again in %.1f s",
            self.table_id,
            None if pending.started is None else pending.started.number,
            pending.tries,
            wait,
            extra={"table": self.table_id, "hand": _number(pending.started)},
        )

    def release(self, inbox: asyncio.Queue[Item]) -> None:
        """The table is back: the floor's items held meanwhile go back to its inbox."""
        for item in self.deferred:
            inbox.put_nowait(item)
        self.deferred = []


def _number(started: StartedHand | None) -> int | None:
    return None if started is None else started.number
