"""A table's frames: the CPU time of one broadcast at a 6-seat table mid-hand.

After every action the room builds the table's public frame and each of its six players'
frames and encodes them (``TableActor._broadcast``). Here tables deal hands of random
actions (the table benchmark's players), each with its verifiable shuffle, and broadcast
after each change as the actor does; the CPU time of each broadcast is counted (CPU time,
not wall time: the machine is shared).

A hundred tables take turns, as in the room flat out: when a table's turn comes its state
is no longer in the processor's caches, and a broadcast costs more than at one table alone
(the peer). Measure with the hundred: a cache of each seat's entry and player's options
kept from one frame to the next made a lone table's broadcast about a quarter cheaper and
saved nothing with a hundred tables in turn, nor in the room.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from benchmarks.report import Report, Row
from benchmarks.table import HOUSE, SPEC, STACK, _choose
from pokerroom.engine.events import ActionTaken, BoardDealt, Event, ForcedBet
from pokerroom.fairness import Shuffle
from pokerroom.rng import SeededRandomSource
from pokerroom.server.sockets import encoding
from pokerroom.server.tables.views import FixedFields, note_action, public_state, state_for_seat
from pokerroom.table import Table

STEPS = 40  # changes per table


class Dealer:
    """One table, its players' random decisions and what its frames are built from."""

    def __init__(self, number: int) -> None:
        self.rng = random.Random(number)
        self.table = Table(spec=SPEC, house=HOUSE, seats=6, rng=SeededRandomSource(number))
        for seat in range(1, 7):
            self.table.sit(f"p{number}-{seat}", seat, STACK, name=f"Player {number}-{seat}")
        self.fixed = FixedFields()
        self.last: dict[int, dict[str, Any]] = {}
        self.shuffle: Shuffle | None = None
        self.version = 0

    def change(self, now: float) -> None:
        """Deal a hand, or the next player acts."""
        table = self.table
        events: list[Event]
        if table.hand is None:
            for seat in table.seats.values():
                if seat.stack < table.min_buy_in:
                    table.add_chips(seat.player, STACK - seat.stack)  # rebuy when short
            self.last = {}
            self.shuffle = Shuffle.deal(self.rng.randbytes(32))
            events = table.start_hand(now, deck=self.shuffle.deck)
        else:
            number = table.actor_seat()
            legal = table.hand.legal_actions()
            assert number is not None and legal is not None
            events = table.act(table.seats[number].player, _choose(self.rng, legal), now)
        for event in events:
            if isinstance(event, (ActionTaken, ForcedBet, BoardDealt)):
                self.last = note_action(self.last, event)

    def broadcast(self, now: float) -> int:
        """The frames of one change, as ``TableActor._broadcast`` makes them."""
        self.version += 1
        public = public_state(
            self.table,
            table_id="t",
            version=self.version,
            now=now,
            last_actions=self.last,
            shuffle=self.shuffle,
            fixed=self.fixed,
        )
        return sum(
            len(encoding.encode_utf8(state_for_seat(self.table, public, s)))
            for s in self.table.seats
        )


def per_broadcast(tables: int, steps: int = STEPS) -> float:
    """CPU microseconds per broadcast, ``tables`` tables taking turns."""
    dealers = [Dealer(n) for n in range(tables)]
    now, spent, count = 0.0, 0.0, 0
    clock = time.process_time
    for _ in range(steps):
        for dealer in dealers:
            now += 0.01
            dealer.change(now)
            start = clock()
            dealer.broadcast(now)
            spent += clock() - start
            count += 1
    return spent / count * 1e6


def run() -> Report:
    report = Report("A table's frames after each change")
    per_broadcast(10, 5)  # warm-up
    rounds = [(per_broadcast(100), per_broadcast(1, 100 * STEPS)) for _ in range(5)]
    room = statistics.median(r[0] for r in rounds)
    alone = statistics.median(r[1] for r in rounds)
    report.add(
        Row(
            "CPU per broadcast, 6 players, 100 tables in turn (us)",
            room,
            "us",
            {"one table alone": alone},
            higher_is_better=False,
        )
    )
    report.notes.append(
        f"100 tables in turn cost {room / alone:.1f}x one table's broadcast (caches go cold)"
    )
    return report
