"""The same hands under each room's house rules show where the rooms differ."""

import pytest

from pokerroom.engine import Action, ActionKind, ExtraPost
from pokerroom.engine.events import CardsShown, ForcedBet, HandMucked, PlayerProtected
from pokerroom.rules import load_preset
from pokerroom.rules.game import Structure, Variant
from tests.helpers.hands import act, checks_down, deal

# $5/$10 limit hold'em ($5 is the big blind = small bet), in cents.
EXPECTED = {
    #             small blind, rake, showdown (positions: s = shows, m = mucks), time-out
    "multipoker": (200, 200, "s0 s1 m2 m3", "protected"),
    "fortune": (200, 0, "s0 s1 m2 m3", "folded"),
    "titan": (250, 200, "s0 s1 m2 m3", "folded"),
    "sweden": (250, 0, "s0 s1 m2 m3", "folded"),
    "casino": (250, 300, "s0 s1 s2 s3", "folded"),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_one_limit_hand_under_each_preset(name: str) -> None:
    house = load_preset(name)
    small_blind, rake, shows, timeout = EXPECTED[name]
    game = house.game(Variant.HOLDEM, Structure.FIXED_LIMIT, 500)
    hand = deal(
        [100_000] * 4,
        game=game,
        house=house,
        hole=["7c2d", "AhAd", "8c3d", "9c4d"],
        board="KsQsJd5h4c",
    )
    posted = [e.amount for e in hand.events if isinstance(e, ForcedBet)]
    assert posted == [small_blind, 500]  # R-BLIND-3
    act(hand, "c", "c", "c", "x")  # four limps: $20
    act(hand, "x", "x", "x", "x", "x", "x", "x", "x")
    act(hand, "b 1000", "c", "c", "c")  # river: $60 in all
    assert hand.rake == rake  # R-RAKE-*: each room's schedule (none at fortune and sweden)
    seen = " ".join(
        ("s" if isinstance(e, CardsShown) else "m") + str(e.position)
        for e in hand.events
        if isinstance(e, CardsShown | HandMucked)
    )
    assert seen == shows  # R-SHOW-4: the casino shows every hand
    assert sum(hand.stacks) + hand.rake == 400_000

    # R-TIME-2: the small blind, with chips in, times out facing a raise.
    hand = deal([100_000] * 4, game=game, house=house)
    act(hand, "r 1000", "c")
    hand.apply(Action(ActionKind.TIMEOUT))
    protected = any(isinstance(e, PlayerProtected) for e in hand.events)
    assert ("protected" if protected else "folded") == timeout
    assert protected != hand.folded[0]


def test_fortune_last_bettor_must_show_where_others_may_muck() -> None:
    house = load_preset("fortune")
    game = house.game(Variant.HOLDEM, Structure.FIXED_LIMIT, 500)
    for must_show, name in ((True, "fortune"), (False, "sweden")):
        hand = deal(
            [100_000] * 3,
            game=game,
            house=load_preset(name),
            hole=["AhAd", "7c2d", "8c3d"],
            board="KsQsJd5h4c",
            auto_showdown=False,
        )
        act(hand, "c", "c", "x", "x", "x", "x", "x", "x", "x", "x", "b 1000", "c", "c")
        assert hand.actor == 1  # the river bettor shows first
        assert hand.showdown_choice().can_muck is not must_show


def test_new_player_posts_under_every_preset() -> None:
    for name in sorted(EXPECTED):
        house = load_preset(name)
        game = house.game(
            Variant.HOLDEM, Structure.NO_LIMIT if name != "fortune" else Structure.FIXED_LIMIT, 200
        )
        sb = game.stakes.small_blind
        post = ExtraPost(position=3, live=200, dead=sb)  # R-SEAT-3: a live big, a dead small
        hand = deal([10_000] * 4, game=game, house=house, posts=[post])
        posted = [
            (e.position, e.what, e.amount, e.dead) for e in hand.events if isinstance(e, ForcedBet)
        ]
        assert posted == [
            (0, "small_blind", sb, False),
            (1, "big_blind", 200, False),
            (3, "live_post", 200, False),
            (3, "dead_post", sb, True),
        ], name
        assert hand.pot == 2 * sb + 2 * 200 and hand.bets == [sb, 200, 0, 200]
        act(hand, "c")  # under the gun calls; the live post counts as the new player's bet
        legal = hand.legal_actions()
        assert legal.position == 3 and legal.can_check and legal.call_amount == 0, name
        checks_down(hand)
        assert sum(hand.stacks) + hand.rake == 40_000
