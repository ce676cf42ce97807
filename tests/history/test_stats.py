"""Each statistic's per-hand facts on hands played through the engine, where the answer is
known by hand, and the page's sums over them (history.stats, history.results)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from pokerroom.history.results import Filters, results_page
from pokerroom.history.stats import position_name, rake_shares
from pokerroom.history.viewer import viewer_hand
from pokerroom.rules import load_preset
from pokerroom.rules.game import Structure, Variant
from tests.helpers.hands import act, deal
from tests.helpers.results import AT, facts_of, stored

# Three-handed, blinds 1/2: position 0 is the SB, 1 the BB, 2 the button (first to act).
SB, BB, BTN = 0, 1, 2


def three_bet_pot():
    """BTN opens to 6, SB 3-bets to 20, BB folds, BTN folds."""
    hand = deal([200, 200, 200])
    act(hand, "r 6", "r 20", "f", "f")
    return hand


def cbet_to_showdown():
    """BTN opens to 6, SB folds, BB calls; BTN bets 8 on the flop, BB calls; checked down;
    BTN's aces beat BB's kings."""
    hand = deal([200, 200, 200], hole=["2h3c", "KcKd", "AhAd"], board="2s7h9c3d4s")
    act(hand, "r 6", "f", "c", "x", "b 8", "c", "x", "x", "x", "x")
    return hand


def test_preflop_counts_of_a_three_bet_pot():
    hand = three_bet_pot()
    btn, sb, bb = facts_of(hand, BTN), facts_of(hand, SB), facts_of(hand, BB)
    assert (btn.vpip, btn.pfr, btn.three_bet_chance) == (1, 1, 0)
    assert (btn.fold_to_three_bet_chance, btn.fold_to_three_bet) == (1, 1)
    assert (sb.vpip, sb.pfr, sb.three_bet_chance, sb.three_bet) == (1, 1, 1, 1)
    assert sb.fold_to_three_bet_chance == 0
    assert (sb.won_without_showdown, sb.showdown, sb.net) == (1, 0, 8)
    # The BB faced two raises when it acted: no 3-bet chance; folding is no VPIP.
    assert (bb.preflop_acted, bb.vpip, bb.three_bet_chance, bb.net) == (1, 0, 0, -2)
    assert (btn.net, btn.saw_flop) == (-6, 0)


def test_cbet_showdown_and_wins():
    hand = cbet_to_showdown()
    btn, bb, sb = facts_of(hand, BTN), facts_of(hand, BB), facts_of(hand, SB)
    assert (btn.cbet_chance, btn.cbet, btn.saw_flop) == (1, 1, 1)
    assert (btn.showdown, btn.won_showdown, btn.won_without_showdown) == (1, 1, 0)
    assert btn.net == 6 + 8 + 1
    # The BB faced the one open raise: a 3-bet chance it did not take; a call is VPIP.
    assert (bb.three_bet_chance, bb.three_bet, bb.vpip, bb.pfr) == (1, 0, 1, 0)
    assert (bb.cbet_chance, bb.showdown, bb.won_showdown, bb.net) == (0, 1, 0, -14)
    assert (sb.saw_flop, sb.showdown, sb.net) == (0, 0, -1)
    assert btn.all_in_adjusted == 0 and btn.all_in_net == btn.net  # no all-in


def test_no_cbet_chance_after_a_bet_in_front():
    """The pre-flop raiser out of position facing a donk bet has no c-bet chance."""
    hand = deal([200, 200, 200], hole=["2h3c", "KcKd", "AhAd"], board="2s7h9c3d4s")
    # BTN folds, SB completes, BB raises to 6, SB calls; the SB leads the flop for 4.
    act(hand, "f", "c", "r 6", "c", "b 4", "c", "x", "x", "x", "x")
    sb, bb = facts_of(hand, SB), facts_of(hand, BB)
    assert (bb.pfr, bb.cbet_chance, bb.cbet, bb.saw_flop) == (1, 0, 0, 1)
    assert (sb.pfr, sb.cbet_chance) == (0, 0)


def test_a_walk_is_no_preflop_decision():
    hand = deal([200, 200, 200])
    act(hand, "f", "f")
    bb = facts_of(hand, BB)
    assert (bb.preflop_acted, bb.vpip, bb.won_without_showdown, bb.net) == (0, 0, 1, 1)


def test_all_in_on_the_flop_counts_at_its_equity():
    """AhKh against QsQd all in on Ks7d2c: the kings-up hand wins 903 of the 990 run-outs
    (no ties), whatever the turn and river dealt."""
    hand = deal([100, 100], hole=["QsQd", "AhKh"], board="Ks7d2c3s3d")  # QQ is the BB
    act(hand, "c", "x", "x", "b 98", "c")  # limp, check; flop: BB checks, button shoves
    qq, ak = facts_of(hand, 0), facts_of(hand, 1)
    assert ak.all_in_adjusted == qq.all_in_adjusted == 1
    pot = 200
    assert ak.net == 100 and qq.net == -100  # AK won the run-out
    assert ak.all_in_net == round(903 / 990 * pot) - 100
    assert qq.all_in_net == round(87 / 990 * pot) - 100


def test_all_in_after_the_river_is_not_adjusted():
    hand = deal([100, 100], hole=["QsQd", "AhKh"], board="Ks7d2c3s3d")
    act(hand, "c", "x", "x", "x", "x", "x", "x", "b 98", "c")
    assert facts_of(hand, 1).all_in_adjusted == 0


def test_rake_paid_is_shared_by_what_each_put_in():
    house = load_preset("titan")
    game = house.game(Variant.HOLDEM, Structure.NO_LIMIT, 200)
    hand = deal(
        [20_000, 20_000, 20_000],
        game=game,
        house=house,
        hole=["2h3c", "KcKd", "AhAd"],
        board="2s7h9c3d4s",
    )
    act(hand, "r 600", "f", "c", "x", "x", "x", "x", "x", "x")
    replayed = stored(hand)
    shares = rake_shares(viewer_hand(replayed, 0))
    assert replayed.rake > 0 and sum(shares) == replayed.rake
    # SB put in 100 of 1,300: its share is the rake's 100/1300, rounded.
    assert abs(shares[SB] - replayed.rake * 100 / 1300) < 1
    assert shares[BB] == shares[BTN] or abs(shares[BB] - shares[BTN]) == 1
    assert facts_of(hand, BTN).rake_paid == shares[BTN]


@pytest.mark.parametrize(
    ("players", "names"),
    [
        (4, ["SB", "BB", "UTG", "BTN"]),
        (5, ["SB", "BB", "UTG", "CO", "BTN"]),
        (10, ["SB", "BB", "UTG", "UTG+1", "UTG+2", "UTG+3", "LJ", "HJ", "CO", "BTN"]),
    ],
)
def test_positions_are_named_for_the_table_size(players, names):
    assert [position_name(p, players) for p in range(players)] == names


def test_the_page_adds_up_the_hands_and_keeps_cash_and_tournaments_apart():
    hands = [three_bet_pot(), cbet_to_showdown(), three_bet_pot()]
    facts = [
        facts_of(h, BTN, hand_id=k, at=AT + timedelta(days=k), tournament=k == 2)
        for k, h in enumerate(hands)
    ]
    page = results_page(facts)
    cash, tournament = page.cash.overall, page.tournament.overall
    assert (cash.hands, tournament.hands) == (2, 1)
    assert cash.vpip == 100.0 and cash.pfr == 100.0
    assert cash.fold_to_three_bet == 100.0 and cash.three_bet is None
    assert cash.cbet == 100.0 and cash.wtsd == 100.0 and cash.wsd == 100.0
    assert cash.net == -6 + 15 and tournament.net == -6
    assert cash.net_showdown == 15 and cash.net_without_showdown == -6
    assert [p.net for p in page.cash.by_hands] == [-6, 9]
    assert [p.day for p in page.cash.by_day] == [date(2026, 11, 29), date(2026, 11, 30)]
    # Each point names its last hand and that hand's table: the replayer opens it.
    assert [(p.hand, p.table) for p in page.cash.by_hands] == [(0, "t1"), (1, "t1")]
    assert [p.hand for p in results_page(facts, points=1).cash.by_hands] == [1]
    assert set(page.cash.by_position) == {"BTN"}
    only_first = results_page(facts, Filters(until=date(2026, 11, 29)))
    assert only_first.cash.overall.hands == 1
    assert results_page(facts, Filters(position="SB")).cash.overall.hands == 0
    assert cash.bb_per_100 == pytest.approx(100 * 9 / 2 / 2)
