"""Every tournament money path in every order it can come (S-MONEY-1, S-MONEY-2, S-AUDIT-2),
enumerated: registering, a retried registration, unregistering and registering again, then
the start or a cancellation; after the start, rebuys, the add-on, hands that pay the places
they settle, a deal at the final table, a bust and a re-entry, each permutation of them
followed by the rest of the event. A step its order makes impossible (a rebuy after the rebuy
levels, a re-entry with nobody out) is refused and moves nothing. After every step each
player's balance is what they paid and were paid; each order ends with the audit reconciling
every pool, fee and balance to the chip, and a finished or cancelled event's pool empty.

The store and the coordinator are driven as the room's runner drives them
(``server/tournaments/runner.py``): the store's transaction applies the coordinator's change, and
the places the coordinator has settled are paid after each hand."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest

from pokerroom.engine import Action, ActionKind, Hand
from pokerroom.rng import SeededRandomSource
from pokerroom.store.accounts.accounts import STARTING_GRANT, NewPassword, new_password
from pokerroom.store.audit import audit
from pokerroom.store.db import Database, sqlite_url
from pokerroom.store.money.ledger import LedgerError, balance
from pokerroom.store.tables.store import RoomStore
from pokerroom.store.tournaments.statements import Prize, pool_account
from pokerroom.tournament.coordinator import Tournament
from pokerroom.tournament.deals import make_deal
from pokerroom.tournament.events import TournamentError
from pokerroom.tournament.simulate import random_action
from tests.helpers.store_tournaments import NOW, Event
from tests.store.conftest import postgres_database

REFUSED = (TournamentError, LedgerError)  # the store's refusals are LedgerErrors
events = itertools.count(1)


@cache
def password() -> NewPassword:
    return new_password("correct horse")  # hashed once: argon2 is slow on purpose


@dataclass
class Run:
    """One event, its three players (a, b, c, the same in every run of a test) and what each
    is owed by the model."""

    db: Database
    event: Event
    players: dict[str, int]
    taken: set[str]  # the paths this run took (shared by the runs of a test)
    owed: dict[int, int]  # each player's balance by what they paid and were paid
    paid: set[str] = field(default_factory=set)  # entries whose prizes were paid
    keys: dict[str, str] = field(default_factory=dict)  # a player's last request key
    requests: itertools.count[int] = field(default_factory=itertools.count)
    cancelled: bool = False
    now: float = 0.0  # the coordinator's clock
    rng: SeededRandomSource = field(default_factory=lambda: SeededRandomSource("orders"))

    @classmethod
    async def open(cls, db: Database, structure: str, taken: set[str], owed: dict[int, int]) -> Run:
        """A new event for the players in ``owed`` (the first time, new players)."""
        number = next(events)
        event = Event(db, structure, f"orders-{number}")
        await event.create()
        if not owed:
            store = RoomStore(db)
            for name in "abc":
                who = f"o{number}{name}"
                account, _ = await store.sign_up(who, password(), display_name=who, now=NOW)
                owed[account.id] = STARTING_GRANT
        return cls(db, event, dict(zip("abc", owed, strict=True)), taken, owed)

    @property
    def t(self) -> Tournament:
        return self.event.t

    def entry_of(self, name: str) -> str | None:
        return self.t._current.get(str(self.players[name]))

    async def attempt(self, work: Awaitable[object]) -> bool:
        """Whether the request was done; one refused must move nothing (``check``)."""
        try:
            await work
        except REFUSED:
            return False
        return True

    # ------------------------------------------------------------ requests

    async def register(self, name: str, *, retry: bool = False) -> None:
        account = self.players[name]
        player, before = str(account), self.entry_of(name)
        if not retry or name not in self.keys:
            self.keys[name] = f"{name}-{next(self.requests)}"

        def apply() -> tuple[str, str, str]:
            self.t.register(player, self.now)  # a late entry or a re-entry once started
            status = "running" if self.t.started else "registering"
            return self.t._current[player], self.event.snapshot(), status

        done = await self.attempt(
            self.event.store.register(
                self.event.tid,
                account,
                request=self.keys[name],
                number=self.t.entries_used(player) + 1,
                apply=apply,
                now=NOW,
            )
        )
        if done and self.entry_of(name) == before:
            self.taken.add("retry")  # answered again, nothing moved
        elif done:
            self.taken.add("re-entry" if before is not None else "register")
            self.owed[account] -= self.event.prices.buy_in + self.event.prices.fee
        await self.check()

    async def unregister(self, name: str) -> None:
        account = self.players[name]
        if await self.attempt(self.event.unregister(account)):
            self.taken.add("unregister")
            self.owed[account] += self.event.prices.buy_in + self.event.prices.fee
        await self.check()

    async def cancel(self) -> None:
        """Its time came with too few entrants: every registration refunded."""

        def apply() -> str:
            for player in list(self.t._current):
                self.t.unregister(player)
            return self.event.snapshot()

        if self.t.started:
            return
        self.cancelled = True
        for account in await self.event.store.cancel(self.event.tid, apply=apply, now=NOW):
            self.taken.add("cancel")
            self.owed[account] += self.event.prices.buy_in + self.event.prices.fee
        await self.check()

    async def start(self) -> None:
        if len(self.t.entries) < self.t.structure.min_entrants:
            return
        self.t.start(self.now)
        await self.save()

    async def buy_chips(self, name: str, *, addon: bool) -> None:
        account, entry = self.players[name], self.entry_of(name)
        if entry is None:
            return
        if addon and self.now < 3601.0:  # the add-on's break, after level 4 (mtt_rebuy)
            self.now = 3601.0
        number = self.t.entries[entry].rebuys + 1

        def bought() -> str:
            (self.t.addon if addon else self.t.rebuy)(entry, self.now)
            return self.event.snapshot()

        done = await self.attempt(
            self.event.store.buy_chips(
                self.event.tid,
                account,
                entry=entry,
                addon=addon,
                number=number,
                apply=bought,
                now=NOW,
            )
        )
        if done:
            self.taken.add("add-on" if addon else "rebuy")
            price = self.event.prices.addon if addon else self.event.prices.rebuy
            self.owed[account] -= price
        await self.check()

    async def deal(self) -> None:
        """Past the levels that grow the pool and late registration, every player left
        agrees to an ICM split, 1 kept back for the title."""
        past = 6 * 900.0 + 2 * 300.0 + 1  # six levels and their breaks (mtt_reentry's late)
        if self.t.started and not self.t.finished and self.now < past:
            self.now = past
            await self.play(1)  # a hand announces the level and closes registration
        try:
            make_deal(self.t, "icm", self.t.remaining(), keep=1)
        except TournamentError:
            return
        self.taken.add("deal")
        await self.save()

    async def play(self, hands: int, *, shove: str | None = None) -> None:
        """Hands with random actions (or ``shove`` all in every hand, called by one player,
        until out), each place paid once it is final."""
        for _ in range(hands):
            if self.t.finished or (shove is not None and self.entry_of(shove) in self.out()):
                break
            if not await self.play_hand(shove):
                self.now += 60.0
        await self.check()

    async def bust(self, name: str) -> None:
        await self.play(300, shove=name)

    async def finish(self) -> None:
        """The rest of the event, stored and paid at its end (as a restart catches up)."""
        for _ in range(20_000):
            if self.t.finished:
                break
            if not await self.play_hand(None, save=False):
                self.now += 60.0
        assert self.t.finished
        await self.save()
        await self.check()

    # ------------------------------------------------------------ the room's side

    def out(self) -> set[str]:
        return {e.id for e in self.t.entries.values() if e.out}

    async def save(self) -> None:
        status = "finished" if self.t.finished else "running" if self.t.started else "registering"
        await self.event.store.save(self.event.tid, self.event.snapshot(), status=status, now=NOW)
        if not self.t.started:
            return
        prizes = [
            Prize(p.entry, int(self.t.entries[p.entry].player), p.prize)
            for p in self.t.settled_places(self.now)
            if p.entry not in self.paid
        ]
        for prize in prizes:
            self.taken.add("prize")
            self.owed[prize.account] += prize.amount
            self.paid.add(prize.entry)
        await self.event.store.pay(self.event.tid, prizes, now=NOW)

    async def play_hand(self, shove: str | None, *, save: bool = True) -> bool:
        """One hand at the first table that can deal; False if none can now. A bust's rebuy
        offer that has lapsed puts the player out first, as the table's clock does."""
        lapsed = [e for n in list(self.t.tables) for e in self.t.expire_offers(n, self.now)]
        if lapsed and save:
            await self.save()
        startable = self.t.startable(self.now)
        number = next((n for n in startable if self.t.can_start(n, self.now)), None)
        if number is None:
            return False
        self.t.start_hand(number, self.now)
        table = self.t.tables[number]
        dealt = set() if table.hand is None else {table.seats[n].player for n in table.hand.seats}
        shover = None if shove is None else self.entry_of(shove)
        shover = shover if shover in dealt else None
        caller: list[str] = []  # the one player who calls the shove
        while table.hand is not None:
            seat = table.actor_seat()
            assert seat is not None
            entry = table.seats[seat].player
            self.t.act(entry, self.action(table.hand, entry, shover, caller), self.now)
            self.now += 5.0
        if save:
            await self.save()
        return True

    def action(self, hand: Hand, entry: str, shover: str | None, caller: list[str]) -> Action:
        """A random action; or, when someone shoves, all in for them every time they act,
        a call from the first other player to act, and a fold (or check) from the rest."""
        legal = hand.legal_actions()
        assert legal is not None
        if shover is None:
            return random_action(hand, self.rng)
        if entry == shover and legal.max_raise_to is not None:
            return Action(ActionKind.BET_OR_RAISE, legal.max_raise_to)
        if entry == shover or caller in ([], [entry]):
            caller[:] = caller or ([] if entry == shover else [entry])
            return Action(ActionKind.CHECK_OR_CALL)
        return Action(ActionKind.CHECK_OR_CALL if legal.can_check else ActionKind.FOLD)

    async def check(self) -> None:
        """Each balance is what the player paid and was paid; an event over holds nothing."""
        async with self.db.transaction() as session:
            for account, owed in self.owed.items():
                assert await balance(session, "player", str(account)) == owed, account
            pool = await balance(session, *pool_account(self.event.tid))
        if self.t.finished or self.cancelled:
            assert pool == 0, f"{self.event.tid} is over but its pool holds {pool}"

    async def audited(self) -> None:
        await self.check()
        async with self.db.transaction() as session:
            report = await audit(session)
        assert report.ok, report.problems


Step = Callable[[Run], Awaitable[None]]


@pytest.fixture(
    params=["sqlite", pytest.param("postgres", marks=[pytest.mark.postgres, pytest.mark.slow])]
)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    """SQLite in ``make test``; PostgreSQL too in ``make test-all`` (the same money logic:
    the orders are the point here, and every store test runs on both already)."""
    if request.param == "postgres":
        async with postgres_database() as db:
            yield db
        return
    db = Database(sqlite_url(tmp_path / "orders.db"))
    await db.migrate()
    yield db
    await db.close()


# Before the start, a's requests; b and c registered already.
BEFORE: dict[str, Step] = {
    "register": lambda run: run.register("a"),
    "retry": lambda run: run.register("a", retry=True),
    "unregister": lambda run: run.unregister("a"),
}


async def test_S_MONEY_2_registrations_in_every_order_then_a_start_or_a_cancel(
    database: Database,
) -> None:
    """Every sequence of three of a's requests (any may repeat), then the start or the
    cancel (what comes after the start: the next test)."""
    taken: set[str] = set()
    owed: dict[int, int] = {}
    for steps in itertools.product(BEFORE, repeat=3):
        for end in ("start", "cancel"):
            run = await Run.open(database, "sng6", taken, owed)
            for name in "bc":
                await run.register(name)
            for step in steps:
                await BEFORE[step](run)
            if end == "start":
                await run.start()
            else:
                await run.cancel()
            await run.audited()
    assert taken == {"register", "retry", "unregister", "cancel"}, taken


# After the start, one step each, in every order; then the rest of the event.
AFTER: dict[str, dict[str, Step]] = {
    "mtt_rebuy": {
        "rebuy": lambda run: run.buy_chips("a", addon=False),
        "add-on": lambda run: run.buy_chips("b", addon=True),
        "hands": lambda run: run.play(5),
        "deal": Run.deal,
    },
    "mtt_reentry": {
        "bust": lambda run: run.bust("a"),
        "re-entry": lambda run: run.register("a"),
        "hands": lambda run: run.play(5),
        "deal": Run.deal,
    },
}


@pytest.mark.parametrize("structure", sorted(AFTER))
async def test_S_MONEY_2_buys_prizes_and_deals_in_every_order(
    database: Database, structure: str
) -> None:
    steps = AFTER[structure]
    taken: set[str] = set()
    owed: dict[int, int] = {}
    for order in itertools.permutations(steps):
        run = await Run.open(database, structure, taken, owed)
        for name in "abc":
            await run.register(name)
        await run.start()
        for step in order:
            await steps[step](run)
        await run.finish()
        await run.audited()
    paths = {"mtt_rebuy": {"rebuy", "add-on"}, "mtt_reentry": {"re-entry"}}[structure]
    assert taken >= paths | {"deal", "prize"}, taken
