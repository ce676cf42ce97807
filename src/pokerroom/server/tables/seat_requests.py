"""A player's seat at one table, as the table's task handles the requests for it: sitting
down with a buy-in, adding chips, seat options, and the floor's suspension. Money moves in
the same transaction as the table change that causes it; the request key names one sitting
(S-MONEY-3); a request whose write fails leaves the table as it was (``Recovers``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pokerroom.engine.events import Event
from pokerroom.server.accounts.preferences import saved as saved_preferences
from pokerroom.server.clock import utcnow
from pokerroom.server.sockets import protocol
from pokerroom.server.sockets.client import Client
from pokerroom.server.tables.recovery import Recovers
from pokerroom.store.account_ids import account_of
from pokerroom.store.tables.store import TableSave
from pokerroom.table import TableError


class SeatRequests(Recovers):
    """The table actor's seat requests (mixed into ``TableActor``)."""

    closed: bool

    if TYPE_CHECKING:

        async def _after(self, events: list[Event], now: float) -> None: ...

        def _saved(self) -> TableSave: ...

        def _tell_waiting(self, now: float, notes: dict[str, str] | None = None) -> None: ...

        def seat_holder(self, account_id: int | None) -> str | None: ...

        def _player(self, client: Client) -> str: ...

    def _seat_for(self, client: Client) -> int | None:
        holder = self.seat_holder(client.account_id)
        return None if holder is None else self.table.seat_number(holder)

    async def _join(self, client: Client, message: protocol.Join, now: float) -> None:
        """Sit down with a buy-in; the request key names this one sitting (S-MONEY-3)."""
        player = self._player(client)
        if self.closed:
            raise TableError(code="table.closed")
        if client not in self.watchers:
            self.watchers.append(client)
        seated = self.table.seat_number(player)
        current = None if seated is None else self.table.seat_of(player)
        key = f"join:{self.table_id}:{player}:{message.request}"
        events: list[Event] = []
        number = self.table.joined + 1  # what ``sit`` numbers a new seat

        def sit() -> TableSave:
            taken = self.table.sit(
                player, message.seat, message.buy_in, name=client.name, post_now=True
            )
            events.extend(taken)
            if self.table.seat_of(player).joined != number:
                raise TableError(f"seat numbered {number} is not the sitting recorded")
            return self._saved()

        # A retry of this sitting's join moves nothing; a key from an ended one is refused.
        async with self._as_it_was_on_failure():
            saved = await self.store.seat(
                self.table_id,
                account_of(player),
                key=key,
                buy_in=message.buy_in,
                seat=message.seat,
                joined=None if current is None else current.joined,
                number=number,
                sit=sit,
                now=utcnow(),
            )
        if saved is not None:
            self.stored = saved.snapshot
        if current is None:
            # The account's auto-muck preference goes with it to the seat.
            chosen = saved_preferences(await self.store.preferences(account_of(player)))
            self.table.set_options(player, auto_muck=chosen.auto_muck)
            await self._after(events, now)
            return
        if current.connected is False:  # R-TIME-3: back in time
            await self._after(self.table.reconnect(player, now), now)
            return
        if seated != message.seat:
            raise TableError(code="seat.already_seated", seat=str(seated))
        # already sitting there (a retry, or a client that reconnected): nothing to do

    async def _add_chips(self, client: Client, message: protocol.AddChips, now: float) -> None:
        """Chips from the balance to the player's stack, in one transaction with the table;
        the request key is bound to the sitting: a retry moves nothing, a reuse is refused."""
        player = self._player(client)
        seat = self.table.seat_of(player)
        key = f"add:{self.table_id}:{player}:{message.request}"
        events: list[Event] = []

        def add() -> TableSave:
            events.extend(self.table.add_chips(player, message.amount))  # refuses: rolled back
            return self._saved()

        async with self._as_it_was_on_failure():
            saved = await self.store.add_chips(
                self.table_id,
                account_of(player),
                key=key,
                amount=message.amount,
                joined=seat.joined,
                add=add,
                now=utcnow(),
            )
        if saved is None:
            return  # a retried request: the chips moved the first time
        self.stored = saved.snapshot
        await self._after(events, now)

    def _options(self, client: Client, message: protocol.Options) -> None:
        player = self._player(client)
        if self.table.seat_number(player) is None:
            raise TableError(code="seat.take_first")
        self.table.set_options(
            player,
            auto_post=message.auto_post,
            post_now=None if message.wait_for_big_blind is None else not message.wait_for_big_blind,
            sit_out_next=message.sit_out_next,
            leave_after=message.leave_after,
            pre_action="unchanged"
            if message.pre_action is None
            else (None if message.pre_action == "none" else message.pre_action),
            straddle=message.straddle,
            run_it_twice=message.run_it_twice,
        )

    async def _suspend(self, player: str, now: float) -> bool:
        """S-AUTH-2, the floor's rule: sat out, cashed out after the hand; off the waiting
        list (a seat held for them goes on down the line at the end of the turn)."""
        self.watchers = [w for w in self.watchers if w.player != player]
        if self.table.waiting.remove(player):
            self._tell_waiting(now)
        if self.table.seat_number(player) is None:
            return False
        events = self.table.sit_out(player)
        events += self.table.leave(player, now)
        await self._after(events, now)
        return True
