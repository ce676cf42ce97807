"""Places and prizes: busted in the same hand, ranked by chips at its start; equal
stacks tie and split the places' prizes, the odd chips one each first left of the button."""

from __future__ import annotations

import pytest

from pokerroom.rng import SeededRandomSource
from pokerroom.rules.house import STANDARD
from pokerroom.rules.tournament import load_tournament_structure
from pokerroom.tournament import Tournament, TournamentError
from pokerroom.tournament.places import Bust, award_places, prizes
from pokerroom.tournament.simulate import Options, Simulation


def test_prizes_sum_to_the_pool_the_rounding_to_the_winner() -> None:
    assert prizes(1001, [5000, 3000, 2000]) == [501, 300, 200]
    assert sum(prizes(99_999, [3333, 3333, 3334])) == 99_999


def test_same_hand_busts_ranked_by_chips_at_its_start() -> None:
    groups = [[Bust("d", 100, (1, 0))], [Bust("b", 300, (1, 2)), Bust("c", 900, (1, 1))]]
    places = award_places(groups, "a", 4, 1000, [5000, 3000, 2000])
    assert [(p.place, p.entry, p.prize) for p in places] == [
        (1, "a", 500),
        (2, "c", 300),  # more chips when the hand began: the higher place
        (3, "b", 200),
        (4, "d", 0),
    ]


def test_equal_stacks_tie_and_split_with_the_odd_chip_left_of_the_button() -> None:
    groups = [[Bust("c", 500, (1, 4)), Bust("b", 500, (1, 0))]]
    places = award_places(groups, "a", 3, 1001, [5000, 3000, 2000])
    # places 2 and 3 pay 300 + 200 = 500; shared, 250 each
    assert [(p.place, p.entry, p.prize, p.tie) for p in places] == [
        (1, "a", 501, None),
        (2, "b", 250, (2, 3)),
        (3, "c", 250, (2, 3)),
    ]
    # 300 + 199 = 499 shared: 250 to the one first left of the button, 249 to the other
    odd = award_places(groups, "a", 3, 1000, [5000, 3001, 1999])
    assert [(p.entry, p.prize) for p in odd] == [("a", 501), ("b", 250), ("c", 249)]


def test_a_three_way_tie_splits_the_odd_units_one_each_in_order() -> None:
    groups = [[Bust("b", 7, (2, 3)), Bust("c", 7, (1, 5)), Bust("d", 7, (1, 2))]]
    places = award_places(groups, "a", 4, 1002, [5000, 3000, 2000])
    shared = [p for p in places if p.tie == (2, 4)]
    # 300 + 200 + 0 = 500 shared by three: 167, 167, 166; first left of the button first
    assert [(p.entry, p.prize) for p in shared] == [("d", 167), ("c", 167), ("b", 166)]
    assert sum(p.prize for p in places) == 1002


def test_every_place_exactly_once_or_refused() -> None:
    with pytest.raises(ValueError, match="2 eliminated and a winner for 4 entries"):
        award_places([[Bust("b", 1, (0,)), Bust("c", 2, (0,))]], "a", 4, 0, [10000])


def test_places_are_final_as_players_are_eliminated() -> None:
    run = Simulation(load_tournament_structure("mtt_freezeout"), 40, 2, options=Options())
    run.play(until=lambda t: t.left <= 20)
    so_far = run.t.places_so_far()
    assert sorted(p.place for p in so_far) == list(range(run.t.left + 1, 41))
    run.play()
    final = {(p.place, p.entry, p.prize) for p in run.t.places()}
    assert {(p.place, p.entry, p.prize) for p in so_far} <= final  # nothing changed since


def test_no_places_while_entries_may_still_come() -> None:
    t = Tournament(
        structure=load_tournament_structure("mtt_freezeout"),
        house=STANDARD,
        rng=SeededRandomSource(1),
    )
    for k in range(20):
        t.register(f"p{k}", 0.0)
    t.start(0.0)
    with pytest.raises(TournamentError, match="places are not final while entries may come"):
        t.places_so_far()
