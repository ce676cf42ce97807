"""All-in, side pots and showdown: R-POT-*, R-SHOW-*."""

import pytest

from pokerroom.engine import IllegalActionError, Phase, view_for
from pokerroom.engine.events import (
    CardsShown,
    HandMucked,
    PotAwarded,
    UncalledBetReturned,
)
from pokerroom.engine.pots import Pot, build_pots, split
from pokerroom.history.phh import write_phh
from pokerroom.rules import load_preset
from tests.helpers.hands import act, checks_down, deal, spec

LIMIT = spec(structure="fixed_limit", sb=1, bb=2)


def awards(hand):
    return [(e.pot, e.share, e.winners) for e in hand.events if isinstance(e, PotAwarded)]


def showdown(hand):
    return [
        ("show" if isinstance(e, CardsShown) else "muck", e.position)
        for e in hand.events
        if isinstance(e, CardsShown | HandMucked)
    ]


def test_R_POT_1_all_in_wins_only_what_it_matched() -> None:
    hand = deal([50, 300, 300], hole=["AsAd", "KsKd", "QsQd"], board="2c7h9dTc3s")
    act(hand, "r 300", "c", "c")
    assert hand.phase is Phase.COMPLETE
    assert awards(hand) == [(1, "whole", ((1, 500),)), (0, "whole", ((0, 150),))]
    assert hand.stacks == [150, 500, 0]


def test_R_POT_2_R_POT_3_layered_side_pots_settled_last_first() -> None:
    hand = deal([50, 100, 200, 400], hole=["AsAd", "KsKd", "QsQd", "JsJd"], board="2c7h9dTc3s")
    act(hand, "r 200", "c", "c", "c")
    assert awards(hand) == [
        (2, "whole", ((2, 200),)),
        (1, "whole", ((1, 150),)),
        (0, "whole", ((0, 200),)),
    ]
    assert hand.stacks == [200, 150, 200, 200]


def test_build_pots_layers_and_dead_money() -> None:
    assert build_pots([50, 100, 200, 200], 0, [True] * 4) == [
        Pot(200, (0, 1, 2, 3)),
        Pot(150, (1, 2, 3)),
        Pot(200, (2, 3)),
    ]
    # A folded player's chips stay in the pots it reached; it is eligible for none.
    assert build_pots([50, 100, 100], 10, [True, False, True]) == [
        Pot(160, (0, 2)),
        Pot(100, (2,)),
    ]


def test_R_SHOW_6_split_gives_odd_chips_first_left_of_the_button() -> None:
    assert split(5, [2, 0]) == [(0, 3), (2, 2)]
    assert split(7, [1, 3, 4]) == [(1, 3), (3, 2), (4, 2)]
    hand = deal([100, 100, 100], hole=["2c3d", "4c5d", "6c7d"], board="AsKsQsJsTs")
    act(hand, "c", "f", "x")  # pot 5: the big blind and the button tie on the board
    checks_down(hand)
    assert awards(hand) == [(0, "whole", ((1, 3), (2, 2)))]


def test_R_POT_4_uncalled_bet_goes_back() -> None:
    hand = deal([100, 100, 100])
    act(hand, "r 50", "f", "f")
    returned = [e for e in hand.events if isinstance(e, UncalledBetReturned)]
    assert [(e.position, e.amount) for e in returned] == [(2, 48)]
    assert hand.stacks == [99, 98, 103]
    heads_up = deal([100, 300], hole=["AsAd", "KsKd"], board="2c7h9dTc3s")
    act(heads_up, "r 300", "c")
    assert [
        (e.position, e.amount) for e in heads_up.events if isinstance(e, UncalledBetReturned)
    ] == [(1, 200)]
    assert heads_up.stacks == [200, 200]


def test_R_POT_5_last_player_wins_without_showing() -> None:
    hand = deal([100, 100, 100])
    act(hand, "c", "c", "x", "b 4", "f", "f")
    assert showdown(hand) == [] and hand.stacks == [104, 98, 98]


def test_R_SHOW_1_R_SHOW_7_cards_speak_and_the_hand_is_named() -> None:
    hand = deal([100, 100], hole=["Kh7d", "QhQc"], board="Ks7s7cKd2h")
    checks_down(hand)
    assert awards(hand) == [(0, "whole", ((0, 4),))]
    won = next(e for e in hand.events if isinstance(e, PotAwarded))
    assert won.hand == "Full House, Kings over Sevens"


def test_R_SHOW_2_the_board_plays_and_splits() -> None:
    hand = deal([100, 100], hole=["2c3d", "4h5h"], board="AsKsQsJsTs")
    checks_down(hand)
    assert awards(hand) == [(0, "whole", ((0, 2), (1, 2)))]


def test_R_SHOW_3_omaha_uses_exactly_two_hole_cards() -> None:
    game = spec("omaha", "pot_limit")
    hand = deal([100, 100], game=game, hole=["AsKsQsJs", "2c2d7h8h"], board="Ts9s3d4c5h")
    checks_down(hand)
    assert awards(hand) == [(0, "whole", ((1, 4),))]  # no flush with one board spade short


def test_R_SHOW_4_last_river_aggressor_shows_first_and_losers_may_muck() -> None:
    hand = deal([100, 100, 100], hole=["7c2d", "8c3d", "AhAd"], board="KsQsJd5h4c")
    act(hand, "c", "c", "x")
    act(hand, "x", "x", "x", "x", "x", "x")
    act(hand, "x", "b 10", "c", "c")  # river: position 1 bets
    assert showdown(hand) == [("show", 1), ("show", 2), ("muck", 0)]


def test_R_SHOW_4_without_a_river_bet_first_left_of_the_button_shows_first() -> None:
    hand = deal([100, 100, 100], hole=["7c2d", "8c3d", "AhAd"], board="KsQsJd5h4c")
    checks_down(hand)
    assert showdown(hand) == [("show", 0), ("show", 1), ("show", 2)]


def test_R_SHOW_4_all_in_players_always_show() -> None:
    hand = deal([10, 100, 100], hole=["7c2d", "AhAd", "KcKd"], board="KsQsJd5h4c")
    act(hand, "c", "r 10", "c", "c")
    checks_down(hand)
    assert ("show", 0) in showdown(hand)  # a losing all-in hand is still shown


def test_R_SHOW_4_last_aggressor_must_show_policy() -> None:
    house = load_preset("fortune")
    hand = deal(
        [100, 100, 100],
        game=LIMIT,
        house=house,
        hole=["7c2d", "8c3d", "AhAd"],
        board="KsQsJd5h4c",
        auto_showdown=False,
    )
    act(hand, "c", "c", "x", "x", "x", "x", "x", "x", "x", "x", "b 4", "c", "c")
    assert hand.phase is Phase.SHOWDOWN and hand.actor == 1
    with pytest.raises(IllegalActionError, match="last bettor on the river must show"):
        act(hand, "muck")
    act(hand, "show", "show", "muck")
    assert showdown(hand) == [("show", 1), ("show", 2), ("muck", 0)]


def test_R_SHOW_4_all_show_policy_shows_every_hand() -> None:
    casino = load_preset("casino")
    hand = deal(
        [500, 500, 500, 500],
        game=spec(sb=5, bb=10),
        house=casino,
        hole=["7c2d", "8c3d", "AhAd", "9h9c"],
        board="KsQsJd5h4c",
    )
    checks_down(hand)
    assert [what for what, _ in showdown(hand)] == ["show"] * 4


def test_R_SHOW_5_ties_split_kickers_count_suits_never() -> None:
    kicker = deal([100, 100], hole=["AhKd", "AdQc"], board="As9s7c4h2d")
    checks_down(kicker)
    assert awards(kicker) == [(0, "whole", ((0, 4),))]
    tie = deal([100, 100], hole=["AhKd", "AdKc"], board="As9s7c4h2d")
    checks_down(tie)
    assert awards(tie) == [(0, "whole", ((0, 2), (1, 2)))]


def test_R_SHOW_8_a_mucked_hand_is_never_shown_during_the_hand() -> None:
    hand = deal(
        [100, 100, 100], hole=["AhAd", "7c2d", "8c3d"], board="KsQsJd5h4c", auto_showdown=False
    )
    act(hand, "c", "c", "x", "x", "x", "x", "x", "x", "x", "b 10", "c", "c")
    act(hand, "show", "muck")  # the bettor shows aces; the next player mucks 7c2d
    assert hand.phase is Phase.SHOWDOWN and hand.actor == 2  # the hand goes on
    for viewer in (None, 0, 2):
        seen = view_for(hand, viewer)
        assert seen.seats[1].mucked and seen.seats[1].cards is None
        assert seen.seats[0].cards is not None  # the shown aces are public
    assert view_for(hand, 1).seats[1].cards is not None  # the owner still sees them
    act(hand, "muck")
    assert hand.is_over and view_for(hand, 0).seats[1].cards is None


def test_R_SHOW_8_mucked_hands_stay_in_the_record_but_hidden() -> None:
    hand = deal([100, 100, 100], hole=["7c2d", "8c3d", "AhAd"], board="KsQsJd5h4c")
    act(hand, "c", "c", "x", "x", "x", "x", "x", "x", "x", "x", "b 10", "c", "c")
    assert ("muck", 0) in showdown(hand)
    assert "d dh p1 7c2d" in write_phh(hand)  # the record keeps the mucked cards
    seen_by_winner = view_for(hand, 2)
    assert seen_by_winner.seats[0].cards is None and seen_by_winner.seats[0].mucked
    assert seen_by_winner.seats[1].cards is not None  # shown cards are public


def test_R_SHOW_9_a_mucked_hand_gives_up_the_pot() -> None:
    hand = deal([100, 100], hole=["AhAd", "7c2d"], board="KsQsJd5h4c", auto_showdown=False)
    checks_down(hand)
    assert hand.phase is Phase.SHOWDOWN and hand.actor == 0
    act(hand, "muck")  # the best hand mucks
    assert hand.phase is Phase.COMPLETE
    assert hand.stacks == [98, 102]
