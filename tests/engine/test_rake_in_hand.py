"""Rake in a hand: R-RAKE-1 (recorded, no flop no drop, every pot at the casino), R-RAKE-5."""

from dataclasses import replace

from pokerroom.engine.events import PotAwarded, RakeTaken
from pokerroom.history.phh import write_phh
from pokerroom.rules import load_preset
from tests.helpers.hands import act, checks_down, deal, spec

NL_1_2 = spec(sb=100, bb=200)  # cents: $1/$2


def rake_events(hand):
    return [(e.amount, e.pot) for e in hand.events if isinstance(e, RakeTaken)]


def test_R_RAKE_1_the_rake_is_taken_before_payout_and_recorded() -> None:
    house = load_preset("multipoker")  # PL/NL: 5 cents per full dollar, cap by players
    hand = deal([100_000] * 6, game=NL_1_2, house=house, hole=["AsAd"], board="2c7h9dTc3s")
    act(hand, "c", "c", "c", "c", "c", "x")  # six limps: $12 pot
    checks_down(hand)
    assert rake_events(hand) == [(60, 1200)]
    paid = sum(e.amount for e in hand.events if isinstance(e, PotAwarded))
    assert paid == 1140 and sum(hand.stacks) + hand.rake == 600_000
    assert "_rake = 60" in write_phh(hand)


def test_R_RAKE_1_no_flop_no_drop() -> None:
    titan = load_preset("titan")

    def preflop_pot(house):
        hand = deal([100_000] * 3, game=NL_1_2, house=house)
        act(hand, "r 1000", "c", "r 3000", "f", "f")  # $30 in the middle, no flop
        assert hand.is_over and not hand.board
        return hand

    hand = preflop_pot(titan)
    assert rake_events(hand) == [] and hand.rake == 0
    assert hand.stacks == [99_000, 102_000, 99_000]  # the big blind takes all $30
    # The same pot is raked when the option is off, and a pot that sees the flop is raked.
    assert rake_events(preflop_pot(replace(titan, no_flop_no_drop=False)))[0][1] == 3000
    flopped = deal([100_000] * 3, game=NL_1_2, house=titan)
    act(flopped, "r 1000", "c", "c", "b 1000", "f", "f")
    assert flopped.board and flopped.rake > 0 and rake_events(flopped)[0][1] == 3000


def test_R_RAKE_1_the_casino_rakes_every_pot_even_uncontested() -> None:
    hand = deal([100_000] * 4, game=NL_1_2, house=load_preset("casino"))
    act(hand, "r 2000", "f", "f", "f")  # $5 after the uncalled $18 goes back
    assert rake_events(hand) == [(25, 500)]


def test_R_RAKE_5_rake_comes_from_the_main_pot_first() -> None:
    house = load_preset("casino")
    hand = deal(
        [300, 10_000, 10_000, 10_000],
        game=spec(sb=50, bb=100),
        house=house,
        hole=["AsAd", "KsKd", "QsQd", "JsJd"],
        board="2c7h9dTc3s",
    )
    act(hand, "r 1000", "c", "c", "c")  # the small blind is all-in for 300
    checks_down(hand)
    awards = [(e.pot, e.amount) for e in hand.events if isinstance(e, PotAwarded)]
    main = 4 * 300
    side = 3 * 700
    total = main + side
    rake = min(total // 100 * 5, 300)
    assert rake_events(hand) == [(rake, total)]
    assert sorted(awards) == [(0, main - rake), (1, side)]
