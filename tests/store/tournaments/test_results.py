"""My results in tournaments from the store, on SQLite and PostgreSQL: a hand-built set of
finished events (a sit & go, a knockout with its bounties, a satellite whose seats are
tickets and the event they were used in) read back with each player's finish from the
event's places and their money from the ledger, as a recount of what was paid gives it;
an event not finished is not counted, and the audit reconciles."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from pokerroom.history.tournament_results import EventResult, event_totals
from pokerroom.store.audit import audit
from pokerroom.store.db import Database
from pokerroom.store.tournaments.bounties import BountyPayment
from pokerroom.store.tournaments.results import event_results_sync
from pokerroom.store.tournaments.statements import Prize
from pokerroom.store.tournaments.tickets import ticket_held_sync
from tests.helpers.store_tournaments import NOW, Event, bounty_payments, new_player, play_out

SEAT = 2200  # a seat in mtt_turbo6: its buy-in and fee


class Expected:
    """Each player's events as the test paid them: (place, cost, prize, ticket, bounty)."""

    def __init__(self) -> None:
        self.by: dict[int, dict[str, list[int]]] = defaultdict(dict)

    def entered(self, tid: str, account: int, cost: int) -> None:
        row = self.by[account].setdefault(tid, [0, 0, 0, 0, 0])
        row[1] += cost

    def placed(self, event: Event, prizes: list[Prize]) -> None:
        for p in event.t.places():
            account = int(event.t.entries[p.entry].player)
            self.by[account][event.tid][0] = p.place
        for prize in prizes:
            self.by[prize.account][event.tid][3 if prize.ticket else 2] += prize.amount


async def _played(
    event: Event, players: list[int], expected: Expected, cost: int, *, create: bool = True
) -> None:
    if create:
        await event.create()
    for k, account in enumerate(players):
        await event.register(account, f"r{k}")
        expected.entered(event.tid, account, cost)
    event.t.start(0.0)
    play_out(event.t)


async def _finished(
    event: Event, prizes: list[Prize], bounties: Sequence[BountyPayment] = ()
) -> None:
    """The event's end stored with its prizes and bounties, as the runner settles it."""
    snapshot = event.snapshot()
    await event.store.settle(
        event.tid, snapshot=snapshot, status="finished", prizes=prizes, bounties=bounties, now=NOW
    )


async def test_finished_events_read_back_with_their_places_and_ledger_money(
    database: Database,
) -> None:
    players = [await new_player(database, f"player{k}") for k in range(6)]
    expected = Expected()

    sng = Event(database, "sng6", "sng-1")
    await _played(sng, players, expected, 1100)
    prizes = [Prize(p.entry, int(p.entry), p.prize) for p in sng.t.places() if p.prize]
    await _finished(sng, prizes)
    expected.placed(sng, prizes)

    ko = Event(database, "sng6_knockout", "ko-2")
    await _played(ko, players[:4], expected, ko.prices.buy_in + ko.prices.fee)
    bounties = bounty_payments(ko.t)
    prizes = [Prize(p.entry, int(p.entry), p.prize) for p in ko.t.places() if p.prize]
    await _finished(ko, prizes, bounties)
    expected.placed(ko, prizes)
    for b in bounties:
        expected.by[b.account][ko.tid][4] += b.amount
    assert bounties and sum(b.amount for b in bounties) == 4 * ko.prices.bounty

    target = Event(database, "mtt_turbo6", "mtt-4")
    await target.create()
    sat = Event(database, "satellite_turbo6", "sat-3")
    await _played(sat, players, expected, 1100)
    prizes = [
        Prize(p.entry, int(p.entry), p.prize, target.tid if p.prize == SEAT else None)
        for p in sat.t.places()
        if p.prize
    ]
    await _finished(sat, prizes)
    expected.placed(sat, prizes)
    seated = [prize.account for prize in prizes if prize.ticket]
    assert len(seated) == 2  # 6 x 1,000 in the pool: two seats and 1,600 in cash
    async with database.transaction() as session:  # the target is not over: not counted yet
        assert target.tid not in {
            e.tournament_id for e in await session.run_sync(event_results_sync, seated[0])
        }
    await _played(target, seated, expected, SEAT, create=False)
    async with database.transaction() as session:  # the seats were paid with the tickets
        held = [await session.run_sync(ticket_held_sync, target.tid, a) for a in seated]
    assert held == [0, 0]  # their registrations paid by the tickets
    prizes = [Prize(p.entry, int(p.entry), p.prize) for p in target.t.places() if p.prize]
    await _finished(target, prizes)
    expected.placed(target, prizes)
    unfinished = Event(database, "sng6", "sng-5")
    await unfinished.create()
    await unfinished.register(players[0], "r0")

    for account in players:
        async with database.transaction() as session:
            found = await session.run_sync(event_results_sync, account)
        got = {e.tournament_id: [e.place, e.cost, e.prize, e.ticket, e.bounties] for e in found}
        assert got == expected.by[account], account
        assert all(e.finished_at == NOW and e.entries >= 2 for e in found)
        totals = event_totals(found)
        assert totals.cost == sum(row[1] for row in expected.by[account].values())
    # Over the room, the players paid in what the events paid out and the house's fees.
    everyone = [event_totals(await _results(database, a)) for a in players]
    fees = 100 * (6 + 4 + 6) + 200 * 2  # mtt_turbo6's fee is 200 of its 2,200
    assert sum(t.cost for t in everyone) - sum(t.won for t in everyone) == fees
    paid = {(tid, a) for a, rows in expected.by.items() for tid, r in rows.items() if r[2] + r[3]}
    assert sum(t.itm for t in everyone) == len(paid)
    async with database.transaction() as session:
        report = await audit(session)
    assert report.ok, report.problems


async def _results(database: Database, account: int) -> list[EventResult]:
    async with database.transaction() as session:
        return await session.run_sync(event_results_sync, account)
