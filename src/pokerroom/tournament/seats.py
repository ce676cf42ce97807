"""Where a moving player sits and who moves (TDA 7, 8A, 10, 11A), read from a table's last
plan: the next hand's small blind is last hand's big blind seat, its button goes where last
hand's small blind was (the dead button rule, TDA 32)."""

from __future__ import annotations

from pokerroom.rng import RandomSource
from pokerroom.table import Table


def _after(table: Table, seat: int) -> list[int]:
    """Every seat number clockwise after ``seat``."""
    size = table.max_seats
    return [(seat + k - 1) % size + 1 for k in range(1, size)]


def open_seats(table: Table) -> list[int]:
    return [n for n in range(1, table.max_seats + 1) if n not in table.seats]


def next_big_blind(table: Table, *, skip: str | None = None) -> str | None:
    """TDA 11A: the player who will be big blind next hand (None before the first hand);
    with ``skip``, the one who would be if that player were gone."""
    if table.previous_big is None:
        return None
    for n in _after(table, table.previous_big):
        seat = table.seats.get(n)
        if seat is not None and seat.stack > 0 and seat.player != skip:
            return seat.player
    return None


def worst_seat(table: Table) -> int | None:
    """TDA 11A: the open seat that will be big blind soonest (never the small blind, which is
    last hand's big blind seat); None before the first hand."""
    if table.previous_big is None:
        return None
    return next((n for n in _after(table, table.previous_big) if n not in table.seats), None)


def _big_blind_seats(table: Table) -> set[int]:
    """The open seats where a newcomer would post the big blind next hand: every one between
    last hand's big blind and the next player with chips."""
    seats: set[int] = set()
    if table.previous_big is None:
        return seats
    for n in _after(table, table.previous_big):
        seat = table.seats.get(n)
        if seat is None:
            seats.add(n)
        elif seat.stack > 0:
            break
    return seats


def _between_button_and_small_blind(table: Table) -> set[int]:
    """Open seats between next hand's button and its small blind (TDA 8A, 10A: not dealt)."""
    big = table.previous_big
    button = table.previous_small if table.previous_small is not None else table.previous_button
    if big is None or button is None:
        return set()
    arc: set[int] = set()
    for n in _after(table, button):
        if n == big:
            break
        if n not in table.seats:
            arc.add(n)
    return arc


def off_the_big_blind(table: Table) -> bool:
    """Is there an open seat where a newcomer would not post the big blind next hand?"""
    return bool(set(open_seats(table)) - _big_blind_seats(table))


def draw_seat(table: Table, rng: RandomSource, *, posted_big_last: bool) -> int:
    """A random open seat (TDA 7, 10B), never between the button and the small blind
    (TDA 8A, 10A) and, for a player who posted the big blind last hand, never the big blind
    again; when no seat is left after that, the rules give way in that order."""
    seats = open_seats(table)
    if not seats:
        raise ValueError(f"table {table.name} has no open seat")
    arc = _between_button_and_small_blind(table)
    big = _big_blind_seats(table) if posted_big_last else set()
    for allowed in (
        [n for n in seats if n not in arc and n not in big],
        [n for n in seats if n not in big],
        seats,
    ):
        if allowed:
            return allowed[rng.randbelow(len(allowed))]
    raise AssertionError("unreachable")


def shuffle(items: list[str], rng: RandomSource) -> None:
    """Fisher-Yates with the injected source (TDA 7, 10B: a random draw)."""
    for k in range(len(items) - 1, 0, -1):
        j = rng.randbelow(k + 1)
        items[k], items[j] = items[j], items[k]
