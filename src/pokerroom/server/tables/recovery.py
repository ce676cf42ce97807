"""What a table does when something fails (S-CRASH-1: one rollback policy).

A player's request whose write the store refused leaves the table as it was before it
(``_as_it_was_on_failure``): nothing changed anywhere, and the player may try again.

A fault (a bug in the table's logic, or a write the store refused outside a request) is a
crash of this one table: the table in memory goes back to the snapshot the store holds, and
a hand in progress there is cancelled with every chip back (R-DECK-5), in a fresh
transaction. If that write fails too, the table waits (no hand is dealt, no money moves)
and the clock tries again with a growing back-off until the store takes it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pokerroom.engine.events import Event
from pokerroom.server.clock import utcnow
from pokerroom.server.ops.metrics import RoomMetrics
from pokerroom.server.sockets import protocol
from pokerroom.server.sockets.client import Client
from pokerroom.server.tables.hand_ends import HandEnds
from pokerroom.server.tables.inbox import Item
from pokerroom.server.tables.shuffles import TableShuffles
from pokerroom.server.tables.views import hand_result
from pokerroom.store.account_ids import account_of
from pokerroom.store.fence import StaleEpochError
from pokerroom.store.tables.hands import StartedHand
from pokerroom.store.tables.store import RoomStore, StoreError
from pokerroom.table import Table, TableError
from pokerroom.table.events import SeatLeft

RETRY_SECONDS = 0.5  # after a fault whose cancel the store refused: the first wait ...
RETRY_MAX_SECONDS = 30.0  # ... doubling up to this

log = logging.getLogger("pokerroom.table")


@dataclass(slots=True)
class Recovery:
    """A fault being settled: the hand the store holds as running, and when to try again."""

    reason: str
    started: StartedHand | None
    tries: int = 0
    retry_at: float = 0.0


class Recovers:
    """The table actor's failure handling (mixed into ``TableActor``), with the actor's
    state it reads and puts back."""

    store: RoomStore
    table_id: str
    table: Table
    stored: str  # the snapshot the store holds
    started: StartedHand | None
    hand_events: list[Event]
    last_actions: dict[int, dict[str, Any]]
    participants: list[tuple[int, int, int, int]]
    faults: int
    metrics: RoomMetrics | None
    recovering: Recovery | None
    retry_seconds: float
    pause: float
    next_hand_at: float
    inbox: asyncio.Queue[Item]
    deferred: list[Item]  # floor items held while the table waits
    watchers: list[Client]
    shuffles: TableShuffles
    hand_ends: HandEnds  # a hand's end handed to the writer, until durable
    # On a node of several: told when a write is refused by the lease's epoch;
    # ``moving``: the table deals no new hand, to be handed to another node once idle.
    on_stale: Callable[[str, str], None] | None = None
    moving: bool = False

    if TYPE_CHECKING:

        def _send(self, client: Client, text: str) -> None: ...

        async def _settle(self) -> None: ...

    @asynccontextmanager
    async def _as_it_was_on_failure(self) -> AsyncIterator[None]:
        """The one rollback policy: an action whose storage fails (its transaction rolled
        back) leaves the table as it was before it, so memory and database stay in step."""
        before = self.table.to_json()
        try:
            yield
        except StoreError as error:  # nothing changed anywhere: the player may try again
            self.table = Table.from_json(before, rng=self.table.rng)
            raise TableError(code=error.code, **error.params) from error
        except Exception:
            self.table = Table.from_json(before, rng=self.table.rng)
            raise

    def _deposed(self, error: StaleEpochError) -> None:
        """A write was refused by the table's lease epoch: another node runs the table now.
        The task stops at once (nothing more is written or dealt here); the room is told."""
        log.warning("table %s: %s", self.table_id, error, extra={"table": self.table_id})
        if self.on_stale is not None:
            self.on_stale(self.table_id, str(error))

    async def _fault(self, error: Exception, now: float) -> bool:
        """A fault in the table's logic or a write the store refused: logged, counted, and
        the table put back as a restart would put it (``_recover``). A hand's end already
        handed to the writer lands first (or fails), so the table goes back to what the
        store really holds. A write refused by the lease's epoch is no fault: another node
        runs the table, and this one stops (raised on to the task)."""
        if isinstance(error, StaleEpochError):
            raise error
        self._faulted()
        if self.hand_ends.ending is not None:
            try:
                await self._settle()
            except StaleEpochError:
                raise
            except Exception:  # the hand stays running in the store: it is cancelled below
                log.exception(
                    "table %s: the hand's end was not stored",
                    self.table_id,
                    extra={"table": self.table_id},
                )
        started = self.started
        hand = started.number if started is not None else None
        log.error(
            "table %s: fault in hand %s: %s",
            self.table_id,
            hand,
            error,
            exc_info=(type(error), error, error.__traceback__),
            extra={"table": self.table_id, "hand": hand},
        )
        if self.recovering is None:
            self.recovering = Recovery(f"server fault: {type(error).__name__}", started)
        await self._recover(now)
        return True

    async def _recover(self, now: float) -> None:
        """Put the table back to the snapshot the store holds, cancel the hand in progress
        there (every chip back, R-DECK-5) and store that, with the cancelled hand's record,
        in one fresh transaction. Until that commits the table waits: no hand is dealt and
        no money moves; the clock tries again, each wait twice the last (bounded)."""
        pending = self.recovering
        if pending is None:
            return
        try:
            # What the store holds, read again: a hand's end (or cash-out) that committed
            # though its caller saw an error (a connection lost in the COMMIT) is kept, not
            # overwritten by the snapshot from before it (seats and ledger would part).
            self.stored, last = await self.store.stored_snapshot(self.table_id)
            table = Table.from_json(self.stored, rng=self.table.rng)
            events = table.cancel_hand(pending.reason) if table.hand is not None else []
            # The cancelled hand keeps its number, and so does one whose start committed
            # though its write reported an error: the next hand numbers on past both.
            started = 0 if pending.started is None else pending.started.number
            table.hand_number = max(table.hand_number, started, last)
            self.table = table  # what everyone sees; nothing is written until it is stored
            self.hand_events, self.last_actions, self.participants = [], {}, []
            self.shuffles.cancelled()
            snapshot = table.to_json()
            cancelled = await self.store.cancel_hand(
                self.table_id,
                hand_id=None if pending.started is None else pending.started.hand_id,
                reason=pending.reason,
                snapshot=snapshot,
                leavers=[
                    (account_of(e.player), e.stack) for e in events if isinstance(e, SeatLeft)
                ],
                now=utcnow(),
            )
        except StaleEpochError:
            raise
        except Exception:
            self._faulted()
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
            return
        self.stored, self.recovering, self.started = snapshot, None, None
        self.next_hand_at = now + self.pause
        if pending.started is not None and cancelled:
            if self.metrics is not None:
                self.metrics.hands.labels(outcome="cancelled").inc()
            accounts = [account for account, *_ in self.participants]
            log.warning(
                "table %s: hand %s cancelled (%s), every chip back to accounts %s",
                self.table_id,
                pending.started.number,
                pending.reason,
                ", ".join(map(str, accounts)),
                extra={
                    "table": self.table_id,
                    "hand": pending.started.number,
                    "hand_id": pending.started.hand_id,
                    "accounts": accounts,
                    "cancelled": True,
                },
            )
            self._announce_cancelled(pending.started.number)
        for item in self.deferred:  # the floor's items held while the table waited
            self.inbox.put_nowait(item)
        self.deferred = []

    def _faulted(self) -> None:
        self.faults += 1  # the floor's view (/api/floor/tables) ...
        if self.metrics is not None:  # ... and the operators' alert
            self.metrics.faults.inc()

    def _announce_cancelled(self, number: int) -> None:
        line = protocol.frame(hand_result(self.table_id, number, cancelled=True))
        for watcher in list(self.watchers):
            self._send(watcher, line)


def _number(started: StartedHand | None) -> int | None:
    return None if started is None else started.number
