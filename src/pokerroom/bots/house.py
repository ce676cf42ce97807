"""The room's own bots at its demo tables: every demo table keeps dealing, and
seats are left for people.

Each table has a plan (how many bots it keeps when people leave it alone). Every second the
house looks at each table and wants ``bots_wanted`` bots there: at least enough for the table
to deal with the people seated and waiting, at most its plan, and never a seat that a person
at the table or on its waiting list could have. When it has too few, a bot sits down; too
many (someone is waiting for a seat), a bot leaves after its hand and the seat goes to the
waiting list. So heads-up deals with two bots, and when a person waits one bot stands up and
the other stays to play them; when the person leaves, a second bot sits down again.

A bot that busts leaves and sits again (``run_bot``); one that ends (refused a seat too often,
a lost connection, any error) is started again after a back-off that doubles from
``BACKOFF_FIRST`` to ``BACKOFF_MAX`` seconds while it keeps failing. Before a bot sits down the
house tops its balance up from the bank when it cannot pay a buy-in (``RoomStore.top_up_bot``:
a ``top_up`` transfer in the ledger, so the audit still balances).

Bots are players (DESIGN 9): they play through the protocol like any client; the house only
reads the tables to count seats."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from pokerroom.bots.client import BUY_IN_BIG_BLINDS, run_bot
from pokerroom.bots.strategy import Strategy, house_strategy
from pokerroom.server.clock import utcnow
from pokerroom.server.tables.room import Room
from pokerroom.store.account_ids import player_key
from pokerroom.store.accounts.accounts import STARTING_GRANT, AuthError
from pokerroom.table import Table

BACKOFF_FIRST = 1.0  # seconds before a bot that ended is started again ...
BACKOFF_MAX = 60.0  # ... doubling while it keeps ending, up to this
TEND_SECONDS = 1.0  # how often the house looks at its tables
NEVER = float("inf")  # the start time of a bot whose name a person has taken

log = logging.getLogger("pokerroom.bots")


def bots_wanted(*, plan: int, seats: int, needed: int, people: int, waiting: int) -> int:
    """Bots a table should have: enough to deal (``needed`` with the ``people`` seated and
    the ``waiting`` who will be), at most ``plan`` otherwise, and none in a seat that a person
    seated or waiting could have."""
    room_for = seats - people - waiting
    at_least = needed - people - waiting
    return max(0, min(max(plan, at_least), room_for))


def backoff(failures: int) -> float:
    """Seconds to wait before starting a bot again after ``failures`` ends in a row."""
    if failures <= 0:
        return 0.0
    return float(min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** (failures - 1)))


def buy_in(table: Table) -> int:
    """What one of the house's bots buys in for (as ``run_bot`` does)."""
    return min(table.max_buy_in, max(table.min_buy_in, BUY_IN_BIG_BLINDS * table.big_blind))


@dataclass
class HouseBot:
    name: str
    table: str
    index: int
    account: int | None = None
    task: asyncio.Task[None] | None = None
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    failures: int = 0
    start_after: float = 0.0  # monotonic seconds (the loop's clock)

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()


class HouseBots:
    """Keeps the room's demo tables dealing (see the module's text)."""

    def __init__(
        self,
        room: Room,
        base_url: str,
        plan: Mapping[str, int],
        tokens: Callable[[str], Awaitable[str]],
        *,
        prefix: str = "bot",
        strategy: Callable[[int], Strategy] | None = None,
        tend_seconds: float = TEND_SECONDS,
        think: float = 0.0,
    ) -> None:
        self.room = room
        self.base_url = base_url
        self.plan = dict(plan)
        self.tokens = tokens
        self.prefix = prefix
        self.strategy = strategy or house_strategy
        self.tend_seconds = tend_seconds
        self.think = think  # mean seconds a bot takes to act (``client.thinking``)
        self.bots: dict[str, list[HouseBot]] = {table: [] for table in self.plan}
        self.accounts: set[str] = set()  # the house's bots' players (account ids as strings)
        self.top_ups = 0

    async def run(self) -> None:
        """Tend the tables forever (until cancelled: then every bot is stopped)."""
        try:
            await self._known()
            while True:
                for table_id in self.plan:
                    try:
                        await self.tend(table_id)
                    except Exception:  # one table's trouble never stops the others
                        log.exception("the house's bots at %s", table_id)
                await asyncio.sleep(self.tend_seconds)
        finally:
            for bots in self.bots.values():
                for bot in bots:
                    if bot.task is not None:
                        bot.task.cancel()
            for bots in self.bots.values():
                for bot in bots:
                    if bot.task is not None:
                        with contextlib.suppress(BaseException):
                            await bot.task

    async def _known(self) -> None:
        """The house's bots from before (a restart): their seats are theirs, not people's."""
        for table_id in self.plan:
            actor = self.room.actors.get(table_id)
            if actor is None:
                continue
            for index in range(actor.table.max_seats):
                name = self._name(table_id, index)
                found = await self.room.store.find_account(name)
                if found is not None and found.role == "bot":
                    self.bots[table_id].append(HouseBot(name, table_id, index, found.id))
                    self.accounts.add(player_key(found.id))

    def wanted(self, table_id: str) -> int:
        actor = self.room.actors[table_id]
        table = actor.table
        if actor.closed:
            return 0
        people = sum(1 for s in table.seats.values() if s.player not in self.accounts)
        return bots_wanted(
            plan=self.plan[table_id],
            seats=table.max_seats,
            needed=table.house.min_players,
            people=people,
            waiting=len(table.waiting),
        )

    async def tend(self, table_id: str) -> None:
        """Start or stop bots at one table to have ``wanted`` of them playing."""
        if table_id not in self.room.actors:
            return
        table = self.room.actors[table_id].table
        bots = self.bots[table_id]
        now = asyncio.get_running_loop().time()
        for bot in bots:  # a bot that ended: started again after its back-off
            if bot.task is not None and bot.task.done():
                stopped = bot.stop.is_set()
                error = None if bot.task.cancelled() else bot.task.exception()
                bot.task = None
                if not stopped:
                    bot.failures += 1
                    bot.start_after = now + backoff(bot.failures)
                    log.info(
                        "bot %s ended (%r): again in %.0f s", bot.name, error, backoff(bot.failures)
                    )
            elif bot.account is not None and self._seated(table, bot):
                bot.failures = 0  # seated: the back-off starts over
        idle = [b for b in bots if not b.running and b.start_after <= now]
        left = [b for b in idle if b.account is not None and self._seated(table, b)]
        if left:  # seats of the house's from before (a restart): play them, or leave them
            for bot in left:
                await self._start(bot, table)
            return
        playing = [b for b in bots if b.running and not b.stop.is_set()]
        want = self.wanted(table_id)
        if len(playing) > want:
            # Someone waits for a seat: the last bot to sit leaves after its hand.
            playing[-1].stop.set()
        for _ in range(want - len(playing)):  # as many as are missing, at once
            if idle:
                await self._start(idle.pop(0), table)
            elif not any(not b.running and b.start_after < NEVER for b in bots):
                # (else a bot is in its back-off: it comes back first)
                bot = HouseBot(self._name(table_id, len(bots)), table_id, len(bots))
                bots.append(bot)
                await self._start(bot, table)

    @staticmethod
    def _seated(table: Table, bot: HouseBot) -> bool:
        account = bot.account
        return account is not None and table.seat_number(player_key(account)) is not None

    async def _start(self, bot: HouseBot, table: Table) -> None:
        table_id = bot.table
        try:
            token = await self.tokens(bot.name)
        except AuthError:  # a person has the name: this bot never plays
            bot.failures, bot.start_after = bot.failures + 1, NEVER
            return
        if bot.account is None:
            found = await self.room.store.find_account(bot.name)
            if found is None:
                return
            bot.account = found.id
            self.accounts.add(player_key(found.id))
        if await self.room.store.top_up_bot(
            bot.account, at_least=buy_in(table), to=STARTING_GRANT, now=utcnow()
        ):
            self.top_ups += 1
        bot.stop = asyncio.Event()
        bot.task = asyncio.create_task(
            run_bot(
                self.base_url,
                bot.name,
                self.strategy(bot.index),
                table=table_id,
                token=token,
                rng=random.Random(),
                stop=bot.stop,
                think=self.think,
            ),
            name=f"bot {bot.name}",
        )

    def _name(self, table_id: str, index: int) -> str:
        return f"{self.prefix}_{table_id.replace('-', '_')}_{index}"[:32]
