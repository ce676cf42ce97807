"""A tournament table's task: the cash table's actor (its inbox, clock, watchers,
broadcast and hole-card privacy) with the tournament's coordinator dealing the hands.

The coordinator owns the table; this task asks it to deal (``TournamentDealing``: at the level
of the moment, hand for hand when it says so, from the table's verifiable shuffle as a cash
table deals, docs/fairness.md), passes the players' actions and the clock's time-outs through it,
and stores each hand's end with the event's state after it (busts, moves, places paid) in
one transaction. Seats are drawn and moved by the tournament: joins, top-ups, leaving and
sitting out are refused here. Time is the runner's wall clock (levels are absolute
deadlines that survive a restart)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, cast

from pokerroom.engine.actions import Action, ActionKind
from pokerroom.fairness import Shuffle
from pokerroom.history.record import hand_record
from pokerroom.server.clock import utcnow
from pokerroom.server.sockets import protocol
from pokerroom.server.sockets.client import Client
from pokerroom.server.tables.actor import CLOCK_SLACK, TableActor
from pokerroom.server.tables.dealing import Dealt, dealt_in
from pokerroom.server.tables.inbox import Close, Item, Suspend, Void
from pokerroom.server.tournaments.deals import open_proposal, tell_restarted
from pokerroom.store.nodes.leases import StaleEpochError
from pokerroom.store.tables.hands import StartedHand
from pokerroom.store.tables.results import HandToCount
from pokerroom.table import Table, TableError
from pokerroom.table.events import HandFinished, SeatLeft
from pokerroom.tournament import events as tev
from pokerroom.tournament.events import TournamentError

if TYPE_CHECKING:
    from pokerroom.server.tournaments.runner import TournamentRunner

log = logging.getLogger("pokerroom.tournament")

TOURNAMENT_EVENTS = tuple(
    v for v in vars(tev).values() if isinstance(v, type) and v.__module__ == tev.__name__
)


@dataclass(frozen=True, slots=True)
class Wake:
    """Something changed elsewhere in the tournament (a move, a round of hand-for-hand over,
    the start): look again whether to deal, and show the table."""


@dataclass(frozen=True, slots=True)
class Retire:
    """The table broke (its players were redrawn) or the event is over: stop."""


class TournamentDealing:
    """The coordinator deals the tournament's tables, at the level of the moment and hand for
    hand when it says so, from the table's verifiable shuffle as a cash table deals; the
    hand is recorded as running in the event's store."""

    def __init__(self, runner: TournamentRunner, number: int) -> None:
        self.runner, self.number = runner, number

    def can_deal(self, table: Table, now: float) -> bool:
        # Not in a break, nor waiting on the other tables, nor while a deal is being agreed.
        runner = self.runner
        return runner.t.can_start(self.number, now) and open_proposal(runner) is None

    def deal(self, table: Table, now: float, deck: Sequence[int]) -> Dealt:
        players = {n: s.player for n, s in table.seats.items()}
        events = self.runner.t.start_hand(self.number, now, deck=deck)
        return Dealt(events, dealt_in(table, events, players, self.runner.account_of))

    async def begin(
        self, table_id: str, *, number: int, before: str | None, now: datetime, shuffle: Shuffle
    ) -> StartedHand:
        return await self.runner.store.begin_hand(
            table_id,
            number=number,
            deck=shuffle.deck,
            salt=shuffle.server_seed,
            client_seeds=shuffle.client_seeds,
            now=now,
        )


class TournamentTableActor(TableActor):
    def __init__(self, runner: TournamentRunner, number: int, *, pause: float) -> None:
        super().__init__(
            runner.db,
            runner.table_id(number),
            runner.t.tables[number],
            {},
            pause=pause,
            dealing=TournamentDealing(runner, number),
        )
        self.runner = runner
        self.number = number

    # ------------------------------------------------------------ from the runner

    def wake(self) -> None:
        self.inbox.put_nowait(cast(Item, Wake()))

    def retire(self) -> None:
        self.inbox.put_nowait(cast(Item, Retire()))

    # ------------------------------------------------------------ the clock: the runner's

    async def _turn(self, item: Item | None, now: float) -> None:
        await super()._turn(item, self.runner.now())

    def _next_wakeup(self, now: float) -> float | None:
        now = self.runner.now()
        if self.closed:
            return None
        table, t = self.table, self.runner.t
        moments = [] if table.deadline is None else [table.deadline]
        if table.warning_at is not None and not table.warned:
            moments.append(table.warning_at)
        offer = t.offer_deadline(self.number)  # a busted player's rebuy decision lapses
        if offer is not None:
            moments.append(offer)
        if table.hand is None and t.started and not t.finished:
            # A proposal made void by the hand that just ended (a bust changed the players)
            # is cleared here, not left to hold the table until the next level.
            proposal = open_proposal(self.runner) if self.runner.proposal is not None else None
            if t.can_start(self.number, now) and proposal is None and not self.moving:
                moments.append(self.next_hand_at)  # (moving: the node drains, none dealt)
            else:  # a break, a deal being agreed, or the other tables (they wake this one)
                upcoming = t.clock.next_change(now)
                if upcoming is not None:
                    moments.append(upcoming)
                if proposal is not None and proposal.until is not None:
                    moments.append(proposal.until)  # it lapses then: the table deals on
        if not moments:
            return None
        wait = max(0.0, min(moments) - now) / self.runner.hall.speed  # in real seconds
        return max(wait, CLOCK_SLACK) if self.clock_idle else wait

    async def _on_clock(self, now: float) -> bool:
        t = self.runner.t
        lapsed = t.expire_offers(self.number, now)  # rebuys not taken in time: out
        if lapsed:
            await self.runner.settle()
            self.runner.after(lapsed)
        if self.runner.proposal is not None:
            open_proposal(self.runner)  # a deal not agreed in time lapses
        events = t.tick_table(self.number, now)
        await self._route(events, now)
        return bool(events or lapsed)

    # ------------------------------------------------------------ hands

    async def _route(self, events: list[Any], now: float) -> None:
        """The table's events to the actor (a hand's end is stored), the tournament's to the
        runner. Seats left by busts and moves are tournament chips: no cash-out."""
        await self._after(
            [e for e in events if not isinstance(e, (SeatLeft, *TOURNAMENT_EVENTS))], now
        )
        self.runner.after([e for e in events if isinstance(e, TOURNAMENT_EVENTS)])

    async def _store_hand(
        self, finished: HandFinished, leavers: list[SeatLeft], now: float
    ) -> None:
        started, hand, runner = self.started, self.table.last_hand, self.runner
        if started is None or hand is None:
            return
        due, bounties, overlay = runner.prizes_due(now), runner.bounties_due(), runner.overlay_due()
        async with runner.saving:  # the state taken now, written before any taken later
            paid = await runner.store.finish_hand(
                started,
                runner.id,
                deck=hand.deck,
                record=hand_record(hand),
                cancelled=finished.cancelled,
                players=[
                    (account, seat, position, before, hand.stacks[position])
                    for account, seat, position, before in self.participants
                ],
                snapshot=runner.snapshot(),
                status=runner.status,
                prizes=due,
                bounties=bounties,
                overlay=overlay,
                now=utcnow(),
                to_count=HandToCount(
                    hand,
                    [(account, position) for account, _, position, _ in self.participants],
                    self.table_id,
                    tournament=True,
                ),
            )
        runner.overlay_paid = runner.overlay_paid or bool(overlay)
        self.started = None
        self._announce(hand, finished, self.hand_events)
        runner.bounties_paid(bounties)
        self._reveal(finished, started, self.participants)
        runner.prizes_paid(paid, due)
        self.hand_events = []
        self.next_hand_at = now + self.pause * self.runner.hall.speed

    async def _fault(self, error: Exception, now: float) -> bool:
        """A fault at this table: its hand goes back to its start (R-DECK-5), the rest of
        the tournament goes on. A write refused by the event's lease epoch is no fault:
        another node runs the event now, and this table stops (raised on to the task)."""
        if isinstance(error, StaleEpochError):
            raise error
        self.faults += 1
        log.error(
            "tournament table %s: fault: %s",
            self.table_id,
            error,
            exc_info=(type(error), error, error.__traceback__),
        )
        self.runner.t.cancel_hand(self.number, f"server fault: {type(error).__name__}")
        self.shuffles.cancelled()  # its deck is never revealed (R-DECK-5)
        started, self.started = self.started, None
        self.hand_events = []
        self.next_hand_at = self.runner.now() + self.pause * self.runner.hall.speed
        if started is not None:
            try:
                await self.runner.store.cancel_hand(
                    self.table_id, started.hand_id, "server fault", now=utcnow()
                )
            except Exception:  # the restart cancels it
                log.exception("tournament table %s: the cancel was not stored", self.table_id)
        return True

    # ------------------------------------------------------------ players

    def seat_holder(self, account_id: int | None) -> str | None:
        """The account's entry in play when it sits here (a re-entry is ``7#2``)."""
        entry = self.runner.entry_of(account_id)
        return entry if entry is not None and self.table.seat_number(entry) is not None else None

    def _player(self, client: Client) -> str:
        entry = self.seat_holder(client.account_id)
        if entry is None:
            raise TableError(f"you have no seat at {self.table_id}")
        return entry

    async def _handle(self, item: Item, now: float) -> bool:
        thing: object = item
        if isinstance(thing, Wake):
            return True
        if isinstance(thing, Retire):
            self._stop()
            return False
        match item:
            case Suspend():
                return False  # a suspended player is blinded off like an absent one
            case Void(_, answer) | Close(_, answer):
                answer.set_exception(TableError("a tournament table is run by its tournament"))
                return False
        return await super()._handle(item, now)

    async def _watch(self, client: Client, now: float) -> bool:
        changed = await super()._watch(client, now)
        tell_restarted(self.runner, client.account_id)  # a deal a restart cancelled
        return changed

    async def _said(self, client: Client, payload: protocol.ClientMessage, now: float) -> bool:
        if isinstance(payload, (protocol.Act, protocol.Chat, protocol.Seed)):
            return await super()._said(client, payload, now)
        client.deliver(
            protocol.error(
                f"{self.table_id} is a tournament table: its seats are drawn by the tournament",
                request=payload.type,
                table=self.table_id,
            )
        )
        return False

    async def _act(self, client: Client, message: protocol.Act, now: float) -> None:
        entry = self._player(client)
        if message.hand != self.table.hand_number or self.table.hand is None:
            raise TableError(f"hand {message.hand} is not the hand in progress")
        action = Action(ActionKind(message.action), message.amount)
        try:
            events = self.runner.t.act(entry, action, now)
        except TournamentError as error:
            raise TableError(str(error)) from None
        await self._route(events, now)

    def _public(self, now: float) -> dict[str, Any]:
        public = super()._public(now)
        public["tournament"] = self.runner.table_info(self.table, now)
        return public

    def _stop(self) -> None:
        self.closed = True
        self.runner.room.actors.pop(self.table_id, None)
        task = self.task
        if task is not None:
            asyncio.get_running_loop().call_soon(task.cancel)
