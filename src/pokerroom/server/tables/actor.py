"""One asyncio task owns each table (DESIGN 6): players' messages, disconnects and the
clock are all inbox items handled in order. Money moves in the same transaction as the
table change that causes it; hands are stored whole when they end, with the cash-outs of
the players who stand up as they end.

One table actor composed of parts, each an object it owns with its own state and its
collaborators passed in (the table itself to each call: a rollback or a fault replaces it):
its clock's one timer (``alarm.TableAlarm``), its hands' ends being group-committed
(``hand_ends.HandEnds``), who is told what of its waiting list (``waiting.WaitingList``), a
fault being settled with its retries and the floor's items held meanwhile
(``recovery.Recovery``), its verifiable shuffles, its inbox's shares and its lobby figures.
What differs between a cash table and a tournament's are two more parts chosen where the
actor is built: its ``TablePolicy`` (``cash.CashPolicy``; server/tournaments/table.py) and
how hands are dealt, its ``Dealing``.

What is here is the actor's own behaviour over its own state (the table, the snapshot the
store holds, the hand in progress, the watchers): the task and its turn, dealing, the
messages and the seat requests (a seat, chips, options, the waiting list, the floor's
suspension: each a table change and its write rolled back together), putting the table back
after a fault (S-CRASH-1), and the coalesced broadcast. Those have no state of their own to
give a part, and each reads and writes the same table and snapshot: cut out, they would need
the whole actor back."""

from __future__ import annotations

import asyncio
import html
import logging
import time
from collections.abc import AsyncIterator, Callable, Container
from contextlib import asynccontextmanager
from typing import Any, Protocol

from pokerroom.engine.actions import Action, ActionKind
from pokerroom.engine.errors import HandError
from pokerroom.engine.events import ActionTaken, BoardDealt, Event, ForcedBet
from pokerroom.server.accounts.preferences import saved as saved_preferences
from pokerroom.server.clock import utcnow
from pokerroom.server.ops.metrics import RoomMetrics
from pokerroom.server.sockets import encoding, protocol
from pokerroom.server.sockets.client import Client
from pokerroom.server.sockets.errors import RefusalError
from pokerroom.server.tables.account_limits import AccountLimits
from pokerroom.server.tables.alarm import TableAlarm
from pokerroom.server.tables.dealing import CashDealing, Dealing
from pokerroom.server.tables.hand_ends import HandEnds
from pokerroom.server.tables.inbox import (
    CLIENT_WAITING,
    Alarm,
    AutoMuck,
    Close,
    FromClient,
    Gone,
    Item,
    Retire,
    Said,
    Shares,
    Suspend,
    Unwatching,
    Void,
    Wake,
    Watching,
)
from pokerroom.server.tables.recovery import Recovery
from pokerroom.server.tables.shuffles import TableShuffles, players_of
from pokerroom.server.tables.stats import TableStats
from pokerroom.server.tables.views import (
    FixedFields,
    hand_result,
    lobby_entry,
    note_action,
    public_state,
    state_for_seat,
)
from pokerroom.server.tables.waiting import WaitingList
from pokerroom.store.account_ids import AccountId, account_of
from pokerroom.store.db import Database
from pokerroom.store.fence import StaleEpochError
from pokerroom.store.money.ledger import LedgerError
from pokerroom.store.tables.hands import StartedHand
from pokerroom.store.tables.store import RoomStore, StoreError, TableSave
from pokerroom.table import Table, TableError
from pokerroom.table.events import (
    HandFinished,
    SeatLeft,
    TimeBankUsed,
    TimerStarted,
    WaitingListChanged,
)

BROADCAST_TICK = 0.02  # seconds: a change a client's message made waits this long after a frame
OPTIONS_TICK = 1.0  # seconds: seat options (the player's own) reach the others this often
CLOCK_SLACK = 0.05  # seconds: the shortest sleep after a clock turn that changed nothing
INBOX_MESSAGES = 1000  # clients' messages waiting for one table before more are refused
__all__ = ["CLIENT_WAITING", "INBOX_MESSAGES", "TableActor", "TablePolicy"]

log = logging.getLogger("pokerroom.table")


class TablePolicy(Protocol):
    """What differs between a cash table and a tournament's table: the actor's part that
    decides, with its own state (a tournament's: its runner and table number)."""

    def now(self, now: float) -> float:
        """The table's clock for a turn (``now``: the event loop's)."""
        ...

    def next_wakeup(self, actor: TableActor, now: float) -> float | None:
        """Seconds until the clock must turn (0: due now), None if nothing waits."""
        ...

    async def on_clock(self, actor: TableActor, now: float) -> bool:
        """A clock turn: what is due now (decisions timed out...); whether the table changed."""
        ...

    async def route(self, actor: TableActor, events: list[Any], now: float) -> None:
        """A deal's, an action's or the clock's events to where they are settled."""
        ...

    async def store_hand(
        self, actor: TableActor, finished: HandFinished, leavers: list[SeatLeft], now: float
    ) -> None:
        """A hand's end (and the seats left with it) stored."""
        ...

    async def fault(self, actor: TableActor, error: Exception, now: float) -> bool:
        """A fault of the table (S-CRASH-1), its hand cancelled; whether the table changed."""
        ...

    def seat_holder(self, actor: TableActor, account_id: int | None) -> str | None:
        """Who the account sits here as (None: no seat)."""
        ...

    def player(self, actor: TableActor, client: Client) -> str:
        """Who the client plays here as, or a ``TableError``."""
        ...

    def refusal(self, actor: TableActor, payload: protocol.ClientMessage) -> TableError | None:
        """Why the table takes no request of this kind (None: it does)."""
        ...

    def act(self, actor: TableActor, player: str, action: Action, now: float) -> list[Any]:
        """A player's action at the hand in progress; its events."""
        ...

    async def suspend(self, actor: TableActor, account: AccountId, now: float) -> bool:
        """The floor suspended the account (S-AUTH-2); whether the table changed."""
        ...

    async def floor(
        self, actor: TableActor, close: bool, reason: str, now: float
    ) -> dict[str, Any]:
        """The floor voids the hand or closes the table (R-FLOOR-1): the answer."""
        ...

    def watched(self, actor: TableActor, client: Client) -> None:
        """A client came to watch the table (and was sent it)."""
        ...

    def public(self, actor: TableActor, public: dict[str, Any], now: float) -> dict[str, Any]:
        """The table's state as everyone sees it, with what this kind of table adds."""
        ...

    def stopped(self, actor: TableActor) -> None:
        """The table retired (closed, its task ending): who lists it forgets it."""
        ...


class TableActor:
    def __init__(
        self,
        db: Database,
        table_id: str,
        table: Table,
        config: dict[str, Any],
        *,
        pause: float,
        policy: TablePolicy,
        dealing: Dealing | None = None,
    ) -> None:
        self.store = RoomStore(db)
        self.policy = policy  # what differs between a cash table and a tournament's
        # How hands are dealt and recorded (a cash table's own, or its tournament's).
        self.dealing: Dealing = CashDealing(self.store) if dealing is None else dealing
        self.table_id = table_id
        self.table = table
        self.config = config
        self.pause = pause
        # Unbounded, but clients' messages in it are counted and capped (offer); the rest is
        # bounded by the connections ("gone") and the floor's calls.
        self.inbox: asyncio.Queue[Item] = asyncio.Queue()
        self.shares = Shares(INBOX_MESSAGES)  # what each source has waiting (S-ISOLATE-1)
        self.limits = AccountLimits()  # the room's, shared by its tables, when it has them
        self.chat_writes: set[asyncio.Task[None]] = set()  # chat being stored meanwhile
        self.faults = 0  # exceptions in the table's own logic (each logged with its hand)
        self.watchers: list[Client] = []
        self.version = int(time.time() * 1000)  # above a former owner's (gaps: resync)
        self.started: StartedHand | None = None
        self.hand_events: list[Event] = []
        self.last_actions: dict[int, dict[str, Any]] = {}  # seat -> {"action": "raise_to", ...}
        self.on_time_bank = False  # the turn running now has gone on to the time bank
        self.participants: list[tuple[int, int, int, int]] = []  # account, seat, position, stack
        self.hand_ends = HandEnds(self.store, table_id)  # the last one, until stored
        self.metrics: RoomMetrics | None = None  # the room's, when it has them
        self.acted_at: float | None = None  # when the action being handled came
        self.next_hand_at = 0.0
        self.stats = TableStats(time.monotonic())  # the lobby's figures (last 15 minutes)
        self.task: asyncio.Task[None] | None = None
        self.closed = False
        self.turns = 0  # loop iterations, counted so a test can see the task sleeps when idle
        self.clock_idle = False  # the last clock turn changed nothing
        # What the store holds (stored before this actor was made): a fault goes back to it.
        self.stored = table.to_json()
        # A fault being settled, when to try its cancel again, the floor's items held.
        self.recovery = Recovery(table_id)
        # On a node of several: told when a write is refused by the lease's epoch;
        # ``moving``: the table deals no new hand, to be handed to another node once idle.
        self.on_stale: Callable[[str, str], None] | None = None
        self.moving = False
        self.shuffles = TableShuffles(table.rng)  # verifiable shuffles (docs/fairness.md)
        # Who is told what of the waiting list (its ``reach``: the room's connections).
        self.waiting_list = WaitingList(self.store, table_id, waiting=table.waiting.players)
        self.alarm = TableAlarm(self.inbox)  # the clock's one timer
        self.fixed = FixedFields()  # its frames' members that change with its game only
        # The broadcast, coalesced: a change marks the table ``dirty``, and its frames go out
        # at once when the last went a tick ago, else at that tick with the state then.
        self.dirty = False
        self.broadcast_at = -OPTIONS_TICK  # the loop's time of the last broadcast ...
        self.due_at = 0.0  # ... and of the one pending, while ``dirty``
        self.turn_now = 0.0  # the table's ``now`` of the turn running (a flush's)

    @property
    def db(self) -> Database:
        return self.store.db

    @db.setter
    def db(self, db: Database) -> None:  # a test's failing database, for this table only
        self.store.db = db

    # ------------------------------------------------------------ outside the task

    def post(self, item: Gone | Unwatching | Suspend | AutoMuck) -> None:
        """Control items (a connection gone, the floor): never refused."""
        self.inbox.put_nowait(item)

    @property
    def queued(self) -> int:
        """Clients' messages in the inbox."""
        return self.shares.queued

    def offer(self, item: FromClient) -> RefusalError | None:
        """Queue a client's message; or why not (the table or its sender's share is full)."""
        refused = self.shares.refusal(item.client, self.table_id)
        if refused is None and isinstance(item, Said):
            account, message = item.client.account_id, item.message
            refused = self.limits.refusal(account, self.table_id, message, time.monotonic())
        if refused is None:
            self.shares.take(item.client)
            self.inbox.put_nowait(item)
        return refused

    async def call(self, kind: type[Void] | type[Close], reason: str) -> dict[str, Any]:
        """Ask the table's task to void its hand or close (the floor) and wait for the answer."""
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.inbox.put_nowait(kind(reason, answer))
        return await answer

    def wake(self) -> None:
        self.inbox.put_nowait(Wake())

    def retire(self) -> None:
        self.inbox.put_nowait(Retire())

    def lobby_entry(self) -> dict[str, Any]:
        figures = self.stats.figures(time.monotonic())
        return lobby_entry(self.table, self.table_id, closed=self.closed, figures=figures)

    # ------------------------------------------------------------ the task

    async def run(self) -> None:
        """Handle inbox items and the clock, one at a time, forever.

        A waiting message is always taken first and the clock only when nothing waits: a
        deadline already past must never starve the inbox (``wait_for(get(), 0)``
        on Python 3.11 times out without taking a queued item), and when idle the task
        sleeps until its next deadline instead of spinning."""
        try:
            await self._loop()
        finally:  # deposed, retired, cancelled: what still waits is never handled
            self.shares.forget()

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            self.turns += 1
            item: Item | None = None
            if not self.inbox.empty():
                item = self.inbox.get_nowait()
            else:
                wake = self._next_wakeup(loop.time())
                if self.dirty:  # a coalesced broadcast is due at its tick
                    due = max(0.0, self.due_at - loop.time())
                    wake = due if wake is None else min(wake, due)
                if wake is None or wake > 0:
                    item = await self.alarm.wait(wake)
            if isinstance(item, Alarm):
                item = None  # a clock turn, as when nothing came before the moment
            elif isinstance(item, (Watching, Said)):
                self.shares.release()
            try:
                try:
                    await self._turn(item, loop.time())
                except Exception as error:  # even a failed fault handler must not end the task
                    await self.policy.fault(self, error, loop.time())
            except StaleEpochError as error:  # another node runs the table now: stop at once
                self._deposed(error)
                return
            if isinstance(item, (Watching, Said)) and item.done is not None:
                item.done()  # handled: a command from another node is acknowledged (bus)

    async def _turn(self, item: Item | None, now: float) -> None:
        changed = moved = False
        now = self.policy.now(now)
        self.turn_now = now
        tick = BROADCAST_TICK if self._coalesced(item) else 0.0
        if isinstance(item, Said) and isinstance(item.message, protocol.Act):
            self.acted_at = item.at if self.acted_at is None else self.acted_at
        try:
            if item is None:
                changed = await self._on_clock(now)
            else:
                changed = await self._handle(item, now)
            if self.hand_ends.ending is not None:
                # A hand ended: everyone sees the table at once, while its end is written
                # with the other tables' (group commit). This table waits for its own write
                # only: nothing else of it is written, and no hand dealt, before that.
                if changed:
                    self._changed(now, tick)
                moved, changed = changed, False
                await self._settle()
            changed = await self._maybe_start(now) or changed
            changed = await self._free_sat_out(now) or changed
            changed = await self._offer_seats(now) or changed
        except Exception as error:
            changed = await self.policy.fault(self, error, now)
        self.clock_idle = item is None and not (changed or moved)
        if changed:
            self._changed(now, tick)
        elif self.dirty and self._due():
            self._broadcast(now)
        if not self.dirty:
            self.acted_at = None

    def _next_wakeup(self, now: float) -> float | None:
        """Seconds until the next thing the clock must do (0 when it is due), None if none."""
        return self.policy.next_wakeup(self, now)

    async def _on_clock(self, now: float) -> bool:
        return await self.policy.on_clock(self, now)

    async def _maybe_start(self, now: float) -> bool:
        if self.closed or self.moving or self.table.hand is not None or now < self.next_hand_at:
            return False  # (moving: the node drains, server/ops/drain.py)
        if self.recovery.pending is not None or self.hand_ends.ending is not None:
            return False
        if not self.dealing.can_deal(self.table, now):
            return False
        before = self.table.to_json()
        shuffle = self.shuffles.next_shuffle(lambda p: self.table.seat_number(p) is not None)
        dealt = self.dealing.deal(self.table, now, shuffle.deck)
        if dealt.participants is None:  # nobody could be dealt in: try again after the pause
            self.next_hand_at = now + self.pause
            await self._route(dealt.events, now)
            return bool(dealt.events)
        self.shuffles.dealt(shuffle)
        self.started = await self.dealing.begin(
            self.table_id,
            number=self.table.hand_number,
            before=None if before == self.stored else before,  # unchanged: not written again
            now=utcnow(),
            shuffle=shuffle,
        )
        self.stored = before
        self.hand_events, self.last_actions, self.participants = [], {}, dealt.participants
        self._log_start()
        await self._route(dealt.events, now)
        await self._settle()  # a hand over at once (all-in on the blinds): durable first
        return True

    async def _route(self, events: list[Any], now: float) -> None:
        """A deal's events to the table's handling (a tournament's also go to its runner)."""
        await self.policy.route(self, events, now)

    async def _free_sat_out(self, now: float) -> bool:
        """Seats that sat out longer than the house allows, cashed out and freed."""
        if self.recovery.pending is not None or self.closed:
            return False
        events = self.table.stand_sat_out(now)
        if any(isinstance(e, SeatLeft) for e in events):
            await self._after(events, now)
            return True
        return False

    async def _offer_seats(self, now: float) -> bool:
        """After every turn: offers that ran out are passed on and free seats offered."""
        if not self.table.waiting.entries or self.recovery.pending is not None or self.closed:
            return False
        notes = await self.waiting_list.offer_seats(self.table, now)
        if notes is None:
            return False
        saved = self._saved()
        await self.store.save_table(self.table_id, saved, now=utcnow())
        self.stored = saved.snapshot
        self.waiting_list.tell(self.table, self.watchers, now, notes)
        return True

    async def _after(self, events: list[Event], now: float) -> None:
        """Settle what the table's events mean for money and storage."""
        if self.started is not None and self.hand_ends.ending is None:
            self.hand_events.extend(events)
        finished: HandFinished | None = None
        leavers: list[SeatLeft] = []
        waiting, ends = False, any(isinstance(e, HandFinished) for e in events)
        for event in events:
            if isinstance(event, (ActionTaken, ForcedBet, BoardDealt)):
                self.last_actions = note_action(self.last_actions, event)
            elif isinstance(event, (TimerStarted, TimeBankUsed)):
                self.on_time_bank = isinstance(event, TimeBankUsed)
            elif isinstance(event, HandFinished):
                finished = event
            elif isinstance(event, SeatLeft) and ends:  # cashed out with the hand's end (one
                leavers.append(event)  # transaction: never a snapshot after a hand not stored)
            elif isinstance(event, SeatLeft):  # ends the sitting, cashing out under its key
                await self._settle()  # written after the hand that ended before it
                saved = self._saved()
                await self.store.cash_out(
                    self.table_id, account_of(event.player), event.stack, saved, now=utcnow()
                )
                self.stored = saved.snapshot
            elif isinstance(event, WaitingListChanged):
                waiting = True  # someone on the list sat down
        if finished is not None:
            await self.policy.store_hand(self, finished, leavers, now)
        if waiting:
            self.waiting_list.tell(self.table, self.watchers, now)

    def _saved(self) -> TableSave:
        """The table as the store writes it."""
        return TableSave(self.table.name, self.config, self.table.to_json())

    # ------------------------------------------------------------ hands' starts and ends

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
        """A cash hand's end with the leavers' cash-outs, handed to the group commit
        (``hand_ends``; ``_settle`` waits for it). If it fails, ``_fault`` cancels the hand
        (R-DECK-5)."""
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
        self.hand_ends.write(
            started,
            hand,
            finished,
            snapshot=snapshot,
            events=self.hand_events,
            participants=self.participants,
            leavers=left,
            at=now,
        )

    async def _settle(self) -> None:
        """Wait until the last hand's end is durable, then announce it, reveal its shuffle
        and let the table deal on. The write's error (the store refused it) is raised here:
        the table's fault, and the hand, still running in the store, is cancelled."""
        ending = await self.hand_ends.durable()
        if ending is None:
            return
        finished, started = ending.finished, ending.started
        self.started, self.stored = None, ending.snapshot
        self._announce(ending.hand, finished, ending.events)
        self._reveal(finished, started, ending.participants)
        self.hand_ends.counted(ending, stats=self.stats, metrics=self.metrics)
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

    # ------------------------------------------------------------ messages

    async def _handle(self, item: Item, now: float) -> bool:
        match item:
            case Watching(client):
                changed = await self._watch(client, now)
                self.policy.watched(self, client)
                return changed
            case Gone(client):
                return await self._gone(client, now)
            case Unwatching(client):
                self._unwatch(client)
                return False
            case Suspend() | AutoMuck() if self.recovery.pending is not None:
                self.recovery.hold(item)  # until the table is back (it moves money)
                return False
            case Void(_, answer) | Close(_, answer) if self.recovery.pending is not None:
                answer.set_exception(TableError(code="table.recovering", table=self.table_id))
                return False
            case Suspend(account):
                return await self.policy.suspend(self, account, now)
            case AutoMuck(account, on):
                holder = self.seat_holder(account)
                if holder is None:
                    return False
                self.table.set_options(holder, auto_muck=on)
                return True
            case Void(reason, answer) | Close(reason, answer):
                try:
                    close = isinstance(item, Close)
                    answer.set_result(await self.policy.floor(self, close, reason, now))
                except Exception as error:
                    answer.set_exception(error)
                return True
            case Said(client, message):
                return await self._said(client, message, now)
            case Wake():
                return True
            case Retire():
                self.closed = True
                self.policy.stopped(self)
                if self.task is not None:
                    asyncio.get_running_loop().call_soon(self.task.cancel)
                return False
            case Alarm():  # ``run`` makes it a clock turn: never handled as a message
                return False

    def seat_holder(self, account_id: int | None) -> str | None:
        """Who the account sits here as (None: no seat); a tournament's: its entry
        (``tournament.entries.entry_id``: 7#2)."""
        return self.policy.seat_holder(self, account_id)

    def _player(self, client: Client) -> str:
        return self.policy.player(self, client)

    def _seat_for(self, client: Client) -> int | None:
        holder = self.seat_holder(client.account_id)
        return None if holder is None else self.table.seat_number(holder)

    async def _watch(self, client: Client, now: float) -> bool:
        if client.closed:  # dropped while the request waited
            return False
        if client not in self.watchers:
            self.watchers.append(client)
        holder = self.seat_holder(client.account_id)
        if holder is not None and not self.table.seat_of(holder).connected:  # R-TIME-3
            await self._after(self.table.reconnect(holder, now), now)  # a page reload
            return True  # everyone (this client too) sees the seat connected again
        client.deliver(self._state_for(client, now), self.table_id, self.version)
        player = client.player
        if player is not None and player in self.table.waiting:
            # Your place in line, after a reload too.
            self.waiting_list.tell_player(self.table, self.watchers, player, now)
        return False

    def _unwatch(self, client: Client) -> None:
        player = client.player
        if self.seat_holder(client.account_id) is not None:
            return  # the seat's frames are the player's own: they stop with the socket
        if player is not None and player in self.table.waiting:
            return  # a seat offered from the list is told at this table
        if client in self.watchers:
            self.watchers.remove(client)
        client.tables.discard(self.table_id)

    async def _gone(self, client: Client, now: float) -> bool:
        if client in self.watchers:
            self.watchers.remove(client)
        still_here = any(w.player == client.player and not w.closed for w in self.watchers)
        if (holder := self.seat_holder(client.account_id)) is not None and not still_here:
            events = self.table.disconnect(holder, now)
            await self._after(events, now)
            return True
        return False

    async def _said(self, client: Client, payload: protocol.ClientMessage, now: float) -> bool:
        refused = self.policy.refusal(self, payload)
        if refused is not None:
            client.deliver(protocol.error(refused, request=payload.type, table=self.table_id))
            return False
        try:
            if self.recovery.pending is not None and not isinstance(payload, protocol.Chat):
                raise TableError(code="table.recovering", table=self.table_id)
            match payload:
                case protocol.Join():
                    await self._join(client, payload, now)
                case protocol.AddChips():
                    await self._add_chips(client, payload, now)
                case protocol.Act():
                    await self._act(client, payload, now)
                case protocol.Leave():
                    await self._after(self.table.leave(self._player(client), now), now)
                case protocol.SitOut(type="sit_out"):
                    await self._after(self.table.sit_out(self._player(client)), now)
                case protocol.SitOut():
                    player = self._player(client)
                    await self._after(self.table.sit_in(player, post_now=True), now)
                case protocol.Options():
                    self._options(client, payload)
                    self._options_changed(client, now)
                    return False
                case protocol.Chat():
                    await self._chat(client, payload, now)
                    return False
                case protocol.WaitingList():
                    await self._waiting_request(client, payload, now)
                case protocol.Seed():  # the seat holder's (a tournament's: its entry)
                    self.shuffles.add_seed(self.seat_holder(client.account_id), payload)
                    return False
        except (TableError, HandError, LedgerError) as error:
            client.deliver(protocol.error(error, request=payload.type, table=self.table_id))
            return False
        return True

    async def _floor(self, close: bool, reason: str, now: float) -> dict[str, Any]:
        """R-FLOOR-1 at the table: void the hand in progress (R-DECK-5) or close the table."""
        voided = None
        if self.table.hand is not None:
            voided = self.table.hand_number
            events = self.table.cancel_hand(f"voided by the floor: {reason}")
            await self._after(events, now)
        if not close:
            if voided is None:
                raise TableError(code="hand.none")
            return {"voided": voided}
        for seat in list(self.table.seats.values()):
            await self._after(self.table.leave(seat.player, now), now)
        self.closed = True
        self.waiting_list.close(self.table, self.watchers, now)
        return {"voided": voided, "closed": True}

    async def _act(self, client: Client, message: protocol.Act, now: float) -> None:
        player = self._player(client)
        if message.hand != self.table.hand_number or self.table.hand is None:
            raise TableError(code="hand.stale", hand=message.hand)
        action = Action(ActionKind(message.action), message.amount)
        events = self.policy.act(self, player, action, now)
        await self._route(events, now)

    async def _chat(self, client: Client, message: protocol.Chat, now: float) -> None:
        """Sent at once; stored by the writer with its next batch, never waited for here (the
        account's rate was checked as it was offered: ``AccountLimits``)."""
        player = self._player(client)
        text = html.escape(message.text.strip())  # stored and sent escaped
        account = client.account_id  # (not ``player``: a tournament entry's id may be 7#2)
        assert account is not None  # ``_player`` refused an anonymous client
        write = asyncio.create_task(
            self.store.post_chat(self.table_id, account, text, now=utcnow())
        )
        self.chat_writes.add(write)
        write.add_done_callback(self._chat_written)
        chat = protocol.ChatFrame(table=self.table_id, sender=client.name or player, text=text)
        self._tell(protocol.frame(chat))

    def _chat_written(self, write: asyncio.Task[None]) -> None:
        self.chat_writes.discard(write)
        if not write.cancelled() and write.exception() is not None:  # the line was seen, lost
            log.warning("%s: a chat line was not stored: %r", self.table_id, write.exception())

    # ------------------------------------------------------------ seat requests
    # A player's seat: sitting down with a buy-in, adding chips, seat options and the floor's
    # suspension. Money moves in the same transaction as the table change that causes it; the
    # request key names one sitting (S-MONEY-3); a request whose write fails leaves the table as
    # it was (``_as_it_was_on_failure``).

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

    async def _waiting_request(
        self, client: Client, message: protocol.WaitingList, now: float
    ) -> None:
        """Join (at the end) or leave the waiting list; refused and unchanged when already
        on it, seated, not on it, or the table is closed. Stored with the table."""
        player = self._player(client)
        if message.action == "join" and self.closed:
            raise TableError(code="table.closed")
        async with self._as_it_was_on_failure():
            notes = await self.waiting_list.change(
                self.table, player, message.action, now, name=client.name
            )
            saved = self._saved()
            await self.store.save_waiting_list(self.table_id, saved, now=utcnow())
        self.stored = saved.snapshot
        self.waiting_list.tell(self.table, self.watchers, now, notes)

    async def _suspend(self, player: str, now: float) -> bool:
        """S-AUTH-2, the floor's rule: sat out, cashed out after the hand; off the waiting
        list (a seat held for them goes on down the line at the end of the turn)."""
        self.watchers = [w for w in self.watchers if w.player != player]
        if self.table.waiting.remove(player):
            self.waiting_list.tell(self.table, self.watchers, now)
        if self.table.seat_number(player) is None:
            return False
        events = self.table.sit_out(player)
        events += self.table.leave(player, now)
        await self._after(events, now)
        return True

    # ------------------------------------------------------------ failures (S-CRASH-1)

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
        self.recovery.begin(f"server fault: {type(error).__name__}", started)
        await self._recover(now)
        return True

    async def _recover(self, now: float) -> None:
        """Put the table back to the snapshot the store holds, cancel the hand in progress
        there (every chip back, R-DECK-5) and store that, with the cancelled hand's record,
        in one fresh transaction. Until that commits the table waits: no hand is dealt and
        no money moves; the clock tries again, each wait twice the last (bounded)."""
        pending = self.recovery.pending
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
            self.recovery.failed(pending, now)  # the table waits, and tries again
            return
        self.stored, self.recovery.pending, self.started = snapshot, None, None
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
        self.recovery.release(self.inbox)  # the floor's items held while the table waited

    def _faulted(self) -> None:
        self.faults += 1  # the floor's view (/api/floor/tables) ...
        if self.metrics is not None:  # ... and the operators' alert
            self.metrics.faults.inc()

    def _announce_cancelled(self, number: int) -> None:
        line = protocol.frame(hand_result(self.table_id, number, cancelled=True))
        for watcher in list(self.watchers):
            self._send(watcher, line)

    # ------------------------------------------------------------ broadcast

    def _public(self, now: float) -> dict[str, Any]:
        public = public_state(
            self.table,
            table_id=self.table_id,
            version=self.version,
            now=now,
            last_actions=self.last_actions,
            on_time_bank=self.on_time_bank,
            shuffle=self.shuffles.current,
            next_seed=self.shuffles.next_commitment,
            fixed=self.fixed,
        )
        return self.policy.public(self, public, now)

    def _state_for(self, client: Client, now: float, public: dict[str, Any] | None = None) -> str:
        public = self._public(now) if public is None else public
        seat = self._seat_for(client)
        return encoding.encode(public if seat is None else state_for_seat(self.table, public, seat))

    @staticmethod
    def _coalesced(item: Item | None) -> bool:
        """Whether the change ``item`` makes waits for the tick. The game's own pace goes out
        at once: the clock, and an action (only the player to act changes the table with
        one, and then the turn moves on, so no client can quicken it). Every other message
        (join, leave, sitting out and in, the waiting list, a hang-up, the floor's) could
        come as fast as a client sends it: those frames are coalesced."""
        if isinstance(item, Said):
            return not isinstance(item.message, protocol.Act)
        return item is not None

    def _changed(self, now: float, tick: float) -> None:
        """The table changed: its viewers see it now, or, for a change ``tick`` must not
        follow the last frame so soon, at that tick with the state then (however fast
        messages change it, a viewer gets at most one such frame a tick, and every frame is
        the latest state)."""
        self._pending(tick)
        if self._due():
            self._broadcast(now)

    def _pending(self, tick: float) -> None:
        """A change for everyone, due ``tick`` after the last frame (the soonest wins)."""
        due = self.broadcast_at + tick
        self.due_at = min(self.due_at, due) if self.dirty else due
        self.dirty = True

    def _due(self) -> bool:
        return asyncio.get_running_loop().time() >= self.due_at

    def _options_changed(self, client: Client, now: float) -> None:
        """Seat options are the player's own: its sockets see them at once (the frame of
        the version already sent, with them); the others with the next frame, at the latest
        ``OPTIONS_TICK`` after the last, so a player toggling options sets nobody's rate."""
        for own in [w for w in self.watchers if w.account_id == client.account_id]:
            own.deliver(self._state_for(own, now), self.table_id, self.version)
        self._pending(OPTIONS_TICK)

    def _flush(self) -> None:
        """A line about to go out after a change not yet broadcast: the change goes first (a
        hand's result after the table that shows its end)."""
        if self.dirty:
            self._broadcast(self.turn_now)

    def _broadcast(self, now: float) -> None:
        self.dirty = False
        self.broadcast_at = asyncio.get_running_loop().time()
        if self.acted_at is not None and self.metrics is not None:
            self.metrics.actions.observe(time.monotonic() - self.acted_at)
            self.acted_at = None
        self.version += 1
        version, table, table_id, watchers = self.version, self.table, self.table_id, self.watchers
        public = self._public(now)
        shared = encoding.SharedEncoding(public)  # what every viewer sees, encoded once
        for client in list(watchers):
            seat = self._seat_for(client)  # (a tournament's seat holder is its entry: 7#2)
            if seat is None:
                self._send(client, shared.whole, version)
                continue
            frame = encoding.encode_utf8(state_for_seat(table, public, seat))
            client.deliver_utf8(frame, table_id, version)
            if client.closed and client in watchers:  # as ``_send`` does
                watchers.remove(client)

    def _tell(self, line: str, only: Container[int | None] | None = None) -> None:
        """Queue ``line`` for every watcher (or those whose account is in ``only``)."""
        for watcher in [w for w in self.watchers if only is None or w.account_id in only]:
            self._send(watcher, line)

    def _send(self, client: Client, text: str, version: int | None = None) -> None:
        """Queue ``text`` (a table frame: its ``version``) for ``client``; never waits."""
        if version is None:
            self._flush()
        client.deliver(text, None if version is None else self.table_id, version)
        if client.closed and client in self.watchers:
            self.watchers.remove(client)
