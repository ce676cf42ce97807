"""Tournaments in the room: each event is a ``TournamentRunner`` that owns the
pure coordinator (``pokerroom.tournament``) and one table task per tournament table
(a ``TableActor`` with the tournament's parts: ``tournament_table``); ``Tournaments`` holds
them all, starts multi-table events at their time and keeps a sit & go of each repeating
structure open for registration.

Money goes through the ledger with the coordinator's change in one transaction
(``store.tournaments.statements``): a registration, its refund, a rebuy or add-on, each
place's prize when it is final. The event's whole state (levels as absolute deadlines,
tables, entries, places) is stored with each of them and at each hand's end, so after a
crash the room restores it, cancels every hand that was in progress (R-DECK-5) and goes
on; a running tournament is never aborted."""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Callable
from typing import Any, Protocol

from pokerroom.errors import Params, message, wire_params
from pokerroom.rules.errors import RulesError
from pokerroom.rules.tournament import TournamentStructure
from pokerroom.server.clock import utcnow
from pokerroom.server.sockets import protocol
from pokerroom.server.tables import notices
from pokerroom.server.tables.actor import TableActor
from pokerroom.server.tables.inbox import Watching
from pokerroom.server.tables.room import Room
from pokerroom.server.tournaments.bounties import (
    bounties_due,
    bounty_notes,
    bounty_view,
    seat_bounties,
)
from pokerroom.store.account_ids import AccountId, account_of, player_key
from pokerroom.store.tournaments.bounties import BountyPayment
from pokerroom.store.tournaments.statements import Prize
from pokerroom.store.tournaments.store import TournamentStore
from pokerroom.table import Table
from pokerroom.tournament.coordinator import Tournament
from pokerroom.tournament.deals import Proposal
from pokerroom.tournament.events import (
    Eliminated,
    Finished,
    HandForHand,
    Moved,
    RebuyOffered,
    Seated,
    TableBroken,
    TournamentError,
)
from pokerroom.tournament.places import Place
from pokerroom.tournament.snapshot import tournament_to_json

log = logging.getLogger("pokerroom.tournament")
LINGER_SECONDS = 30.0  # a finished event's last table stays open this long


class TableWatch(Protocol):
    def watch(self, runner: TournamentRunner, actor: TableActor) -> None: ...


class Hall(Protocol):
    """What an event's runner takes of the hall that places it (``Tournaments``,
    server/tournaments/hall.py): the room, the store, the clock, its tables' making."""

    @property
    def room(self) -> Room: ...

    @property
    def store(self) -> TournamentStore: ...

    @property
    def clock(self) -> Callable[[], float]: ...

    @property
    def speed(self) -> float: ...  # the clock's seconds per real second

    @property
    def events(self) -> TableWatch: ...  # where the events run

    def changed(self) -> None: ...

    async def find(self, tournament_id: str) -> TournamentRunner: ...

    async def reload(self, runner: TournamentRunner) -> None: ...

    def table_for(self, runner: TournamentRunner, number: int) -> TableActor: ...


class TournamentRunner:
    def __init__(
        self,
        hall: Hall,
        tournament_id: str,
        t: Tournament,
        config: dict[str, Any],
        *,
        paid: set[str] | None = None,
        names: dict[str, str] | None = None,
    ) -> None:
        self.hall, self.room, self.store = hall, hall.room, hall.store
        self.db = hall.room.db
        self.id, self.t, self.config = tournament_id, t, config
        self.paid: set[str] = paid or set()
        self.names: dict[str, str] = names or {}
        self.places: dict[str, Place] = {}
        self.actors: dict[int, TableActor] = {}
        self.lock = asyncio.Lock()  # registrations and rebuys, one at a time
        # The state is written in the order it is taken (else an older one could overwrite
        # a newer one: a late registration lost from the state, its money paid).
        self.saving = asyncio.Lock()
        self.starts_at: float | None = config.get("starts_at")
        self.cancelled = False  # its time came with too few entrants: refunded
        self.proposal: Proposal | None = None  # a deal proposed at the final table
        self.deal_cancelled: set[int] = set()  # asked about a deal a restart cancelled
        self.finished_at: float | None = None  # the room's clock when it finished
        self.bounties_sent: set[tuple[str, str]] = set()  # (busted, knocker) stored
        self.ticket_uses: set[asyncio.Task[None]] = set()  # seat winners being registered
        self.overlay_paid = False  # a guarantee's overlay stored (after a restart: once more)

    # ------------------------------------------------------------ queries

    def now(self) -> float:
        return self.hall.clock()

    def table_id(self, number: int) -> str:
        return f"{self.id}-{number}"

    @property
    def status(self) -> str:
        t = self.t
        if self.cancelled:
            return "cancelled"
        return "finished" if t.finished else "running" if t.started else "registering"

    def snapshot(self) -> str:
        p = self.proposal
        self.t.deal_proposed = None if p is None else list(p.players)
        return tournament_to_json(self.t)

    async def save(self) -> None:  # the state as it is once the previous write is done
        async with self.saving:
            await self.store.save(self.id, self.snapshot(), status=self.status, now=utcnow())

    def entry_of(self, account: int | None) -> str | None:
        return None if account is None else self.t._current.get(player_key(account))

    def account_of(self, entry: str) -> AccountId:
        return account_of(self.t.entries[entry].player)

    def my_table(self, account: int) -> str | None:
        """The table where the player's entry sits now (it follows moves)."""
        entry = self.entry_of(account)
        if entry is None:
            return None
        number = self.t.entries[entry].table
        return None if number is None else self.table_id(number)

    def prizes_due(self, now: float) -> list[Prize]:
        """Places settled now and not paid yet (ties split as the coordinator computes).
        Only settled ones: a place still open (its hand-for-hand round, or a hand of it,
        still in play at another table) can still move when a bust there joins its group,
        and a place once paid and told must never move."""
        places = self.t.settled_places(now)
        self.places.update({p.entry: p for p in places})
        return [
            Prize(p.entry, self.account_of(p.entry), p.prize, self.ticket_for(p.prize))
            for p in places
            if p.entry not in self.paid
        ]

    def ticket_for(self, prize: int) -> str | None:
        """A satellite's seat is a ticket to its target event (``config["target"]``); the
        rest of its pool, and a seat with no target event named, is cash."""
        rule, target = self.t.structure.satellite, self.config.get("target")
        return target if rule is not None and target and prize == rule.seat else None

    async def use_tickets(self, prizes: list[Prize]) -> None:
        """Register each seat winner in the target event with their ticket (paid from it);
        one that cannot be (registration closed, already in) keeps the ticket to register
        with later."""
        for prize in prizes:
            if prize.ticket is None:
                continue
            try:
                target = await self.hall.find(prize.ticket)
                name = self.names.get(player_key(prize.account), player_key(prize.account))
                await target.register(prize.account, name, f"ticket:{self.id}:{prize.entry}")
            except Exception as error:  # the ticket stays with the player
                log.warning("%s: ticket of %s not used: %s", self.id, prize.entry, error)

    def bounties_due(self) -> list[BountyPayment]:
        """Bounties won and not stored yet (paid with the state that won them)."""
        return bounties_due(self.t, self.bounties_sent, self.account_of)

    def overlay_due(self) -> int:
        """A guarantee's overlay set by registration closing and not stored yet (the
        ledger pays it once: sent again after a restart)."""
        return 0 if self.overlay_paid else self.t.overlay

    def bounties_paid(self, paid: list[BountyPayment]) -> None:
        """Stored: tell each knocker what they won."""
        self.bounties_sent.update((p.busted, p.knocker) for p in paid)
        for entry, code, params in bounty_notes(self.t, paid):
            self._tell(self.account_of(entry), "bounty", code, params)

    # ------------------------------------------------------------ requests

    async def register(self, account: int, name: str, request: str) -> str:
        async with self.lock:
            if self.cancelled:
                raise TournamentError(code="tournament.cancelled", event=self.t.name)
            player, now = player_key(account), self.now()
            applied: list[Any] = []

            def apply() -> tuple[str, str, str]:
                if not applied:
                    applied.append(self.t.register(player, now, name=name))
                return self.t._current[player], self.snapshot(), self.status

            try:
                async with self.saving:
                    done = await self.store.register(
                        self.id,
                        account,
                        request=request,
                        number=self.t.entries_used(player) + 1,
                        apply=apply,
                        now=utcnow(),
                    )
            except BaseException:
                if applied:  # the coordinator took it but the store did not
                    await self._undo(player)
                raise
            self.names[player] = name
            if applied:
                self.after(applied[0])
            await self.maybe_start()
            return done.entry

    async def _undo(self, player: str) -> None:
        """The store refused a registration the coordinator made: take it back (one that
        has played meanwhile cannot be: back to the state the store holds)."""
        if not self.t.started:
            self.t.unregister(player)
            return
        try:
            events = self.t.withdraw(self.t._current[player])
        except TournamentError:
            await self.hall.reload(self)
            return
        self.after(events)

    async def unregister(self, account: int) -> None:
        async with self.lock:

            def apply() -> str:
                self.t.unregister(player_key(account))
                return self.snapshot()

            async with self.saving:
                await self.store.unregister(self.id, account, apply=apply, now=utcnow())

    async def decline_rebuy(self, account: int) -> None:
        """The player refuses the rebuy offered when they busted: out (stored at once)."""
        async with self.lock:
            entry = self.entry_of(account)
            if entry is None:
                raise TournamentError(code="tournament.not_in", event=self.t.name)
            events = self.t.decline_rebuy(entry, self.now())
            try:
                await self.settle()
            except BaseException:
                await self.hall.reload(self)  # back to the state the store holds
                raise
            self.after(events)

    async def settle(self) -> None:
        """The state after a change between hands (a rebuy offer refused or lapsed), with
        the prizes of the places it made final, in one transaction."""
        due, bounties, overlay = (
            self.prizes_due(self.now()),
            self.bounties_due(),
            self.overlay_due(),
        )
        async with self.saving:
            paid = await self.store.settle(
                self.id,
                snapshot=self.snapshot(),
                status=self.status,
                prizes=due,
                bounties=bounties,
                overlay=overlay,
                now=utcnow(),
            )
        self.overlay_paid = self.overlay_paid or bool(overlay)
        self.bounties_paid(bounties)
        self.prizes_paid(paid, due)

    # ------------------------------------------------------------ running

    async def maybe_start(self) -> None:
        t, now = self.t, self.now()
        if t.started or self.cancelled or self.room.draining:
            return  # (draining: it starts on the node that runs it next)
        s = t.structure
        full = len(t.entries) >= s.max_entrants
        due = self.starts_at is not None and now >= self.starts_at
        if due and not full and len(t.entries) < s.min_entrants:
            await self.cancel()
            return
        if not (full or due):
            return
        events = t.start(now)
        await self.save()
        self.launch()
        self.after(events)
        for entry in t.entries:
            self.follow(self.account_of(entry), "started", "tournament.started", {"event": t.name})
        self.hall.changed()

    async def cancel(self) -> None:
        """Its time came with fewer entrants than its minimum: the event is cancelled and
        every registration (buy-in and fee) refunded, in one transaction."""
        t = self.t

        def apply() -> str:
            for player in list(t._current):
                t.unregister(player)
            return self.snapshot()

        async with self.saving:
            refunded = await self.store.cancel(self.id, apply=apply, now=utcnow())
        self.cancelled = True
        for account in refunded:
            self._tell(account, "cancelled", "tournament.cancelled_refunded", {"event": t.name})
        self.hall.changed()

    def launch(self) -> None:
        """A table task for every table the coordinator has, and none for a broken one."""
        for number in self.t.tables:
            if number not in self.actors:
                actor = self.hall.table_for(self, number)
                actor.limits = self.room.account_limits  # one account: one chat rate
                actor.moving = self.room.draining  # opened while the node drains: no hand
                self.hall.events.watch(self, actor)  # a write refused by the epoch: deposed
                self.actors[number] = actor
                self.room.actors[actor.table_id] = actor
                actor.task = asyncio.create_task(  # no request's (server/ops/request_ids.py)
                    actor.run(), name=f"table {actor.table_id}", context=contextvars.Context()
                )
        for number in [n for n in self.actors if n not in self.t.tables]:
            self.actors.pop(number).retire()

    def wake_all(self) -> None:
        for actor in self.actors.values():
            actor.wake()

    def after(self, events: list[Any]) -> None:
        """What the coordinator did between hands: tables opened or broken, players moved
        (their screens follow), hand-for-hand, the end."""
        self.launch()
        t = self.t
        for event in events:
            match event:
                case Seated(entry, number, _, "late"):  # a late entry: to their table
                    self.follow(
                        self.account_of(entry), "started", "tournament.late_seat", {"table": number}
                    )
                case Moved(entry, _, to_table, _, reason):
                    code = "tournament.moved_break" if reason == "break" else "tournament.moved"
                    self.follow(self.account_of(entry), "moved", code, {"table": to_table})
                case TableBroken(_, final):
                    if final is not None:
                        self.tell_all("final_table", "tournament.final_table", {"table": final})
                case HandForHand(on):
                    said = "tournament.hand_for_hand" if on else "tournament.hand_for_hand_over"
                    self.tell_all("hand_for_hand", said)
                case RebuyOffered(entry, until):
                    seconds = max(0, round(until - self.now()))
                    self._tell(
                        self.account_of(entry),
                        "rebuy_offered",
                        "tournament.rebuy_offered",
                        {"seconds": seconds},
                    )
                case Eliminated(entry, _, _):
                    self._tell(self.account_of(entry), "eliminated", "tournament.eliminated")
                case Finished(winner):
                    self.finished_at = self.now()
                    self._tell(self.account_of(winner), "won", "tournament.won", {"event": t.name})
                    asyncio.get_running_loop().call_later(LINGER_SECONDS, self.close)
        self.wake_all()

    def prizes_paid(self, entries: list[str], due: list[Prize]) -> None:
        """Tell each player whose place is now final (and paid) what it was."""
        self.paid.update(entries)
        amounts = {p.entry: p.amount for p in due}
        tickets = [p for p in due if p.ticket is not None and p.entry in entries]
        if tickets:  # after this write: the ticket is in the ledger before it is used
            task = asyncio.get_running_loop().create_task(self.use_tickets(tickets))
            self.ticket_uses.add(task)
            task.add_done_callback(self.ticket_uses.discard)
        for entry in entries:
            place = self.places.get(entry)
            if place is None:
                continue
            won = amounts.get(entry, 0)
            params: Params = {"place": place.place, "entrants": len(self.t.entries)}
            if place.tie:
                params.update(first=place.tie[0], last=place.tie[1])
            if won:
                params["amount"] = won
            code = "tournament.place" + ("_tied" if place.tie else "") + ("_prize" if won else "")
            self._tell(
                self.account_of(entry),
                "finished",
                code,
                params,
                place=place.place,
                prize=won,
            )
        if self.t.finished:
            self.hall.changed()

    def close(self) -> None:
        for actor in self.actors.values():
            actor.retire()
        self.actors.clear()

    # ------------------------------------------------------------ players' screens

    def _clients(self, account: int) -> list[Any]:
        return [c for c in self.room.clients if c.account_id == account and not c.closed]

    def _tell(
        self, account: int, kind: str, code: str, params: Params | None = None, **more: Any
    ) -> None:
        """A notice to the player: its ``code`` and ``params`` (pokerroom/errors.py), for the
        player's language, and its English text."""
        params = params or {}
        notice = protocol.TournamentNotice(
            tournament=self.id,
            kind=kind,
            text=message(code, **params),
            code=code,
            params=wire_params(params),
            table=self.my_table(account),
            **more,
        )
        line = protocol.frame(notice)
        for client in self._clients(account):
            client.deliver(line)
        self.room.tell_nodes(notices.Deliver(account=account, line=line))  # their other nodes

    def tell(self, entry: str, kind: str, code: str, params: Params | None = None) -> None:
        self._tell(self.account_of(entry), kind, code, params)

    def tell_all(self, kind: str, code: str, params: Params | None = None) -> None:
        for entry in self.t.remaining():
            self._tell(self.account_of(entry), kind, code, params)

    def follow(self, account: int, kind: str, code: str, params: Params | None = None) -> None:
        """Tell the player and open their (new) table on their screens."""
        self._tell(account, kind, code, params)
        table = self.my_table(account)
        actor = None if table is None else self.room.actors.get(table)
        if actor is None:
            return
        # The player's other nodes: there they watch it too.
        self.room.tell_nodes(notices.Follow(account=account, table=actor.table_id))
        for client in self._clients(account):
            if actor.offer(Watching(client)) is None:
                client.tables.add(actor.table_id)

    # ------------------------------------------------------------ views

    def level_info(self, now: float) -> dict[str, Any]:
        """Level, blinds, the next level, players left and the payouts."""
        t = self.t
        level = t.structure.level(t.clock.level_index(now))
        upcoming = t.clock.next_change(now)
        return {
            "id": self.id,
            "name": t.name,
            "level": t.clock.level_number(now),
            "small_blind": level.small_blind,
            "big_blind": level.big_blind,
            "ante": level.ante,
            "big_blind_ante": level.big_blind_ante,
            "next_level_seconds": None if upcoming is None else max(0.0, upcoming - now),
            "on_break": t.clock.on_break(now),
            "hand_for_hand": t.hand_for_hand,
            "players_left": t.left,
            "entrants": len(t.entries),
            "prize_pool": t.prize_pool,
            "payouts": self.payouts(),
            "final_table": len(t.tables) == 1 and t.left > 1 and not t.finished,
        }

    def payouts(self) -> list[int]:
        """Each paid place's prize as the field stands (none while it pays no place yet)."""
        try:
            return self.t.prizes()
        except RulesError:
            return []

    def table_info(self, table: Table, now: float) -> dict[str, Any]:
        """What a tournament table's frame adds: the level and each seat's place by chips
        among the players left."""
        stacks = sorted((self._stack(e) for e in self.t.remaining()), reverse=True)
        ranks = [
            [seat.number, stacks.index(seat.stack) + 1]
            for seat in table.seats.values()
            if seat.stack in stacks
        ]
        return {**self.level_info(now), "ranks": ranks, "bounties": seat_bounties(self.t, table)}

    def _stack(self, entry: str) -> int:
        number = self.t.entries[entry].table
        if number is None:
            return 0
        return self.t.tables[number].seat_of(entry).stack

    def view(self, now: float) -> dict[str, Any]:
        """The lobby's entry for this event."""
        t, s = self.t, self.t.structure
        remaining = t.remaining()
        chips = [self._stack(e) for e in remaining]
        players = []
        for entry_id, e in t.entries.items():
            place = self.places.get(entry_id)
            players.append(
                {
                    "entry": entry_id,
                    "name": self.names.get(e.player, e.player),
                    "stack": None if e.out else self._stack(entry_id),
                    "table": None if e.table is None else self.table_id(e.table),
                    "place": None if place is None else place.place,
                    "prize": None if place is None else place.prize,
                    "bounty": e.bounty,
                    "bounties_won": e.bounties_won,
                }
            )
        over = self.status in ("finished", "cancelled")  # no level running, no table to watch
        info = self.level_info(now) if t.started and not over else None
        return {
            "id": self.id,
            "name": t.name,
            "status": self.status,
            "kind": s.kind,
            "structure": structure_view(s),
            "starts_at": self.starts_at,
            "entrants": len(t.entries),
            "min_entrants": s.min_entrants,
            "max_entrants": s.max_entrants,
            "registration_open": not self.cancelled and t.registration_open(now),
            "prize_pool": t.prize_pool,
            "guarantee": t.guarantee,
            "overlay": t.overlay,
            "target": self.config.get("target"),
            "payouts": self.payouts(),
            "bounties": bounty_view(t),
            "level": None if info is None else info["level"],
            "blinds": None
            if info is None
            else [info["small_blind"], info["big_blind"], info["ante"] or info["big_blind_ante"]],
            "next_level_seconds": None if info is None else info["next_level_seconds"],
            "on_break": bool(info and info["on_break"]),
            "hand_for_hand": t.hand_for_hand,
            "players_left": t.left,
            "average_stack": sum(chips) // len(chips) if chips else 0,
            "tables": []
            if over
            else [
                {"id": self.table_id(n), "players": len(table.seats)}
                for n, table in sorted(t.tables.items())
            ],
            "players": players,
        }


def structure_view(s: TournamentStructure) -> dict[str, Any]:
    return {
        "name": s.name,
        "description": s.description,
        "kind": s.kind,
        "game": f"{s.variant.value}/{s.structure.value}",
        "game_name": f"{s.structure.label} {s.variant.label}",  # as the cash lobby names it
        "table_size": s.table_size,
        "starting_stack": s.starting_stack,
        "buy_in": s.buy_in,
        "fee": s.fee,
        "levels": [
            [lv.small_blind, lv.big_blind, lv.ante or lv.big_blind_ante, lv.minutes]
            for lv in s.levels
        ],
        "breaks": [list(b) for b in s.breaks],
        "late_registration_levels": s.late_registration_levels,
        "re_entries": s.re_entries,
        "rebuy": None if s.rebuy is None else [s.rebuy.price, s.rebuy.chips, s.rebuy.max],
        "addon": None if s.addon is None else [s.addon.price, s.addon.chips],
        "bounty": None if s.bounty is None else [s.bounty.amount, s.bounty.progressive],
    }
