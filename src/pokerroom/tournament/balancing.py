"""Balancing and breaking tables (TDA 10B, 11A), always between hands at both tables.

Tables stay within one player of each other: the player who will be big blind next moves
from a largest table to the worst position at a smallest one (never the small blind). When
the players fit on fewer tables, the highest-numbered table breaks and its players are
redrawn at random into open seats at the smallest tables; when one table is left it is the
final table. A move whose table is in a hand waits: the idle side is held (deals no hand)
until the other side's hand is over.
"""

from __future__ import annotations

from math import ceil
from typing import TYPE_CHECKING, Any

from pokerroom.tournament.events import Balanced, Moved, TableBroken
from pokerroom.tournament.seats import draw_seat, next_big_blind, worst_seat

if TYPE_CHECKING:
    from pokerroom.tournament.coordinator import Tournament


def balance(t: Tournament) -> list[Any]:
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
                t.max_table_gap = max(t.max_table_gap, most - fewest)
                events.append(Balanced(tuple(counts[n] for n in sorted(counts))))
                return events
            step = _balance_step(t, counts, most, fewest)
        if step is None:
            return events
        events += step


def _idle_first(t: Tournament, numbers: list[int]) -> list[int]:
    idle = [n for n in numbers if t.tables[n].hand is None]
    return idle or numbers


def _balance_step(
    t: Tournament, counts: dict[int, int], most: int, fewest: int
) -> list[Any] | None:
    source = _idle_first(t, [n for n, c in counts.items() if c == most])[0]
    target = _idle_first(t, [n for n, c in counts.items() if c == fewest])[0]
    src, dst = t.tables[source], t.tables[target]
    if src.hand is not None or dst.hand is not None:
        t.held |= {n for n in (source, target) if t.tables[n].hand is None}
        return None
    # TDA 11A: the player who will be big blind next, to the worst position.
    entry = next_big_blind(src)
    if entry is None:  # the table has not dealt yet: a random player
        players = sorted(s.player for s in src.seats.values())
        entry = players[t.rng.randbelow(len(players))]
    seat = worst_seat(dst)
    if seat is None:
        seat = draw_seat(dst, t.rng, posted_big_last=t.entries[entry].big_blind_last)
    return _move(t, entry, source, target, seat, "balance")


def _break_step(t: Tournament, breaking: int, counts: dict[int, int]) -> list[Any] | None:
    table = t.tables[breaking]
    if table.hand is not None:
        t.held.add(breaking)
        return None
    if not table.seats:
        del t.tables[breaking]
        final = next(iter(t.tables)) if len(t.tables) == 1 else None
        return [TableBroken(breaking, final)]
    others = {n: c for n, c in counts.items() if n != breaking}
    fewest = min(others.values())
    targets = [n for n, c in others.items() if c == fewest and t.tables[n].hand is None]
    if not targets:
        t.held.add(breaking)
        return None
    target = targets[t.rng.randbelow(len(targets))]
    players = sorted(s.player for s in table.seats.values())  # TDA 10B: a random redraw
    entry = players[t.rng.randbelow(len(players))]
    seat = draw_seat(t.tables[target], t.rng, posted_big_last=t.entries[entry].big_blind_last)
    return _move(t, entry, breaking, target, seat, "break")


def _move(t: Tournament, entry: str, source: int, target: int, seat: int, reason: str) -> list[Any]:
    src = t.tables[source]
    chips = src.seat_of(entry).stack
    events: list[Any] = list(src.remove(entry, "moved"))
    events += t.tables[target].seat_entrant(entry, seat, chips, name=t.entries[entry].player)
    t.entries[entry].table = target
    t.moves += 1
    events.append(Moved(entry, source, target, seat, reason))
    return events
