"""My results in tournaments: the events a player finished, each with their finish and its
money, and the totals over them (played, in the money, ROI, best finishes). Each is
defined here once; the store reads an event's money from the ledger (what the player paid
and was paid under the event's keys) and its finish from the event's places.

An event's money is money, not tournament chips: its buy-ins and fees (re-entries, rebuys
and the add-on included, refunds taken off), its prize (cash, or a satellite's seat as a
ticket worth the target's buy-in and fee) and the bounties won. Tournament chips never
enter here, and nothing here enters the cash results.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Final

BEST_FINISHES: Final = 5  # the best finishes listed


@dataclass(frozen=True, slots=True)
class EventResult:
    """One finished event of one player: its best place among the player's entries, the
    field (``entries``, re-entries counted), and its money in the room's smallest unit."""

    tournament_id: str
    name: str
    finished_at: datetime
    entries: int
    place: int | None  # None: no place of the player's (no entry of theirs was placed)
    cost: int  # buy-ins and fees paid, rebuys and add-ons included, refunds taken off
    prize: int  # cash prizes
    ticket: int  # the value of a satellite's seat won (a ticket to its target)
    bounties: int  # bounties won (a knockout event)
    hand: int | None = None  # the player's last hand in the event (for the replayer)
    table: str | None = None  # and its table

    @property
    def in_the_money(self) -> bool:
        """In the money: the player's place paid a prize, in cash or a ticket (bounties
        alone are not a place in the money)."""
        return self.prize + self.ticket > 0

    @property
    def won(self) -> int:
        """Everything the event paid the player: prize, ticket and bounties."""
        return self.prize + self.ticket + self.bounties

    @property
    def profit(self) -> int:
        """What the event paid the player less what it cost them."""
        return self.won - self.cost

    def as_json(self) -> dict[str, object]:
        return {
            "id": self.tournament_id,
            "name": self.name,
            "finished_at": self.finished_at.isoformat(),
            "entries": self.entries,
            "place": self.place,
            "cost": self.cost,
            "prize": self.prize,
            "ticket": self.ticket,
            "bounties": self.bounties,
            "won": self.won,
            "profit": self.profit,
            "in_the_money": self.in_the_money,
            "hand": self.hand,
            "table": self.table,
        }


def _rate(part: int, whole: int) -> float | None:
    return None if whole == 0 else 100.0 * part / whole


@dataclass(frozen=True, slots=True)
class EventTotals:
    """The totals over a player's finished events (newest first in ``events``)."""

    events: tuple[EventResult, ...]

    @property
    def played(self) -> int:
        """Tournaments played: finished events the player had an entry in."""
        return len(self.events)

    @property
    def itm(self) -> int:
        """Events finished in the money (``EventResult.in_the_money``)."""
        return sum(1 for e in self.events if e.in_the_money)

    @property
    def itm_rate(self) -> float | None:
        """In the money, in percent of the events played."""
        return _rate(self.itm, self.played)

    @property
    def cost(self) -> int:
        """Buy-ins and fees paid over every event."""
        return sum(e.cost for e in self.events)

    @property
    def won(self) -> int:
        """Prizes, tickets and bounties won over every event."""
        return sum(e.won for e in self.events)

    @property
    def bounties(self) -> int:
        return sum(e.bounties for e in self.events)

    @property
    def profit(self) -> int:
        """Prizes and bounties less buy-ins and fees."""
        return self.won - self.cost

    @property
    def roi(self) -> float | None:
        """Return on investment: profit over buy-ins and fees, in percent (None when
        nothing was paid in: freerolls only)."""
        return _rate(self.profit, self.cost)

    @property
    def best(self) -> list[EventResult]:
        """The best finishes: the lowest places first, then the most won, then the
        newest."""
        placed = [e for e in self.events if e.place is not None]
        placed.sort(key=lambda e: (e.place, -e.won, -e.finished_at.timestamp()))
        return placed[:BEST_FINISHES]

    def as_json(self) -> dict[str, object]:
        return {
            "played": self.played,
            "itm": self.itm,
            "itm_rate": self.itm_rate,
            "cost": self.cost,
            "won": self.won,
            "bounties": self.bounties,
            "profit": self.profit,
            "roi": self.roi,
            "best": [e.tournament_id for e in self.best],
            "events": [e.as_json() for e in self.events],
        }


def event_totals(
    events: Iterable[EventResult], since: date | None = None, until: date | None = None
) -> EventTotals:
    """The totals of the events that finished from ``since`` to ``until`` (days, both
    included, in the events' own time zone), newest first."""
    chosen = [
        e
        for e in events
        if (since is None or e.finished_at.date() >= since)
        and (until is None or e.finished_at.date() <= until)
    ]
    chosen.sort(key=lambda e: (e.finished_at, e.tournament_id), reverse=True)
    return EventTotals(tuple(chosen))


# The ledger's transfer kinds of an event, by what they are to the player.
COSTS: Final = frozenset({"t_register", "t_unregister", "t_cancel", "t_rebuy", "t_addon"})
PRIZES: Final = frozenset({"t_prize"})
TICKETS: Final = frozenset({"t_ticket"})
BOUNTIES: Final = frozenset({"t_bounty"})


@dataclass(frozen=True, slots=True)
class Money:
    """An event's money to one player, from the postings on their accounts (balance and
    tickets) of the event's transfers: (transfer kind, signed amount to the player)."""

    cost: int = 0
    prize: int = 0
    ticket: int = 0
    bounties: int = 0


def money_of(postings: Sequence[tuple[str, int]]) -> Money:
    """Adds up an event's postings to one player: what left them for entries, rebuys and
    add-ons (less refunds) is the cost; what came as a prize, a ticket or a bounty is won.
    A kind that is none of these is refused (the books would not add up)."""
    cost = prize = ticket = bounties = 0
    for kind, amount in postings:
        if kind in COSTS:
            cost -= amount
        elif kind in PRIZES:
            prize += amount
        elif kind in TICKETS:
            ticket += amount
        elif kind in BOUNTIES:
            bounties += amount
        else:
            raise ValueError(f"a tournament transfer {kind!r} is no cost or win of a player")
    return Money(cost=cost, prize=prize, ticket=ticket, bounties=bounties)
