"""A table's hand ends: each is one unit of work handed to the database's writer, committed
with the other tables' (group commit, DESIGN 8). Everyone sees the hand end at once; the
result, the shuffle's reveal and the next deal wait until this table's own write is durable,
so a crash before it cancels the hand (R-DECK-5).

A part of its own (``TableActor.hand_ends``): its state is the last hand's end until the
store has it, and it writes, waits for and counts that end; the actor hands it the hand and
its record, and once the end is durable does what the players see (the result, the reveal)."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

from pokerroom.engine.events import Event, PotAwarded
from pokerroom.history.record import hand_record
from pokerroom.server.clock import utcnow
from pokerroom.server.ops.metrics import RoomMetrics
from pokerroom.server.tables.stats import HandEnd, TableStats, saw_flop
from pokerroom.store.tables.hands import StartedHand
from pokerroom.store.tables.results import HandToCount
from pokerroom.store.tables.store import RoomStore
from pokerroom.table.events import HandFinished

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
    """One table's hand ends, group-committed: the last one until the store has it."""

    def __init__(self, store: RoomStore, table_id: str) -> None:
        self.store, self.table_id = store, table_id
        self.ending: Ending | None = None  # the last hand's end, until the store has it

    def write(
        self,
        started: StartedHand,
        hand: Any,
        finished: HandFinished,
        *,
        snapshot: str,
        events: list[Event],
        participants: list[tuple[int, int, int, int]],
        leavers: list[tuple[int, int]],
        at: float,
    ) -> None:
        """The hand's record (setup, actions, result), rake, the table after it and the
        leavers' cash-outs: one unit of work handed to the database's writer (DESIGN 8),
        committed with the other tables' (``durable`` waits for it)."""
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
                for account, seat, position, before in participants
            ],
            leavers=leavers,
            to_count=HandToCount(
                hand,
                [(account, position) for account, _, position, _ in participants],
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
            events,
            participants,
            at,
        )

    async def durable(self) -> Ending | None:
        """The last hand's end once its write is durable (None: none waits). The write's
        error (the store refused it) is raised here: the table's fault, and the hand, still
        running in the store, is cancelled."""
        ending = self.ending
        if ending is None:
            return None
        try:  # shielded: a task cancelled at shutdown leaves the write to finish (Room.stop)
            await asyncio.shield(ending.write)
        finally:
            if ending.write.done():
                self.ending = None
        return ending

    def counted(self, ending: Ending, *, stats: TableStats, metrics: RoomMetrics | None) -> None:
        """A durable hand's end in the lobby's figures, the room's metrics and the log."""
        finished, started = ending.finished, ending.started
        if not finished.cancelled:
            dealt = len(ending.participants)
            stats.hand_ended(
                HandEnd(
                    at=time.monotonic(),
                    dealt=dealt,
                    saw_flop=saw_flop(ending.events, dealt),
                    pot=sum(e.amount for e in ending.events if isinstance(e, PotAwarded)),
                )
            )
        if metrics is not None:
            outcome = "cancelled" if finished.cancelled else "complete"
            metrics.hands.labels(outcome=outcome).inc()
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
