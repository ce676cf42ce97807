"""Dealing, cancelling and timing out: R-DECK-1, R-DECK-3, R-DECK-5, R-BTN-3, R-BTN-4, R-TIME-2."""

import pytest

from pokerroom.cards import Card
from pokerroom.engine import (
    Action,
    ActionKind,
    Hand,
    HandOverError,
    NotYourTurnError,
    Phase,
    Player,
    SetupError,
)
from pokerroom.engine.events import (
    ActionTaken,
    BoardDealt,
    HandCancelled,
    HoleCardsDealt,
    PlayerProtected,
)
from pokerroom.rng import SeededRandomSource
from pokerroom.rules import load_preset
from tests.helpers.hands import act, checks_down, deal, spec


def codes(cards):
    return [c.code for c in cards]


def test_R_DECK_1_each_hand_a_fresh_shuffled_deck_and_no_card_twice() -> None:
    players = [Player(seat=s, stack=100) for s in (1, 2, 3)]
    first = Hand(spec=spec(), players=players)
    second = Hand(spec=spec(), players=players)
    assert first.deck != second.deck  # the OS CSPRNG, a new order every hand
    checks_down(first)
    dealt = [c for i in range(3) for c in first.hole[i]] + first.board
    assert len(set(dealt)) == len(dealt) == 11
    with pytest.raises(SetupError, match="all 52 card codes"):
        Hand(spec=spec(), players=players, deck=[0] * 52)


def test_seeded_source_replays_the_same_deal() -> None:
    players = [Player(seat=s, stack=100) for s in (1, 2, 3)]
    a = Hand(spec=spec(), players=players, rng=SeededRandomSource(42))
    b = Hand(spec=spec(), players=players, rng=SeededRandomSource(42))
    assert a.deck == b.deck and a.hole == b.hole


def test_R_BTN_3_one_card_at_a_time_from_the_left_of_the_button_R_DECK_3_burns() -> None:
    hand = Hand(spec=spec(), players=[Player(seat=s, stack=100) for s in (1, 2, 3)], deck=range(52))
    dealt = {e.position: codes(e.cards) for e in hand.events if isinstance(e, HoleCardsDealt)}
    assert dealt == {0: [0, 3], 1: [1, 4], 2: [2, 5]}  # the button (2) gets the last card
    checks_down(hand)
    boards = [codes(e.cards) for e in hand.events if isinstance(e, BoardDealt)]
    assert boards == [[7, 8, 9], [11], [13]]  # 6, 10 and 12 were burned


def test_R_BTN_4_the_button_stays_even_if_its_player_folds() -> None:
    hand = deal([100, 100, 100])
    act(hand, "f")
    assert hand.button == 2 and hand.seats[hand.button] == 3
    act(hand, "c", "x")
    assert hand.street_name == "flop" and hand.actor == 0


def test_R_DECK_5_cancel_returns_every_committed_chip() -> None:
    hand = deal([100, 100, 100, 100], game=spec(ante=1), posts=[])
    act(hand, "r 10", "c", "c", "c")
    act(hand, "b 20", "c")
    events = hand.cancel("server fault")
    assert isinstance(events[-1], HandCancelled)
    assert hand.stacks == [100, 100, 100, 100] and hand.phase is Phase.CANCELLED
    assert events[-1].refunds == (31, 31, 11, 11)
    with pytest.raises(HandOverError, match="cancelled"):
        act(hand, "x")
    with pytest.raises(HandOverError):
        hand.cancel()


def test_R_TIME_2_check_fold_policy() -> None:
    hand = deal([100, 100, 100])  # the standard house: check_fold
    act(hand, "t")  # facing the big blind: folded
    assert hand.folded[2]
    act(hand, "c", "x", "t")  # on the flop with no bet: checked
    timed = [(e.action, e.timed_out) for e in hand.events if isinstance(e, ActionTaken)]
    assert timed[0] == ("fold", True) and timed[-1] == ("check", True)


def test_R_TIME_2_all_in_protection_keeps_the_player_in_for_what_they_put_in() -> None:
    house = load_preset("multipoker")
    hand = deal([100, 100, 100], house=house, hole=["AsAd", "KsKd", "QsQd"], board="2c7h9dTc3s")
    act(hand, "t")  # the button has no chips in: folded
    assert hand.folded[2]
    hand = deal([100, 100, 100], house=house, hole=["AsAd", "KsKd", "QsQd"], board="2c7h9dTc3s")
    act(hand, "c", "c", "x")  # everyone has 2 in
    act(hand, "t")  # the small blind times out on the flop: protected, not folded
    assert [e for e in hand.events if isinstance(e, PlayerProtected)] and not hand.folded[0]
    act(hand, "b 20", "c")  # the others bet into a side pot
    checks_down(hand)
    # Aces win only the main pot (3 x 2); the side pot of 40 goes to the kings.
    assert hand.stacks == [104, 118, 78]


def test_hole_cards_are_cards() -> None:
    hand = deal([100, 100], hole=["AsKd", "7c7d"])
    assert hand.hole_cards(0) == (Card.parse("As"), Card.parse("Kd"))


def test_timeout_of_someone_not_to_act_is_refused() -> None:
    hand = deal([100, 100, 100])
    with pytest.raises(NotYourTurnError, match="it is seat 3's turn"):
        hand.apply(Action(ActionKind.TIMEOUT), 0)
