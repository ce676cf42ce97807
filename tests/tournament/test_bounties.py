"""Knockout bounties: who knocked a player out, how a bounty is shared to the cent, and
whole progressive and plain knockout events where every bounty ends in someone's cash."""

from __future__ import annotations

import pytest

from pokerroom.rng import SeededRandomSource
from pokerroom.rules import RulesError
from pokerroom.rules.tournament import load_tournament_structure, parse_tournament_structure
from pokerroom.tournament.bounties import knockers, share_bounty, split
from pokerroom.tournament.events import BountyWon
from pokerroom.tournament.simulate import Simulation
from pokerroom.tournament.snapshot import tournament_from_json, tournament_to_json
from tests.helpers.hands import act, deal, spec


def test_a_bust_in_the_main_pot_goes_to_its_winner_and_a_side_pot_they_were_in() -> None:
    # A (30) has the best hand, C (200) the second, D (200) the third, B (60) the worst:
    # A wins the main pot, C the side pot B was in and the side pot only C and D were in.
    hand = deal(
        [30, 60, 200, 200],
        hole=["AsAd", "2c7h", "KsKd", "QsQd"],
        board="Jc9h5d4s3c",
    )
    act(hand, "r 200", "c", "c", "c")
    assert hand.is_over
    found = knockers(hand, ["A", "B", "C", "D"], "B")
    assert found == [("A", 120), ("C", 90)]  # C's 280 of the pot B was not in does not count
    assert [(s.entry, s.cash, s.added) for s in share_bounty(700, found, False)] == [
        ("A", 400, 0),
        ("C", 300, 0),
    ]


def test_a_split_pot_splits_the_bounty_the_odd_cent_left_of_the_button() -> None:
    hand = deal([100, 100, 50], hole=["AsAd", "AcAh", "2c7d"], board="KsKdQh9c3s", game=spec())
    act(hand, "r 50", "c", "c")  # the button (first to act three-handed) is all in
    while not hand.is_over:
        act(hand, "cc")
    assert hand.stacks[2] == 0
    found = knockers(hand, ["p1", "p2", "p3"], "p3")
    assert [w for _, w in found] == [found[0][1], found[0][1]]  # the two aces split evenly
    shares = share_bounty(1001, found, True)
    assert [(s.cash, s.added) for s in shares] == [(251, 250), (250, 250)]
    assert sum(s.cash + s.added for s in shares) == 1001


def test_split_gives_every_unit_and_the_odd_ones_to_the_largest_weight_first() -> None:
    assert split(10, [("a", 1), ("b", 2)]) == [("a", 3), ("b", 7)]
    assert split(2, [("a", 1), ("b", 1), ("c", 1)]) == [("a", 1), ("b", 1), ("c", 0)]
    assert split(0, [("a", 5)]) == [("a", 0)]
    with pytest.raises(ValueError, match="nobody"):
        split(5, [])


def test_a_bounty_is_part_of_the_buy_in_and_no_larger() -> None:
    s = load_tournament_structure("sng6_pko")
    assert s.bounty is not None and s.bounty.progressive
    assert s.pool_share + s.bounty.amount == s.buy_in
    plain = load_tournament_structure("sng6_knockout")
    assert plain.bounty is not None and not plain.bounty.progressive
    raw = {
        "kind": "sng",
        "game": "holdem/no_limit",
        "table_size": 6,
        "entrants": [2, 6],
        "starting_stack": 1500,
        "buy_in": 1000,
        "levels": [{"small_blind": 10, "big_blind": 20, "minutes": 5}],
        "payouts": [{"entrants": [2, 6], "places": [100]}],
    }
    with pytest.raises(RulesError, match="leaves nothing"):
        parse_tournament_structure({**raw, "bounty": {"amount": 1000}}, "x")
    with pytest.raises(RulesError, match="progressive must be"):
        parse_tournament_structure({**raw, "bounty": {"amount": 10, "progressive": 1}}, "x")


@pytest.mark.parametrize(
    ("name", "entrants", "seed"),
    [("sng6_pko", 6, 1), ("sng6_knockout", 6, 2), ("mtt_pko", 40, 3), ("mtt_pko", 25, 4)],
)
def test_every_bounty_of_a_whole_knockout_event_is_paid_to_the_cent(
    name: str, entrants: int, seed: int
) -> None:
    structure = load_tournament_structure(name)
    rule = structure.bounty
    assert rule is not None
    won: list[BountyWon] = []
    run = Simulation(structure, entrants, seed)
    run.observe = lambda t, events: won.extend(e for e in events if isinstance(e, BountyWon))
    run.play(hands=30)
    restored = tournament_from_json(tournament_to_json(run.t), rng=SeededRandomSource(seed))
    assert [e.bounty for e in restored.entries.values()] == [
        e.bounty for e in run.t.entries.values()
    ]
    assert restored.bounties == run.t.bounties
    run.play()
    t = run.t
    assert t.finished and t.winner is not None
    assert len(won) == entrants and won == t.bounties  # each bust's and the winner's own
    assert {b.busted for b in won} == set(t.entries)
    assert (
        won[-1].busted == t.winner
        and won[-1].shares[0][0] == t.winner
        and won[-1].shares[0][3] == 0
    )
    assert all(e.bounty == 0 for e in t.entries.values())
    assert sum(e.bounties_won for e in t.entries.values()) == entrants * rule.amount
    cash = sum(c for b in won for _, c, _, _ in b.shares)
    assert cash == entrants * rule.amount
    if not rule.progressive:
        assert all(a == 0 for b in won for _, _, a, _ in b.shares)
    assert sum(p.prize for p in t.places()) == t.prize_pool == entrants * structure.pool_share
