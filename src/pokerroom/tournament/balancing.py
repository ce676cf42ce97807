"""Balancing and breaking tables (TDA 10B, 11A), always between hands at both tables.

Tables stay within one player of each other: the player who will be big blind next moves
from a largest table to the worst position at a smallest one (never the small blind). When
the players fit on fewer tables, the highest-numbered table breaks and its players are
redrawn at random into open seats at the smallest tables; when one table is left it is the
final table. A move whose table is in a hand waits: the idle side is held (deals no hand)
until the other side's hand is over, and a table two or more players short of the fullest
deals no hand until it is balanced (``Tournament.short``), whatever else waits.
"""

from __future__ import annotations

from math import ceil
from typing import Any, Protocol

from pokerroom.rng import RandomSource
from pokerroom.rules.tournament import TournamentStructure
from pokerroom.table import Table
from pokerroom.tournament.entries import Entry, RebuyOffer
from pokerroom.tournament.events import Balanced, Moved, TableBroken
from pokerroom.tournament.seats import (
    draw_seat,
    next_big_blind,
    off_the_big_blind,
    shuffle,
    worst_seat,
)


class Field(Protocol):
    """What balancing reads and sets of the event (``Tournament``, coordinator.py)."""

    held: set[int]  # idle tables waiting for a balancing partner
    moves: int

    @property
    def structure(self) -> TournamentStructure: ...

    @property
    def rng(self) -> RandomSource: ...

    @property
    def tables(self) -> dict[int, Table]: ...

    @property
    def entries(self) -> dict[str, Entry]: ...

    @property
    def offers(self) -> dict[str, RebuyOffer]: ...  # a busted player deciding on a rebuy


def balance(t: Field) -> list[Any]:
    """Every move that can be made now; ``Balanced`` when the tables are within one."""
    events: list[Any] = []
    size = t.structure.table_size
    t.held = set()
    while True:
        counts = {n: len(table.seats) for n, table in t.tables.items()}
        needed = max(1, ceil(sum(counts.values()) / size))
        if len(counts) > needed:
            step = _break_step(t, max(counts), counts)  # a fixed order: highest number first
        else:
            most, fewest = max(counts.values()), min(counts.values())
            if most - fewest <= 1:
                events.append(Balanced(tuple(counts[n] for n in sorted(counts))))
                return events
            step = _balance_step(t, counts, most, fewest)
        if step is None:
            return events
        events += step


def _idle_first(t: Field, numbers: list[int]) -> list[int]:
    idle = [n for n in numbers if t.tables[n].hand is None]
    return idle or numbers


def _exposes(t: Field, table: Table, entry: str) -> bool:
    """Would moving ``entry`` (the next big blind) make a player post the big blind twice in
    a row: themselves, or the player after them, moved here after posting it?"""
    after = next_big_blind(table, skip=entry)
    return t.entries[entry].owes_no_big_blind or (
        after is not None and t.entries[after].owes_no_big_blind
    )


def _balance_step(t: Field, counts: dict[int, int], most: int, fewest: int) -> list[Any] | None:
    target = _idle_first(t, [n for n, c in counts.items() if c == fewest])[0]
    sources = _idle_first(t, [n for n, c in counts.items() if c == most])
    movers = {n: next_big_blind(t.tables[n]) for n in sources}
    fit = [n for n, mover in movers.items() if mover is None or not _exposes(t, t.tables[n], mover)]
    if not fit:  # each source deals once more first (then the next big blind has posted)
        t.held |= {target} if t.tables[target].hand is None else set()
        return None
    source = fit[0]
    src, dst = t.tables[source], t.tables[target]
    if src.hand is not None or dst.hand is not None:
        t.held |= {n for n in (source, target) if t.tables[n].hand is None}
        return None
    # TDA 11A: the player who will be big blind next, to the worst position.
    entry = movers[source]
    if entry is None:  # no next big blind yet: a random player with chips (a busted one
        # deciding on a rebuy stays at the table where they busted)
        players = sorted(s.player for s in src.seats.values() if s.stack > 0)
        if not players:
            return None
        entry = players[t.rng.randbelow(len(players))]
    seat = worst_seat(dst)
    if seat is None:
        seat = draw_seat(dst, t.rng, posted_big_last=t.entries[entry].big_blind_last)
    return _move(t, entry, source, target, seat, "balance")


def _break_step(t: Field, breaking: int, counts: dict[int, int]) -> list[Any] | None:
    table = t.tables[breaking]
    if table.hand is not None or any(s.player in t.offers for s in table.seats.values()):
        t.held.add(breaking)  # its hand, or a busted player's rebuy decision, first
        return None
    if not table.seats:
        del t.tables[breaking]
        final = next(iter(t.tables)) if len(t.tables) == 1 else None
        return [TableBroken(breaking, final)]
    others = {n: c for n, c in counts.items() if n != breaking}
    fewest = min(others.values())
    smallest = [n for n, c in others.items() if c == fewest]
    targets = [n for n in smallest if t.tables[n].hand is None]
    if not targets:
        t.held.add(breaking)
        return None
    # TDA 10B: a random redraw. Whoever posted the big blind in their last hand goes first
    # while a seat off the big blind is open for them; the others may go anywhere, and each
    # one seated makes the seats after theirs safe for that player.
    players = sorted(s.player for s in table.seats.values())
    shuffle(players, t.rng)
    big = [e for e in players if t.entries[e].big_blind_last]
    safe = [n for n in targets if off_the_big_blind(t.tables[n])]
    again = False
    if big and safe:
        entry, targets = big[0], safe
    elif len(big) < len(players):
        entry = next(e for e in players if not t.entries[e].big_blind_last)
    elif any(off_the_big_blind(t.tables[n]) for n in smallest):
        t.held.add(breaking)  # a safe seat at a table in a hand: wait for it
        return None
    else:
        entry, again = players[0], True
    target = targets[t.rng.randbelow(len(targets))]
    seat = draw_seat(t.tables[target], t.rng, posted_big_last=t.entries[entry].big_blind_last)
    return _move(t, entry, breaking, target, seat, "break", big_blind_again=again)


def _move(
    t: Field,
    entry: str,
    source: int,
    target: int,
    seat: int,
    reason: str,
    *,
    big_blind_again: bool = False,
) -> list[Any]:
    src = t.tables[source]
    chips = src.seat_of(entry).stack
    events: list[Any] = list(src.remove(entry, "moved"))
    moved = t.entries[entry]
    events += t.tables[target].seat_entrant(entry, seat, chips, name=moved.name or moved.player)
    t.entries[entry].table = target
    t.entries[entry].moved = True
    t.moves += 1
    events.append(Moved(entry, source, target, seat, reason, big_blind_again))
    return events
