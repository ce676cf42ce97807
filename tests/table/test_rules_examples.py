"""RULES.md's worked examples at a table, with the rules' own numbers.

Every concrete example in RULES.md is a test. R-BLIND-3's small blinds were tested
as a function and a preset field; here each room's table posts them. R-SEAT-2's "more than one
big blind can be posted in a hand" (000) had no test.
"""

import pytest

from pokerroom.rng import SeededRandomSource
from pokerroom.rules import RulesError, load_preset
from pokerroom.rules.game import Structure, Variant
from pokerroom.table import Table, TableError
from pokerroom.table.events import HandStarting
from tests.helpers.tables import BB, make_table, play, posts


@pytest.mark.parametrize(
    ("room", "big_blind", "small_blind"),
    [
        ("titan", 500, 250),  # exact: $5/$10 -> $2.50 (002/003)
        ("sweden", 500, 250),
        ("multipoker", 500, 200),  # nearest_dollar: $5/$10 -> $2, a half dollar down (000)
        ("fortune", 1500, 700),  # $15/$30 -> $7
        ("fortune", 200, 100),  # $2/$4 -> $1 (001)
        ("fortune", 350, 200),  # $3.50/$7 -> $2: $1.75 is nearer $2 than $1
        ("multipoker", 100, 50),  # $1/$2 -> $0.50: a half under $1 stays exact
    ],
)
def test_R_BLIND_3_each_rooms_limit_table_posts_the_rules_small_blind(
    room: str, big_blind: int, small_blind: int
) -> None:
    house = load_preset(room)
    spec = house.game(Variant.HOLDEM, Structure.FIXED_LIMIT, big_blind)
    table = Table(spec=spec, house=house, seats=10, rng=SeededRandomSource(3))
    for seat in (1, 2, 3):
        table.sit(f"p{seat}", seat, 100 * big_blind)
    events = table.start_hand(0.0)
    started = next(e for e in events if isinstance(e, HandStarting))
    assert posts(events) == [
        (started.small_blind_seat, "small_blind", small_blind),
        (started.big_blind_seat, "big_blind", big_blind),
    ]


def test_R_SEAT_2_two_new_players_post_two_more_big_blinds_in_one_hand() -> None:
    # 000: "more than one player may post a big blind in a hand" when new players arrive.
    table = make_table("multipoker", seats=8, players=dict.fromkeys((1, 2, 3, 4), 40 * BB))
    first = play(table)
    assert first is not None and first.button_seat == 1
    # Next hand: button 2, small blind 3, big blind 4; seats 5 and 6 are left of the blinds.
    table.sit("p5", 5, 40 * BB, post_now=True)
    table.sit("p6", 6, 40 * BB, post_now=True)
    events = table.start_hand(1.0)
    started = next(e for e in events if isinstance(e, HandStarting))
    assert (started.button_seat, started.small_blind_seat, started.big_blind_seat) == (2, 3, 4)
    assert {5, 6} <= set(started.seats)
    big_blinds = [(seat, amount) for seat, what, amount in posts(events) if what != "small_blind"]
    assert sorted(big_blinds) == [(4, BB), (5, BB), (6, BB)]


@pytest.mark.parametrize(
    ("room", "allowed"),
    [("titan", set(range(2, 11))), ("fortune", {2, 5, 10}), ("casino", {10})],
)
def test_R_SEAT_1_a_table_seats_2_to_10_and_each_room_its_own_sizes(
    room: str, allowed: set[int]
) -> None:
    house = load_preset(room)
    spec = house.game(Variant.HOLDEM, house.games[0][1], BB)
    for seats in range(1, 12):
        if seats in allowed:
            table = Table(spec=spec, house=house, seats=seats, rng=SeededRandomSource(1))
            table.sit("last", seats, 100 * BB)
            with pytest.raises(TableError, match=f"seat {seats + 1} does not exist"):
                table.sit("beyond", seats + 1, 100 * BB)
        else:
            with pytest.raises(RulesError, match=f"house {room} has no {seats}-seat tables"):
                Table(spec=spec, house=house, seats=seats, rng=SeededRandomSource(1))


def test_R_STAKE_2_fortunes_minimum_is_ten_small_bets_at_3_50_7() -> None:
    # 001: the minimum buy-in is 10 x the small bet; at $3.50/$7 that is $35.
    house = load_preset("fortune")
    spec = house.game(Variant.HOLDEM, Structure.FIXED_LIMIT, 350)
    table = Table(spec=spec, house=house, seats=10, rng=SeededRandomSource(1))
    with pytest.raises(TableError, match="the minimum is 3500"):
        table.sit("ann", 1, 3499)
    table.sit("ann", 1, 3500)
    assert table.seats[1].stack == 3500
