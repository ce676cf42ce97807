"""Where a moved or late player sits (TDA 8A, 10A, 11A): never between the button and the
small blind while another seat is open, and never the next big blind for a player who just
posted one."""

from __future__ import annotations

from pokerroom.rng import SeededRandomSource
from pokerroom.rules.game import Structure, Variant
from pokerroom.rules.house import STANDARD
from pokerroom.table import Table
from pokerroom.tournament.seats import draw_seat, next_big_blind, worst_seat


def table_after_a_hand(players: list[int]) -> Table:
    house = STANDARD.with_options(cash_table=False)
    spec = house.game(Variant.HOLDEM, Structure.NO_LIMIT, 20)
    table = Table(spec=spec, house=house, seats=9, tournament=True)
    for n in players:
        table.seat_entrant(f"s{n}", n, 1000)
    # Last hand: button 1, small blind 2, big blind 5 (seats 3 and 4 emptied since).
    table.previous_button, table.previous_small, table.previous_big = 1, 2, 5
    return table


def draws(table: Table, *, posted_big_last: bool) -> set[int]:
    return {
        draw_seat(table, SeededRandomSource(k), posted_big_last=posted_big_last) for k in range(200)
    }


def test_TDA8A_never_between_the_button_and_the_small_blind() -> None:
    table = table_after_a_hand([1, 2, 5, 7])  # next hand: button 2, small blind 5
    assert draws(table, posted_big_last=False) == {6, 8, 9}
    crowded = table_after_a_hand([1, 2, 5, 6, 7, 8, 9])  # only seats 3 and 4 are open
    assert draws(crowded, posted_big_last=False) == {3, 4}  # the rule gives way


def test_a_player_who_posted_the_big_blind_is_not_drawn_into_the_next_one() -> None:
    table = table_after_a_hand([1, 2, 5, 7])
    assert draws(table, posted_big_last=True) == {8, 9}  # seat 6 would be the big blind


def test_TDA11A_next_big_blind_and_worst_position() -> None:
    table = table_after_a_hand([1, 2, 5, 7])
    assert next_big_blind(table) == "s7"
    assert next_big_blind(table, skip="s7") == "s1"
    assert worst_seat(table) == 6  # takes the big blind at once; never 5, the small blind
