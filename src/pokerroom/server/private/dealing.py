"""How a private game's table deals: a cash table's dealing (``CashDealing``), held while
the host pauses the game (or before the room has read the game back after a restart), with
the stakes the host chose and the bomb pot the host marked applied just before the next
hand is dealt, in the table's own task."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Protocol

from pokerroom.fairness import Shuffle
from pokerroom.server.tables.dealing import Dealing, Dealt
from pokerroom.store.tables.hands import StartedHand
from pokerroom.table import Table


class NextHand(Protocol):
    """What a game says of its next hand (``Game`` in games.py)."""

    paused: bool
    ended: bool
    big_blind: int
    bomb_pot_next: int


class PrivateDealing:
    def __init__(
        self,
        inner: Dealing,
        game: Callable[[], NextHand | None],
        bomb_dealt: Callable[[], Any],
    ) -> None:
        self.inner = inner
        self.game = game  # None: not read back yet (a restart): no hand until it is
        self.bomb_dealt = bomb_dealt  # an awaitable: the store forgets the mark
        self.bombed = False

    def can_deal(self, table: Table, now: float) -> bool:
        game = self.game()
        if game is None or game.paused or game.ended:
            return False
        return self.inner.can_deal(table, now)

    def deal(self, table: Table, now: float, deck: Sequence[int]) -> Dealt:
        game = self.game()
        assert game is not None  # ``can_deal`` said yes in this same turn
        if table.big_blind != game.big_blind:  # the host's new stakes, from this hand on
            spec = table.house.game(table.spec.variant, table.spec.structure, game.big_blind)
            table.set_stakes(spec.stakes)
        if game.bomb_pot_next:  # R-BOMB-1: checked against the house as the host asked
            table.mark_bomb_pot(game.bomb_pot_next)
            game.bomb_pot_next = 0
            self.bombed = True
        return self.inner.deal(table, now, deck)

    async def begin(
        self, table_id: str, *, number: int, before: str | None, now: datetime, shuffle: Shuffle
    ) -> StartedHand:
        started = await self.inner.begin(
            table_id, number=number, before=before, now=now, shuffle=shuffle
        )
        if self.bombed:
            self.bombed = False
            await self.bomb_dealt()
        return started
