"""Blinds and betting within a hand: R-BLIND-*, R-ROUND-*, R-LIM-*, R-PL-*, R-NL-*."""

import pytest

from pokerroom.engine import (
    Action,
    ActionKind,
    ExtraPost,
    IllegalActionError,
    InvalidAmountError,
    NotYourTurnError,
    Phase,
)
from pokerroom.engine.events import ActionTaken, BoardDealt, ForcedBet, HoleCardsDealt
from pokerroom.rules import load_preset
from pokerroom.rules.house import STANDARD
from tests.helpers.hands import act, checks_down, deal, spec

LIMIT = spec(structure="fixed_limit", sb=1, bb=2)
PL = spec(structure="pot_limit", sb=1, bb=2)


def posts(hand):  # (position, what, amount, dead)
    return [(e.position, e.what, e.amount, e.dead) for e in hand.events if isinstance(e, ForcedBet)]


def test_R_BLIND_1_small_blind_left_of_button_then_big_blind() -> None:
    hand = deal([100, 100, 100, 100])
    assert posts(hand) == [(0, "small_blind", 1, False), (1, "big_blind", 2, False)]
    assert hand.button == 3


def test_R_BLIND_2_limit_big_blind_is_the_small_bet() -> None:
    hand = deal([100, 100, 100], game=spec(structure="fixed_limit", sb=5, bb=10))
    assert posts(hand)[1] == (1, "big_blind", 10, False)
    legal = hand.legal_actions()
    assert legal and legal.min_raise_to == legal.max_raise_to == 20  # raise by one small bet


def test_R_BLIND_4_blinds_are_live_big_blind_has_the_option() -> None:
    hand = deal([100, 100, 100])
    act(hand, "c", "c")  # button calls, small blind completes
    legal = hand.legal_actions()
    assert hand.actor == 1 and legal and legal.can_check and legal.can_raise
    act(hand, "r 8")  # the big blind raises its own live blind
    assert hand.actor == 2 and hand.current_bet == 8


def test_R_BLIND_4_small_blind_may_raise_when_action_returns() -> None:
    hand = deal([100, 100, 100])
    act(hand, "c")
    legal = hand.legal_actions()
    assert hand.actor == 0 and legal and legal.call_amount == 1 and legal.min_raise_to == 4


def test_R_BLIND_5_heads_up_button_posts_small_blind_acts_first_then_last() -> None:
    hand = deal([100, 100])
    # Position 1 is the button: it posts the small blind and acts first pre-flop.
    assert posts(hand) == [(0, "big_blind", 2, False), (1, "small_blind", 1, False)]
    assert hand.actor == 1
    act(hand, "c", "x")
    assert hand.street_name == "flop" and hand.actor == 0  # last after the flop


def test_R_BLIND_7_a_short_blind_posts_what_it_has_and_is_all_in() -> None:
    hand = deal([100, 1, 100], game=spec(sb=2, bb=4))
    assert posts(hand)[1] == (1, "big_blind", 1, False)
    assert hand.all_in[1]
    act(hand, "c")  # the button calls the full big blind, not the 1 it was posted short
    assert hand.bets[2] == 4


def test_R_BLIND_7_a_short_big_blind_keeps_its_size_call_200_min_raise_400() -> None:
    # 100/200 no-limit; the big blind has only 150 and is all-in.
    hand = deal([10_000, 150, 10_000, 10_000], game=spec(sb=100, bb=200))
    assert posts(hand) == [(0, "small_blind", 100, False), (1, "big_blind", 150, False)]
    legal = hand.legal_actions()
    assert legal and (legal.call_amount, legal.min_raise_to) == (200, 400)
    with pytest.raises(InvalidAmountError, match="minimum is 400"):
        act(hand, "r 350")
    act(hand, "c")
    legal = hand.legal_actions()  # the button: the same
    assert legal and (legal.call_amount, legal.min_raise_to) == (200, 400)
    act(hand, "c")
    legal = hand.legal_actions()
    assert hand.actor == 0 and legal and legal.call_amount == 100  # the small blind completes
    act(hand, "c")
    assert hand.street_name == "flop" and hand.pot == 150 + 3 * 200


def test_R_BLIND_7_against_the_short_blind_alone_only_its_chips_are_called() -> None:
    # Everyone else folds: the small blind can only be called for the 150 the big blind has.
    hand = deal([10_000, 150, 10_000, 10_000], game=spec(sb=100, bb=200))
    act(hand, "f", "f")
    legal = hand.legal_actions()
    assert hand.actor == 0 and legal and legal.call_amount == 50 and not legal.can_raise
    act(hand, "c")
    assert hand.phase is Phase.COMPLETE and sum(hand.stacks) == 30_150
    heads_up = deal([150, 10_000], game=spec(sb=100, bb=200))  # big blind short heads-up
    legal = heads_up.legal_actions()
    assert heads_up.actor == 1 and legal and legal.call_amount == 50


def test_R_BLIND_7_limit_bets_keep_their_fixed_size_after_a_short_big_blind() -> None:
    hand = deal([10_000, 150, 10_000, 10_000], game=spec(structure="fixed_limit", sb=100, bb=200))
    legal = hand.legal_actions()
    assert legal and legal.call_amount == 200 and legal.min_raise_to == legal.max_raise_to == 400
    act(hand, "r 400", "c", "c")
    assert hand.street_name == "flop"
    assert hand.legal_actions().min_raise_to == 200  # the small bet, as always


def test_R_BLIND_8_a_new_players_big_blind_is_live() -> None:
    hand = deal([100, 100, 100, 100], posts=[ExtraPost(position=3, live=2)])
    assert (3, "live_post", 2, False) in posts(hand)
    act(hand, "c")  # position 2 calls the big blind
    legal = hand.legal_actions()
    assert hand.actor == 3 and legal and legal.can_check  # already in for the big blind
    act(hand, "x", "c", "x")
    assert hand.street_name == "flop" and hand.pot == 8


def test_R_BLIND_8_R_SEAT_3_dead_small_blind_goes_to_the_pot_not_the_bet() -> None:
    hand = deal([100, 100, 100, 100], posts=[ExtraPost(position=3, live=2, dead=1)])
    assert hand.pot == 1 + 2 + 2 + 1
    act(hand, "c")
    legal = hand.legal_actions()
    assert hand.actor == 3 and legal and legal.can_check and hand.bets[3] == 2


def test_R_ROUND_1_four_rounds_and_the_cards_of_each() -> None:
    hand = deal([100, 100, 100])
    assert [len(e.cards) for e in hand.events if isinstance(e, HoleCardsDealt)] == [2, 2, 2]
    checks_down(hand)
    dealt = [(e.street, len(e.cards)) for e in hand.events if isinstance(e, BoardDealt)]
    assert dealt == [("flop", 3), ("turn", 1), ("river", 1)]
    omaha = deal([100, 100], game=spec("omaha", "pot_limit"))
    assert [len(e.cards) for e in omaha.events if isinstance(e, HoleCardsDealt)] == [4, 4]


def test_R_ROUND_2_first_to_act_preflop_left_of_big_blind_and_cannot_check() -> None:
    hand = deal([100, 100, 100, 100, 100])
    assert hand.actor == 2
    with pytest.raises(IllegalActionError, match="cannot check: facing a bet of 2"):
        act(hand, "x")
    act(hand, "c", "c", "c", "c", "x")
    assert hand.street_name == "flop" and hand.actor == 0  # first active left of the button


def test_R_ROUND_2_after_the_flop_a_folded_small_blind_is_skipped() -> None:
    hand = deal([100, 100, 100])
    act(hand, "c", "f", "x")
    assert hand.street_name == "flop" and hand.actor == 1


def test_R_ROUND_3_check_only_without_a_bet() -> None:
    hand = deal([100, 100, 100])
    act(hand, "c", "c", "x", "b 4")
    with pytest.raises(IllegalActionError) as info:
        act(hand, "x")
    assert str(info.value) == "seat 2 cannot check: facing a bet of 4 (to call: 4)"
    flop = deal([100, 100, 100])
    act(flop, "c", "c", "x")
    with pytest.raises(IllegalActionError, match="no bet to call"):
        act(flop, "c")


def test_R_ROUND_4_round_ends_when_all_have_acted_and_matched() -> None:
    hand = deal([100, 100, 100])
    act(hand, "c", "c")
    assert hand.street_name == "preflop"  # the big blind has not acted yet
    act(hand, "x")
    assert hand.street_name == "flop"
    act(hand, "b 4", "r 12", "c")
    assert hand.street_name == "flop" and hand.actor == 0  # the bettor must answer the raise
    act(hand, "c")
    assert hand.street_name == "turn"


def test_R_ROUND_4_one_player_left_ends_the_hand() -> None:
    hand = deal([100, 100, 100])
    act(hand, "r 6", "f", "f")
    assert hand.phase is Phase.COMPLETE


def test_R_ROUND_5_raiser_cannot_raise_again_unless_reraised() -> None:
    hand = deal([100, 100, 100])
    act(hand, "r 6", "c", "c")  # everyone called the raise: round over
    assert hand.street_name == "flop"
    act(hand, "b 10", "r 30", "c")
    legal = hand.legal_actions()
    assert hand.actor == 0 and legal and legal.can_raise  # re-raised: may raise again


def test_R_ROUND_5_R_NL_2_short_all_in_does_not_reopen_betting() -> None:
    hand = deal([100, 100, 100, 100, 25])
    act(hand, "r 10", "c", "c", "f", "f")  # three see the flop; the button has 15 left
    act(hand, "b 10", "c", "r 15")  # the button's all-in is 5 more: less than a full raise
    legal = hand.legal_actions()
    assert hand.actor == 2 and legal and not legal.can_raise and legal.call_amount == 5
    with pytest.raises(IllegalActionError, match="not reopened by a full raise"):
        act(hand, "r 40")


def test_R_NL_2_short_all_ins_that_add_up_to_a_full_raise_reopen() -> None:
    hand = deal([200, 200, 200, 115, 130, 200])
    act(hand, "r 100", "r 115", "r 130", "c", "f", "f")  # 15 and 15 more: short, short
    legal = hand.legal_actions()
    assert hand.actor == 2 and legal and not legal.can_raise  # 30 since it acted: < 98
    hand2 = deal([300, 300, 300, 140, 205, 300])
    act(hand2, "r 100", "r 140", "r 205", "c", "f", "f")  # 105 since pos 2 acted: >= 98
    assert hand2.actor == 2 and hand2.legal_actions().can_raise


def test_R_ROUND_6_fold_any_time_and_no_claim() -> None:
    hand = deal([100, 100, 100])
    act(hand, "c", "c", "x", "f")  # the small blind folds though it could check
    assert hand.folded[0]
    act(hand, "x", "x")
    checks_down(hand)
    assert hand.winnings[0] == 0


def test_R_LIM_1_small_bet_then_big_bet() -> None:
    hand = deal([100, 100, 100], game=LIMIT)
    assert hand.legal_actions().min_raise_to == 4
    act(hand, "c", "c", "x")
    assert hand.legal_actions().min_raise_to == 2  # flop: small bet
    act(hand, "x", "x", "x")
    assert hand.legal_actions().min_raise_to == 4  # turn: big bet
    with pytest.raises(InvalidAmountError, match="the limit bet is to 4"):
        act(hand, "b 6")


def test_R_LIM_2_one_bet_and_three_raises_big_blind_counts_preflop() -> None:
    hand = deal([100, 100, 100, 100], game=LIMIT)
    act(hand, "r 4", "r 6", "r 8")  # the big blind was the bet: this is the cap
    legal = hand.legal_actions()
    assert legal and not legal.can_raise and legal.call_amount == 6
    with pytest.raises(IllegalActionError, match="capped at 4 bets"):
        act(hand, "r 10")
    act(hand, "c", "c", "c")
    act(hand, "b 2", "r 4", "r 6", "r 8")  # flop: bet and three raises
    assert not hand.legal_actions().can_raise


def test_R_LIM_3_heads_up_uncapped_at_cash_tables() -> None:
    fortune = load_preset("fortune")
    hand = deal([100, 100], game=LIMIT, house=fortune)
    act(hand, "r 4", "r 6", "r 8", "r 10", "r 12")  # heads-up: no cap
    assert hand.legal_actions().can_raise
    capped = deal([100, 100], game=LIMIT, house=STANDARD)
    act(capped, "r 4", "r 6", "r 8")
    assert not capped.legal_actions().can_raise
    tournament = deal([100, 100], game=LIMIT, house=fortune, cash_table=False)
    act(tournament, "r 4", "r 6", "r 8")
    assert not tournament.legal_actions().can_raise
    three = deal([100, 100, 100], game=LIMIT, house=fortune)
    act(three, "r 4", "r 6", "r 8")  # three players in: the cap holds
    assert not three.legal_actions().can_raise


def test_R_LIM_3_a_round_capped_three_handed_uncaps_when_a_fold_leaves_two() -> None:
    # RULES.md reads 001 literally: "if only two players are left", the raises are unlimited.
    hand = deal([100, 100, 100, 100], game=LIMIT, house=load_preset("fortune"))
    act(hand, "f", "r 4", "r 6", "r 8")  # button, small and big blind: capped with three in
    assert hand.actor == 3 and not hand.legal_actions().can_raise
    act(hand, "f")  # the button folds: two are left
    legal = hand.legal_actions()
    assert hand.actor == 0 and legal and legal.min_raise_to == 10


LIMIT10 = spec(structure="fixed_limit", sb=5, bb=10)  # $10 bets, $20 on the turn and river


def to_the_turn(stacks: list[int]):  # type: ignore[no-untyped-def]
    """A four-handed $10/$20 limit hand checked to the turn: each has put in 10."""
    hand = deal(stacks, game=LIMIT10)
    act(hand, "c", "c", "c", "x", "x", "x", "x", "x")
    assert hand.street_name == "turn" and hand.actor == 0
    return hand


def test_R_LIM_4_an_all_in_bet_of_half_a_bet_or_more_is_a_full_bet() -> None:
    # Robert's Rules' example: on a $20 round a $15 all-in bet is raised to $35.
    hand = to_the_turn([25, 1000, 1000, 1000])
    act(hand, "b 15")
    assert hand.all_in[0] and hand.raises == 1  # counts toward the cap
    legal = hand.legal_actions()
    assert legal and legal.call_amount == 15 and legal.min_raise_to == legal.max_raise_to == 35


def test_R_LIM_4_an_all_in_raise_of_half_a_bet_reopens_the_betting() -> None:
    hand = to_the_turn([1000, 1000, 40, 1000])
    act(hand, "x", "b 20", "r 30")  # position 2 all-in: a raise of 10, half a bet
    assert hand.raises == 2
    act(hand, "c", "c")  # the button calls; the first checker calls
    legal = hand.legal_actions()
    assert hand.actor == 1 and legal and legal.min_raise_to == 50  # the bettor may raise again


def test_R_LIM_4_an_all_in_raise_of_less_than_half_a_bet_reopens_nothing() -> None:
    hand = to_the_turn([1000, 1000, 39, 1000])
    act(hand, "x", "b 20", "r 29")  # a raise of 9: less than half a bet
    assert hand.raises == 1  # not counted toward the cap
    legal = hand.legal_actions()
    # The button had not acted: it may call 29 or raise a full bet over the last full bet.
    assert hand.actor == 3 and legal and legal.call_amount == 29
    assert legal.min_raise_to == legal.max_raise_to == 40
    act(hand, "c", "c")
    legal = hand.legal_actions()
    assert hand.actor == 1 and legal and legal.call_amount == 9 and not legal.can_raise
    with pytest.raises(IllegalActionError, match="not reopened by a full bet or an all-in of"):
        act(hand, "r 49")


def test_R_LIM_4_an_all_in_bet_of_less_than_half_a_bet_may_be_completed() -> None:
    hand = to_the_turn([19, 1000, 1000, 1000])
    act(hand, "b 9")  # all-in for 9 of a $20 bet
    assert hand.raises == 0
    legal = hand.legal_actions()  # fold, call 9, or complete to the full $20
    assert legal and legal.call_amount == 9 and legal.min_raise_to == legal.max_raise_to == 20
    act(hand, "r 20")
    assert hand.raises == 1  # the completion is the bet, not a raise
    legal = hand.legal_actions()
    assert legal and legal.call_amount == 20 and legal.min_raise_to == 40


def test_R_LIM_4_short_all_ins_and_the_cap() -> None:
    # Flop, $10 bets: bet, raise, raise (3 bets), then all-ins of under and of half a bet.
    under = deal([1000, 1000, 1000, 44], game=LIMIT10)
    act(under, "c", "c", "c", "x", "b 10", "r 20", "r 30", "r 34")  # +4 of 10: not counted
    assert under.raises == 3
    legal = under.legal_actions()
    assert legal and legal.min_raise_to == 40  # the fourth bet is still open
    half = deal([1000, 1000, 1000, 45], game=LIMIT10)
    act(half, "c", "c", "c", "x", "b 10", "r 20", "r 30", "r 35")  # +5: half a bet counts
    assert half.raises == 4
    legal = half.legal_actions()
    assert legal and legal.call_amount == 25 and not legal.can_raise  # capped
    with pytest.raises(IllegalActionError, match="capped at 4 bets"):
        act(half, "r 45")


def test_R_LIM_2_no_cap_means_no_cap_in_the_refusal() -> None:
    uncapped = STANDARD.with_options(raise_cap=None)
    hand = deal([1000, 1000, 39, 1000], game=LIMIT10, house=uncapped)
    act(hand, "c", "c", "c", "x", "x", "x", "x", "x")
    act(hand, "x", "b 20", "r 29", "c", "c")  # a short all-in raise: the bettor cannot raise
    with pytest.raises(IllegalActionError) as refused:
        act(hand, "r 49")
    assert "cap" not in str(refused.value) and "None" not in str(refused.value)
    assert "not reopened" in str(refused.value)


def test_R_PL_1_minimum_raise_is_the_previous_raise() -> None:
    hand = deal([1000, 1000, 1000], game=PL)
    act(hand, "r 6")  # a raise of 4
    assert hand.legal_actions().min_raise_to == 10
    with pytest.raises(InvalidAmountError, match="minimum is 10"):
        act(hand, "r 9")


def test_R_PL_2_pot_limit_max_raise_example() -> None:
    # 000: pot $200, A bets $150, B calls $150, C may raise to $800.
    hand = deal([10_000] * 4, game=spec(structure="pot_limit", sb=25, bb=50))
    act(hand, "c", "c", "c", "x")  # four limps of 50: a pot of 200
    assert hand.pot == 200 and hand.street_name == "flop"
    act(hand, "b 150", "c")
    legal = hand.legal_actions()
    assert legal and legal.max_raise_to == 800 and legal.call_amount == 150


def test_R_PL_2_second_worked_example_raise_by_80_to_90() -> None:
    # 002: pot $50, A bets $10, B calls $10, C may raise by $80, to $90.
    hand = deal([1_000] * 5, game=spec(structure="pot_limit", sb=5, bb=10))
    act(hand, "c", "c", "c", "c", "x")  # five limps of 10: a pot of 50
    assert hand.pot == 50
    act(hand, "b 10", "c")
    assert hand.legal_actions().max_raise_to == 90


def test_R_PL_2_preflop_pot_includes_the_blinds() -> None:
    hand = deal([1_000] * 3, game=PL)
    assert hand.legal_actions().max_raise_to == 7  # call 2, then the pot of 5


def test_R_PL_3_active_pot_counts_only_the_contested_side_pot() -> None:
    game = spec(structure="pot_limit", sb=5, bb=10)

    def after_all_in(house):
        hand = deal([1_000, 1_000, 1_000, 30], game=game, house=house)
        act(hand, "c", "r 30", "c", "c", "c")  # the button is all-in for 30: 120 in all
        act(hand, "b 10", "c")  # the others bet and call on the flop
        return hand.legal_actions()

    everything = after_all_in(STANDARD)  # all_pots: 120 + 10 + 10, call 10 -> 10 + 150
    active = after_all_in(load_preset("multipoker"))  # only the side pot (empty) + bets
    assert everything.max_raise_to == 10 + 140 + 10
    assert active.max_raise_to == 10 + 20 + 10


def test_R_PL_3_active_pot_cuts_at_the_highest_of_two_all_ins() -> None:
    game = spec(structure="pot_limit", sb=5, bb=10)

    def after_two_all_ins(house):
        hand = deal([1_000, 1_000, 1_000, 30, 60], game=game, house=house)
        act(hand, "c", "r 30", "r 60", "c", "c", "c")  # all-ins of 30 and 60: 270 in all
        act(hand, "b 10", "c")  # the three covering players bet and call on the flop
        return hand.legal_actions()

    # all_pots: the 270 of both pots + 20 bet, plus the call of 10.
    assert after_two_all_ins(STANDARD).max_raise_to == 10 + 290 + 10
    # active_pot: above the highest all-in (60) nothing is in the middle yet, so only the
    # bets count; a cut at the lower all-in (30) would add 4 x 30 and allow 160.
    assert after_two_all_ins(load_preset("multipoker")).max_raise_to == 10 + 20 + 10


def test_R_NL_1_minimum_raise_previous_raise_maximum_all_chips() -> None:
    hand = deal([500, 500, 500])
    act(hand, "r 7")  # a raise of 5
    legal = hand.legal_actions()
    assert legal.min_raise_to == 12 and legal.max_raise_to == 500
    with pytest.raises(InvalidAmountError) as info:
        act(hand, "r 11")
    assert str(info.value) == "seat 1 cannot raise to 11: minimum is 12"
    with pytest.raises(InvalidAmountError, match="maximum is 500"):
        act(hand, "r 501")
    act(hand, "r 500")
    assert hand.all_in[0]


def test_R_NL_1_all_in_below_the_minimum_is_allowed() -> None:
    hand = deal([500, 500, 9])
    legal = hand.legal_actions()
    assert legal.min_raise_to == 4
    act(hand, "r 4")
    legal = hand.legal_actions()
    assert legal.min_raise_to == 6 and legal.max_raise_to == 500
    hand = deal([500, 500, 3])
    assert hand.legal_actions().min_raise_to == hand.legal_actions().max_raise_to == 3


def test_illegal_actions_name_the_seat_and_change_nothing() -> None:
    hand = deal([100, 100, 100])
    before = (list(hand.stacks), list(hand.bets), len(hand.events), hand.actor)
    with pytest.raises(NotYourTurnError, match="seat 1 cannot fold: it is seat 3's turn"):
        hand.apply(Action(ActionKind.FOLD), 0)
    with pytest.raises(InvalidAmountError, match="whole chips"):
        hand.apply(Action(ActionKind.BET_OR_RAISE, 4.5))  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="the preflop betting is on"):
        hand.apply(Action(ActionKind.SHOW))
    assert (list(hand.stacks), list(hand.bets), len(hand.events), hand.actor) == before
    assert not hand.can_apply(Action(ActionKind.CHECK))
    assert hand.can_apply(Action(ActionKind.CALL))


def test_actions_are_events_with_amounts() -> None:
    hand = deal([100, 100, 100])
    act(hand, "r 6", "c", "f")
    moves = [
        (e.position, e.action, e.added, e.to) for e in hand.events if isinstance(e, ActionTaken)
    ]
    assert moves == [(2, "raise", 6, 6), (0, "call", 5, 6), (1, "fold", 0, 2)]
