"""A tournament's coordinator and its store driven together, as the room's runner drives them."""

from __future__ import annotations

from datetime import UTC, datetime

from pokerroom.rng import SeededRandomSource
from pokerroom.rules.house import STANDARD
from pokerroom.rules.tournament import load_tournament_structure
from pokerroom.store.accounts.accounts import sign_up
from pokerroom.store.db import Database
from pokerroom.store.tournaments.bounties import BountyPayment
from pokerroom.store.tournaments.statements import Prices
from pokerroom.store.tournaments.store import TournamentStore
from pokerroom.tournament.coordinator import Tournament
from pokerroom.tournament.simulate import random_action
from pokerroom.tournament.snapshot import tournament_to_json

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


async def new_player(db: Database, name: str) -> int:
    """A signed-up player (password "correct horse"): their account id."""
    async with db.transaction() as session:
        account = await sign_up(session, name, "correct horse", now=NOW)
        return account.id


class Event:
    """A coordinator and its store, as the room's runner uses them."""

    def __init__(self, db: Database, name: str = "sng6", tid: str = "sng-1") -> None:
        self.structure = load_tournament_structure(name)
        self.t = Tournament(
            structure=self.structure, house=STANDARD, rng=SeededRandomSource(tid), name=tid
        )
        self.tid = tid
        self.store = TournamentStore(db)
        s = self.structure
        self.prices = Prices(
            buy_in=s.buy_in,
            fee=s.fee,
            rebuy=s.rebuy.price if s.rebuy else 0,
            addon=s.addon.price if s.addon else 0,
            bounty=s.bounty_amount,
        )

    async def create(self) -> None:
        config = {"structure": self.structure.name, "prices": self.prices.as_json()}
        await self.store.create(
            self.tid, name=self.tid, config=config, snapshot=self.snapshot(), now=NOW
        )

    def snapshot(self) -> str:
        return tournament_to_json(self.t)

    async def register(self, account: int, request: str) -> str:
        player = str(account)

        def apply() -> tuple[str, str, str]:
            self.t.register(player, 0.0)
            return self.t._current[player], self.snapshot(), "registering"

        number = self.t.entries_used(player) + 1
        done = await self.store.register(
            self.tid, account, request=request, number=number, apply=apply, now=NOW
        )
        return done.entry

    async def unregister(self, account: int) -> None:
        def apply() -> str:
            self.t.unregister(str(account))
            return self.snapshot()

        await self.store.unregister(self.tid, account, apply=apply, now=NOW)


def bounty_payments(t: Tournament) -> list[BountyPayment]:
    """Every bounty the event has won, as the runner pays them (entries are account ids)."""
    return [
        BountyPayment(won.busted, knocker, int(knocker), cash)
        for won in t.bounties
        for knocker, cash, _, _ in won.shares
    ]


def play_out(t: Tournament, *, until_bounties: int | None = None) -> None:
    """Every hand to the end with random actions (a hand's clock never runs out here); or,
    with ``until_bounties``, until that many bounties were won, between hands."""
    rng = SeededRandomSource("play")
    now = 0.0
    if not t.closed:
        t.close_registration()
    while not t.finished:
        idle = all(table.hand is None for table in t.tables.values())
        if until_bounties is not None and idle and len(t.bounties) >= until_bounties:
            return
        for number in t.startable(now):
            if t.can_start(number, now):
                t.start_hand(number, now)
        busy = [n for n, table in t.tables.items() if table.hand is not None]
        if not busy:
            now += 60.0
            continue
        table = t.tables[busy[0]]
        seat = table.actor_seat()
        assert table.hand is not None and seat is not None
        t.act(table.seats[seat].player, random_action(table.hand, rng), now)
        now += 5.0
