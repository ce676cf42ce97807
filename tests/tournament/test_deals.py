"""Deals at the final table: an ICM (Malmuth-Harville) or chip-proportional split
of the prizes still to be paid, only when every player left agrees; play goes on for what
is kept back and the title, and the prizes still sum to the pool."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pokerroom.rules.tournament import load_tournament_structure
from pokerroom.tournament import TournamentError
from pokerroom.tournament.deals import (
    chip_split,
    deal_offer,
    icm_equities,
    icm_split,
    make_deal,
)
from pokerroom.tournament.simulate import Options, Simulation, result
from tests.helpers.tournament_invariants import check_result


def test_icm_split_follows_malmuth_harville() -> None:
    # A finishes first half the time; second after B (3/10 * 5/7) or after C (2/10 * 5/8).
    a, b, c = icm_equities([5000, 3000, 2000], [500, 300, 200])
    second = Fraction(3, 10) * Fraction(5, 7) + Fraction(2, 10) * Fraction(5, 8)
    assert a == Fraction(1, 2) * 500 + second * 300 + (1 - Fraction(1, 2) - second) * 200
    assert a + b + c == 1000
    assert icm_split([5000, 3000, 2000], [500, 300, 200]) == [384, 327, 289]
    assert icm_split([1, 1, 1], [100, 0, 0]) == [34, 33, 33]  # the odd unit, first in order


def test_chip_chop_gives_the_lowest_prize_and_shares_the_rest_by_chips() -> None:
    assert chip_split([5000, 3000, 2000], [500, 300, 200]) == [400, 320, 280]


def final_three(seed: int = 3) -> Simulation:
    run = Simulation(load_tournament_structure("sng9"), 9, seed, options=Options())
    run.play(until=lambda t: t.left <= 3)
    return run


def test_a_deal_needs_every_player_left_and_pays_what_it_says() -> None:
    run = final_three()
    t = run.t
    left = t.remaining()
    assert 2 <= len(left) <= 3
    offer = deal_offer(t, "icm", keep=100)
    assert sum(offer.values()) + 100 == sum(t.prizes()[: len(left)])
    with pytest.raises(TournamentError, match="no deal without"):
        make_deal(t, "icm", left[:1], keep=100)
    assert t.deal is None
    make_deal(t, "icm", left, keep=100)
    with pytest.raises(TournamentError, match="a deal has been made"):
        deal_offer(t, "chip")
    run.play()
    places = result(t)["places"]
    check_result(result(t))
    paid = {entry: prize for _, entry, prize in places}
    winner = next(entry for place, entry, _ in places if place == 1)
    for entry, amount in offer.items():
        assert paid[entry] == amount + (100 if entry == winner else 0)


def test_no_deal_before_the_final_table_or_with_too_much_kept() -> None:
    run = Simulation(load_tournament_structure("mtt_freezeout"), 30, 1, options=Options())
    run.play(hands=3)
    with pytest.raises(TournamentError, match="at the final table only"):
        deal_offer(run.t, "icm")
    three = final_three().t
    with pytest.raises(TournamentError, match="cannot be kept back for the title"):
        deal_offer(three, "chip", keep=10**9)


def test_a_place_settled_after_a_deal_pays_the_deals_amount() -> None:
    run = final_three()
    t = run.t
    left = t.remaining()
    offer = deal_offer(t, "chip", keep=0)
    make_deal(t, "chip", left, keep=0)
    run.play(until=lambda t: t.left < len(left))  # the next one out, paid as they go
    out = {p.entry: p.prize for p in t.settled_places(run.now) if p.entry in offer}
    assert out and all(prize == offer[entry] for entry, prize in out.items())
    so_far = {p.entry: p.prize for p in t.places_so_far() if p.entry in offer}
    assert so_far == out  # what the room pays as places settle (TournamentRunner.prizes_due)
