"""Satellites: seats (tickets) in a target event for the top N, N = pool // a seat's value,
what is left over in cash to place N + 1; the bubble hand-for-hand; the event over once the
N seats are decided, every player left winning one."""

from __future__ import annotations

import pytest

from pokerroom.rules import RulesError
from pokerroom.rules.tournament import load_tournament_structure, parse_tournament_structure
from pokerroom.tournament.events import HandForHand
from pokerroom.tournament.places import satellite_prizes
from pokerroom.tournament.simulate import Simulation


def test_seats_to_the_top_n_and_the_rest_in_cash_to_the_next_place() -> None:
    assert satellite_prizes(18_000, 2200) == [2200] * 8 + [400]
    assert satellite_prizes(6600, 2200) == [2200] * 3  # nothing left over: no cash place
    assert satellite_prizes(1000, 2200) == [1000]  # no seat at all: the pool to place 1
    s = load_tournament_structure("satellite_turbo6")
    assert s.satellite is not None and s.satellite.seat == 2200  # mtt_turbo6's 2,000 + 200
    assert s.payout_for(18) == ()


def test_a_satellite_pays_seats_only() -> None:
    raw = {
        "kind": "mtt",
        "game": "holdem/no_limit",
        "table_size": 6,
        "entrants": [2, 18],
        "starting_stack": 1500,
        "buy_in": 1000,
        "levels": [{"small_blind": 10, "big_blind": 20, "minutes": 5}],
        "satellite": {"target": "mtt_turbo6"},
    }
    assert parse_tournament_structure(raw, "x").satellite is not None
    with pytest.raises(RulesError, match="no payouts, bounty"):
        parse_tournament_structure({**raw, "bounty": {"amount": 10}}, "x")
    with pytest.raises(RulesError, match="no tournament structure"):
        parse_tournament_structure({**raw, "satellite": {"target": "nope"}}, "x")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_bubble_plays_hand_for_hand_and_the_event_ends_when_the_seats_are_decided(
    seed: int,
) -> None:
    seen: list[HandForHand] = []
    run = Simulation(load_tournament_structure("satellite_turbo6"), 18, seed)
    run.observe = lambda t, events: seen.extend(e for e in events if isinstance(e, HandForHand))
    run.play()
    t = run.t
    assert t.finished and HandForHand(True) in seen
    assert 1 <= len(t.seat_winners) <= t.seats() == 8 and t.winner == t.seat_winners[0]
    assert t.left == len(t.seat_winners)  # nobody left without a seat, nobody dealt on
    places = t.places()
    assert [p.place for p in places] == list(range(1, 19))
    assert [p.prize for p in places[:9]] == [2200] * 8 + [400]
    assert sum(p.prize for p in places) == t.prize_pool
    assert {p.entry for p in places[: len(t.seat_winners)]} == set(t.seat_winners)
