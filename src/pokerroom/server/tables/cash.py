"""A cash table's policy (the ``TablePolicy`` part of its actor): the table runs on the event
loop's clock and deals when its seats allow it; a player sits as their account, joins, tops
up, leaves and sits out at will; a hand's end is group-committed with the leavers' cash-outs
(``hand_ends``); a fault puts the table back to what the store holds (``recovery``); the floor
may suspend a player, void the hand or close the table; a seat sat out too long is freed and
a seat held for the waiting list is passed on when its time is up."""

from __future__ import annotations

from typing import Any

from pokerroom.engine.actions import Action
from pokerroom.server.sockets import protocol
from pokerroom.server.sockets.client import Client
from pokerroom.server.tables.actor import CLOCK_SLACK, TableActor
from pokerroom.store.account_ids import AccountId, player_key
from pokerroom.table import TableError
from pokerroom.table.events import HandFinished, SeatLeft


class CashPolicy:
    """Nothing of its own to hold: a cash table is its own master."""

    def now(self, now: float) -> float:
        return now

    def next_wakeup(self, actor: TableActor, now: float) -> float | None:
        if actor.recovery.pending is not None:  # only the retry is due: the table waits for it
            return max(0.0, actor.recovery.pending.retry_at - now)
        table = actor.table
        moments = [] if table.deadline is None else [table.deadline]
        if table.warning_at is not None and not table.warned:
            moments.append(table.warning_at)
        if not actor.closed and table.hand is None and table.can_start():
            moments.append(actor.next_hand_at)
        sat_out = table.sit_out_deadline()
        if sat_out is not None:  # a seat sat out the house's limit: cashed out and freed
            moments.append(sat_out)
        held = table.waiting.next_deadline() if table.waiting.offers else None
        if held is not None:  # a seat held for the waiting list: passed on when time is up
            moments.append(held)
        if not moments:
            return None
        wait = max(0.0, min(moments) - now)
        if actor.clock_idle:  # the last due moment changed nothing: never spin on it
            wait = max(wait, CLOCK_SLACK)
        return wait

    async def on_clock(self, actor: TableActor, now: float) -> bool:
        if actor.recovery.pending is not None:
            if now >= actor.recovery.pending.retry_at:
                await actor._recover(now)
                return True
            return False
        events = actor.table.tick(now)
        await actor._after(events, now)
        return bool(events)

    async def route(self, actor: TableActor, events: list[Any], now: float) -> None:
        await actor._after(events, now)

    async def store_hand(
        self, actor: TableActor, finished: HandFinished, leavers: list[SeatLeft], now: float
    ) -> None:
        await actor._store_hand(finished, leavers, now)

    async def fault(self, actor: TableActor, error: Exception, now: float) -> bool:
        return await actor._fault(error, now)

    def seat_holder(self, actor: TableActor, account_id: int | None) -> str | None:
        player = None if account_id is None else player_key(account_id)
        return player if player and actor.table.seat_number(player) is not None else None

    def player(self, actor: TableActor, client: Client) -> str:
        if client.player is None:
            raise TableError(code="auth.log_in_first")
        return client.player

    def refusal(self, actor: TableActor, payload: protocol.ClientMessage) -> TableError | None:
        return None

    def act(self, actor: TableActor, player: str, action: Action, now: float) -> list[Any]:
        return actor.table.act(player, action, now)

    async def suspend(self, actor: TableActor, account: AccountId, now: float) -> bool:
        return await actor._suspend(player_key(account), now)

    async def floor(
        self, actor: TableActor, close: bool, reason: str, now: float
    ) -> dict[str, Any]:
        return await actor._floor(close, reason, now)

    def watched(self, actor: TableActor, client: Client) -> None:
        return None

    def public(self, actor: TableActor, public: dict[str, Any], now: float) -> dict[str, Any]:
        return public

    def stopped(self, actor: TableActor) -> None:
        return None  # its room forgets it when it goes (Room.depose)
