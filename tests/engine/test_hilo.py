"""Omaha Hi-Lo in the engine: R-HILO-1 .. R-HILO-8."""

from pokerroom.engine.events import PotAwarded
from tests.helpers.hands import act, checks_down, deal, spec

O8 = spec("omaha_hilo", "fixed_limit", sb=1, bb=2)


def awards(hand):
    return [(e.share, e.amount, e.winners) for e in hand.events if isinstance(e, PotAwarded)]


def test_R_HILO_1_pot_split_between_best_high_and_best_low() -> None:
    hand = deal([100, 100], game=O8, hole=["As2d7c6d", "KhKcQdJd"], board="3h5s8cKsTd")
    checks_down(hand)
    assert awards(hand) == [("high", 2, ((1, 2),)), ("low", 2, ((0, 2),))]


def test_R_HILO_2_straights_and_flushes_do_not_hurt_a_low() -> None:
    hand = deal(
        [100, 100], game=O8, hole=["As2dKcQh", "KsKdJcTc"], board="3h4c5dJsTs", auto_showdown=False
    )
    checks_down(hand)
    act(hand, "show", "show")  # both hands contest both halves
    # The wheel is both the best low and a straight that wins the high: a scoop.
    assert awards(hand) == [("high", 2, ((0, 2),)), ("low", 2, ((0, 2),))]
    assert [e.hand for e in hand.events if isinstance(e, PotAwarded)] == [
        "Straight, Five high",
        "5-4-3-2-A",
    ]


def test_R_HILO_3_equal_lows_split_the_low_half() -> None:
    hand = deal(
        [100, 100, 100], game=O8, hole=["As2dKhQh", "Ac2cJdJs", "KcKdTsTd"], board="3h5s8cKs9d"
    )
    checks_down(hand)  # pot 6: high 3, low 3 quartered 2 + 1 (odd chip left of the button)
    assert awards(hand) == [("high", 3, ((2, 3),)), ("low", 3, ((0, 2), (1, 1)))]


def test_R_HILO_4_high_and_low_may_use_different_hole_cards() -> None:
    hand = deal(
        [100, 100], game=O8, hole=["AhKhKd2c", "QcQdJsTs"], board="KcQs3d5h8s", auto_showdown=False
    )
    checks_down(hand)
    act(hand, "show", "show")
    won = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert [(e.share, e.winners, e.hand) for e in won] == [
        ("high", ((0, 2),), "Three of a Kind, Kings"),
        ("low", ((0, 2),), "8-5-3-2-A"),
    ]


def test_R_HILO_5_R_HILO_8_no_low_without_three_low_ranks_on_board() -> None:
    hand = deal([100, 100], game=O8, hole=["As2d7c6d", "KhKcQdJd"], board="3h5sJcKsTd")
    checks_down(hand)
    assert awards(hand) == [("whole", 4, ((1, 4),))]


def test_R_HILO_6_odd_chip_between_halves_goes_high() -> None:
    hand = deal(
        [100, 100, 100], game=O8, hole=["9h9dTcJc", "As2d7c6d", "KhKcQdJd"], board="3h5s8cKsTd"
    )
    act(hand, "c", "f", "x")  # pot 5 between positions 1 and 2
    checks_down(hand)
    assert awards(hand) == [("high", 3, ((2, 3),)), ("low", 2, ((1, 2),))]


def test_R_HILO_7_one_card_plays_in_both_halves() -> None:
    hand = deal(
        [100, 100], game=O8, hole=["As2sKdKc", "QhQcJdTd"], board="3s4s8sJhQs", auto_showdown=False
    )
    checks_down(hand)
    act(hand, "show", "show")
    won = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert [(e.share, e.winners, e.hand) for e in won] == [
        ("high", ((0, 2),), "Flush, Ace high"),
        ("low", ((0, 2),), "8-4-3-2-A"),
    ]


def test_R_HILO_1_a_scoop_after_the_other_hand_mucks_names_both_halves() -> None:
    hand = deal([100, 100], game=O8, hole=["As2dKcQh", "KsKdJcTc"], board="3h4c5dJsTs")
    checks_down(hand)  # automatic showdown: the beaten hand is mucked
    won = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert [(e.share, e.winners, e.hand) for e in won] == [
        ("whole", ((0, 4),), "Straight, Five high; 5-4-3-2-A low")
    ]
