"""A tournament table's task: the table actor (its inbox, clock, watchers, broadcast and
hole-card privacy) with the tournament's parts: its coordinator dealing the hands
(``TournamentDealing``) and the tournament's policy (``TournamentPolicy``).

The coordinator owns the table; the task asks it to deal (``TournamentDealing``: at the level
of the moment, hand for hand when it says so, from the table's verifiable shuffle as a cash
table deals, docs/fairness.md), passes the players' actions and the clock's time-outs through it,
and stores each hand's end with the event's state after it (busts, moves, places paid) in
one transaction. Seats are drawn and moved by the tournament: joins, top-ups, leaving and
sitting out are refused here. Time is the runner's wall clock (levels are absolute
deadlines that survive a restart)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pokerroom.engine.actions import Action
from pokerroom.fairness import Shuffle
from pokerroom.history.record import hand_record
from pokerroom.server.clock import utcnow
from pokerroom.server.sockets import protocol
from pokerroom.server.sockets.client import Client
from pokerroom.server.tables.actor import CLOCK_SLACK, TableActor
from pokerroom.server.tables.dealing import Dealt, dealt_in
from pokerroom.server.tournaments.deals import open_proposal, tell_restarted
from pokerroom.store.account_ids import AccountId
from pokerroom.store.fence import StaleEpochError
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


class TournamentPolicy:
    """A tournament table's policy: the runner's clock, its coordinator's table number."""

    def __init__(self, runner: TournamentRunner, number: int) -> None:
        self.runner, self.number = runner, number

    # ------------------------------------------------------------ the clock: the runner's

    def now(self, now: float) -> float:
        return self.runner.now()

    def next_wakeup(self, actor: TableActor, now: float) -> float | None:
        now = self.runner.now()
        if actor.closed:
            return None
        table, t = actor.table, self.runner.t
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
            if t.can_start(self.number, now) and proposal is None and not actor.moving:
                moments.append(actor.next_hand_at)  # (moving: the node drains, none dealt)
            else:  # a break, a deal being agreed, or the other tables (they wake this one)
                upcoming = t.clock.next_change(now)
                if upcoming is not None:
                    moments.append(upcoming)
                if proposal is not None and proposal.until is not None:
                    moments.append(proposal.until)  # it lapses then: the table deals on
        if not moments:
            return None
        wait = max(0.0, min(moments) - now) / self.runner.hall.speed  # in real seconds
        return max(wait, CLOCK_SLACK) if actor.clock_idle else wait

    async def on_clock(self, actor: TableActor, now: float) -> bool:
        t = self.runner.t
        lapsed = t.expire_offers(self.number, now)  # rebuys not taken in time: out
        if lapsed:
            await self.runner.settle()
            self.runner.after(lapsed)
        if self.runner.proposal is not None:
            open_proposal(self.runner)  # a deal not agreed in time lapses
        events = t.tick_table(self.number, now)
        await self.route(actor, events, now)
        return bool(events or lapsed)

    # ------------------------------------------------------------ hands

    async def route(self, actor: TableActor, events: list[Any], now: float) -> None:
        """The table's events to the actor (a hand's end is stored), the tournament's to the
        runner. Seats left by busts and moves are tournament chips: no cash-out."""
        await actor._after(
            [e for e in events if not isinstance(e, (SeatLeft, *TOURNAMENT_EVENTS))], now
        )
        self.runner.after([e for e in events if isinstance(e, TOURNAMENT_EVENTS)])

    async def store_hand(
        self, actor: TableActor, finished: HandFinished, leavers: list[SeatLeft], now: float
    ) -> None:
        started, hand, runner = actor.started, actor.table.last_hand, self.runner
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
                    for account, seat, position, before in actor.participants
                ],
                snapshot=runner.snapshot(),
                status=runner.status,
                prizes=due,
                bounties=bounties,
                overlay=overlay,
                now=utcnow(),
                to_count=HandToCount(
                    hand,
                    [(account, position) for account, _, position, _ in actor.participants],
                    actor.table_id,
                    tournament=True,
                ),
            )
        runner.overlay_paid = runner.overlay_paid or bool(overlay)
        actor.started = None
        actor._announce(hand, finished, actor.hand_events)
        runner.bounties_paid(bounties)
        actor._reveal(finished, started, actor.participants)
        runner.prizes_paid(paid, due)
        actor.hand_events = []
        actor.next_hand_at = now + actor.pause * self.runner.hall.speed

    async def fault(self, actor: TableActor, error: Exception, now: float) -> bool:
        """A fault at this table: its hand goes back to its start (R-DECK-5), the rest of
        the tournament goes on. A write refused by the event's lease epoch is no fault:
        another node runs the event now, and this table stops (raised on to the task)."""
        if isinstance(error, StaleEpochError):
            raise error
        actor.faults += 1
        log.error(
            "tournament table %s: fault: %s",
            actor.table_id,
            error,
            exc_info=(type(error), error, error.__traceback__),
        )
        self.runner.t.cancel_hand(self.number, f"server fault: {type(error).__name__}")
        actor.shuffles.cancelled()  # its deck is never revealed (R-DECK-5)
        started, actor.started = actor.started, None
        actor.hand_events = []
        actor.next_hand_at = self.runner.now() + actor.pause * self.runner.hall.speed
        if started is not None:
            try:
                await self.runner.store.cancel_hand(
                    actor.table_id, started.hand_id, "server fault", now=utcnow()
                )
            except Exception:  # the restart cancels it
                log.exception("tournament table %s: the cancel was not stored", actor.table_id)
        return True

    # ------------------------------------------------------------ players

    def seat_holder(self, actor: TableActor, account_id: int | None) -> str | None:
        """The account's entry in play when it sits here (a re-entry is ``7#2``)."""
        entry = self.runner.entry_of(account_id)
        return entry if entry is not None and actor.table.seat_number(entry) is not None else None

    def player(self, actor: TableActor, client: Client) -> str:
        entry = self.seat_holder(actor, client.account_id)
        if entry is None:
            raise TableError(code="seat.no_seat_here", table=actor.table_id)
        return entry

    def refusal(self, actor: TableActor, payload: protocol.ClientMessage) -> TableError | None:
        if isinstance(payload, (protocol.Act, protocol.Chat, protocol.Seed)):
            return None
        return TableError(code="tournament.table_seats", table=actor.table_id)

    def act(self, actor: TableActor, player: str, action: Action, now: float) -> list[Any]:
        try:
            return self.runner.t.act(player, action, now)
        except TournamentError as error:
            raise TableError(code=error.code, **error.params) from None

    async def suspend(self, actor: TableActor, account: AccountId, now: float) -> bool:
        return False  # a suspended player is blinded off like an absent one

    async def floor(
        self, actor: TableActor, close: bool, reason: str, now: float
    ) -> dict[str, Any]:
        raise TableError(code="tournament.table_floor")

    def watched(self, actor: TableActor, client: Client) -> None:
        tell_restarted(self.runner, client.account_id)  # a deal a restart cancelled

    def public(self, actor: TableActor, public: dict[str, Any], now: float) -> dict[str, Any]:
        public["tournament"] = self.runner.table_info(actor.table, now)
        return public

    def stopped(self, actor: TableActor) -> None:
        self.runner.room.actors.pop(actor.table_id, None)


def tournament_table(runner: TournamentRunner, number: int, *, pause: float) -> TableActor:
    """The task of the tournament's table ``number``."""
    return TableActor(
        runner.db,
        runner.table_id(number),
        runner.t.tables[number],
        {},
        pause=pause,
        policy=TournamentPolicy(runner, number),
        dealing=TournamentDealing(runner, number),
    )
