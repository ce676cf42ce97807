"""How a table's actor deals a hand: the part that differs between a cash table and a
tournament's. The actor draws the verifiable shuffle (``TableShuffles``: committed, seeded by
the players, revealed after the hand, docs/fairness.md) the same way for both; its
``Dealing`` says whether a hand may be dealt now, deals it with that shuffle's deck, and
records it in the store as running (the salt is the shuffle's server seed, so every hand
verifies). A cash table deals itself and records the table before the hand
(``CashDealing``); a tournament's coordinator deals its tables (server/tournaments/table.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from pokerroom.fairness import Shuffle
from pokerroom.store.tables.hands import StartedHand
from pokerroom.store.tables.store import RoomStore
from pokerroom.table import Table
from pokerroom.table.events import HandFinished

Participants = list[tuple[int, int, int, int]]  # account, seat, position, stack before


@dataclass(frozen=True, slots=True)
class Dealt:
    """A deal's events and the hand's participants; ``participants`` None: nobody was dealt
    in (the table tries again after its pause)."""

    events: list[Any]
    participants: Participants | None


class Dealing(Protocol):
    def can_deal(self, table: Table, now: float) -> bool:
        """Whether the next hand may be dealt now (the actor's own conditions aside)."""
        ...

    def deal(self, table: Table, now: float, deck: Sequence[int]) -> Dealt:
        """Deal the next hand from ``deck``."""
        ...

    async def begin(
        self, table_id: str, *, number: int, before: str | None, now: datetime, shuffle: Shuffle
    ) -> StartedHand:
        """Record the hand as running, with its shuffle (``before``: the table before it, None
        when the store holds it already)."""
        ...


class CashDealing:
    """A cash table deals itself; the store records the table before each hand, to which a
    fault goes back (recovery.py)."""

    def __init__(self, store: RoomStore) -> None:
        self.store = store

    def can_deal(self, table: Table, now: float) -> bool:
        return table.can_start()

    def deal(self, table: Table, now: float, deck: Sequence[int]) -> Dealt:
        players = {n: s.player for n, s in table.seats.items()}
        events = table.start_hand(now, deck=deck)
        return Dealt(events, dealt_in(table, events, players, int))

    async def begin(
        self, table_id: str, *, number: int, before: str | None, now: datetime, shuffle: Shuffle
    ) -> StartedHand:
        return await self.store.begin_hand(
            table_id,
            number=number,
            deck=shuffle.deck,
            before=before,
            now=now,
            salt=shuffle.server_seed,
            client_seeds=shuffle.client_seeds,
        )


def dealt_in(
    table: Table, events: list[Any], players: dict[int, str], account: Callable[[str], int]
) -> Participants | None:
    """The participants of the hand ``start_hand`` dealt (``events``; ``players``: the seats'
    players before it, ``account``: a player's account); None: nobody was dealt in. A hand
    all-in on its blinds has nobody to act and is over before ``start_hand`` returns: it was
    dealt all the same, and is stored like any other (its record and its rake), or the
    table's stacks would lose a rake the ledger never took."""
    if table.hand is not None:
        hand, seats = table.hand, list(table.hand_seats)
    else:
        finished = next((e for e in events if isinstance(e, HandFinished)), None)
        if finished is None or table.last_hand is None:
            return None
        hand, seats = table.last_hand, [number for number, _ in finished.stacks]
    return [
        (account(players[n]), n, position, hand.starting_stacks[position])
        for position, n in enumerate(seats)
    ]
