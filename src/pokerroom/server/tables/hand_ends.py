"""A table's hand ends (mixed into ``TableActor``): each is one unit of work handed to the
database's writer, committed with the other tables' (group commit, DESIGN 8). Everyone sees
the hand end at once; the result, the shuffle's reveal and the next deal wait until this
table's own write is durable, so a crash before it cancels the hand (R-DECK-5)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Container
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pokerroom.engine.events import Event, PotAwarded
from pokerroom.history.record import hand_record
from pokerroom.server.clock import utcnow
from pokerroom.server.ops.metrics import RoomMetrics
from pokerroom.server.sockets import protocol
from pokerroom.server.tables.shuffles import TableShuffles, players_of
from pokerroom.server.tables.stats import HandEnd, TableStats, saw_flop
from pokerroom.server.tables.views import hand_result
from pokerroom.store.account_ids import account_of
from pokerroom.store.tables.hands import StartedHand
from pokerroom.store.tables.results import HandToCount
from pokerroom.store.tables.store import RoomStore
from pokerroom.table import Table
from pokerroom.table.events import HandFinished, SeatLeft

log = logging.getLogger("pokerroom.table")


@dataclass(frozen=True, slots=True)
class Ending:
    """A hand's end handed to the database's writer (group commit), and what the table
    does once it is durable: announce the result, reveal the shuffle, deal on."""

    write: asyncio.Task[None]
    started: StartedHand
    hand: Any
    finished: HandFinished
    snapshot: str
    events: list[Event]
    participants: list[tuple[int, int, int, int]]
    at: float  # the table's clock when the hand ended (the pause counts from it)


class HandEnds:
    """The actor's state a hand's end reads and sets."""

    store: RoomStore
    table_id: str
    table: Table
    stored: str  # the snapshot the store holds
    started: StartedHand | None
    hand_events: list[Event]
    participants: list[tuple[int, int, int, int]]
    shuffles: TableShuffles
    stats: TableStats
    metrics: RoomMetrics | None
    ending: Ending | None
    next_hand_at: float
    pause: float

    if TYPE_CHECKING:

        def _tell(self, line: str, only: Container[int | None] | None = None) -> None: ...

    def _log_start(self) -> None:
        """A hand dealt, in the log with its seated accounts (a complaint finds it)."""
        assert self.started is not None
        accounts = [account for account, *_ in self.participants]
        log.info(
            "table %s: hand %s started, accounts %s",
            self.table_id,
            self.started.number,
            ", ".join(map(str, accounts)),
            extra={
                "table": self.table_id,
                "hand": self.started.number,
                "hand_id": self.started.hand_id,
                "accounts": accounts,
            },
        )

    async def _store_hand(
        self, finished: HandFinished, leavers: list[SeatLeft], now: float
    ) -> None:
        """The hand's record (setup, actions, result), rake, the table after it and the
        leavers' cash-outs: one unit of work handed to the database's writer (DESIGN 8),
        committed with the other tables' (``_settle`` waits for it). If it fails, ``_fault``
        cancels the hand (R-DECK-5)."""
        await self._settle()
        started = self.started
        hand = self.table.last_hand
        snapshot = self.table.to_json()
        left: list[tuple[int, int]] = [(account_of(e.player), e.stack) for e in leavers]
        if started is None or hand is None:  # no hand stored: only the leavers to settle
            if left:
                await self.store.cancel_hand(
                    self.table_id,
                    hand_id=None,
                    reason="",
                    snapshot=snapshot,
                    leavers=left,
                    now=utcnow(),
                )
                self.stored = snapshot
            return
        write = self.store.finish_hand(
            started=started,
            table_id=self.table_id,
            deck=hand.deck,
            record=hand_record(hand),
            rake=finished.rake,
            cancelled=finished.cancelled,
            snapshot_after=snapshot,
            now=utcnow(),
            players=[
                (account, seat, position, before, hand.stacks[position])
                for account, seat, position, before in self.participants
            ],
            leavers=left,
            to_count=HandToCount(
                hand,
                [(account, position) for account, _, position, _ in self.participants],
                self.table_id,
                tournament=False,
            ),
        )
        self.ending = Ending(
            asyncio.ensure_future(write),
            started,
            hand,
            finished,
            snapshot,
            self.hand_events,
            self.participants,
            now,
        )

    async def _settle(self) -> None:
        """Wait until the last hand's end is durable, then announce it, reveal its shuffle
        and let the table deal on. The write's error (the store refused it) is raised here:
        the table's fault, and the hand, still running in the store, is cancelled."""
        ending = self.ending
        if ending is None:
            return
        try:  # shielded: a task cancelled at shutdown leaves the write to finish (Room.stop)
            await asyncio.shield(ending.write)
        finally:
            if ending.write.done():
                self.ending = None
        finished, started = ending.finished, ending.started
        self.started, self.stored = None, ending.snapshot
        self._announce(ending.hand, finished, ending.events)
        self._reveal(finished, started, ending.participants)
        if not finished.cancelled:
            dealt = len(ending.participants)
            self.stats.hand_ended(
                HandEnd(
                    at=time.monotonic(),
                    dealt=dealt,
                    saw_flop=saw_flop(ending.events, dealt),
                    pot=sum(e.amount for e in ending.events if isinstance(e, PotAwarded)),
                )
            )
        if self.metrics is not None:
            outcome = "cancelled" if finished.cancelled else "complete"
            self.metrics.hands.labels(outcome=outcome).inc()
        # Each account's chips won (lost: negative), so that a complaint finds its hand.
        chips = {
            account: ending.hand.stacks[position] - before
            for account, _, position, before in ending.participants
        }
        log.info(
            "table %s: hand %s %s, chips %s, rake %s",
            self.table_id,
            finished.number,
            "cancelled, every chip back" if finished.cancelled else "ended",
            ", ".join(f"{a} {c:+d}" for a, c in chips.items()),
            finished.rake,
            extra={
                "table": self.table_id,
                "hand": finished.number,
                "hand_id": started.hand_id,
                "accounts": list(chips),
                "chips": chips,
                "cancelled": finished.cancelled,
            },
        )
        self.hand_events = []
        self.next_hand_at = ending.at + self.pause

    def _reveal(
        self,
        finished: HandFinished,
        started: StartedHand,
        participants: list[tuple[int, int, int, int]],
    ) -> None:
        """The ended hand's shuffle revealed to the players dealt in only (R-SHOW-8: after
        its result); never a cancelled hand's (R-DECK-5)."""
        reveal = self.shuffles.reveal(
            self.table_id, finished.number, started.hand_id, cancelled=finished.cancelled
        )
        if reveal is not None:
            self._tell(reveal, only=players_of(participants))

    def _announce(self, hand: Any, finished: HandFinished, events: list[Event]) -> None:
        """The end of a hand as everyone may see it (views.hand_result)."""
        result = hand_result(
            self.table_id,
            finished.number,
            hand=hand,
            events=events,
            rake=finished.rake,
            cancelled=finished.cancelled,
        )
        self._tell(protocol.frame(result))
