"""Bots play sensibly and legally, from what their seat may see."""

import random

import numpy as np
import pytest

from pokerroom.bots import EquityBot, RuleBot, situation_for
from pokerroom.engine import Action, ActionKind, Hand, Player
from pokerroom.rules import load_preset
from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant
from tests.helpers.hands import act, deal, spec


def random_action(hand: Hand, rng: random.Random) -> Action:
    legal = hand.legal_actions()
    assert legal is not None
    roll = rng.random()
    if roll < 0.3 and legal.call_amount:
        return Action(ActionKind.FOLD)
    if roll < 0.8 or legal.min_raise_to is None or legal.max_raise_to is None:
        return Action(ActionKind.CHECK_OR_CALL)
    return Action(ActionKind.BET_OR_RAISE, rng.randint(legal.min_raise_to, legal.max_raise_to))


@pytest.mark.parametrize("structure", list(Structure))
@pytest.mark.parametrize("variant", list(Variant))
def test_bots_only_choose_legal_actions(variant: Variant, structure: Structure) -> None:
    rng = random.Random(1)
    bots = [RuleBot(random.Random(2)), EquityBot(samples=200, rng=np.random.default_rng(3))]
    game = GameSpec(variant=variant, structure=structure, stakes=Stakes(small_blind=1, big_blind=2))
    for _ in range(12):
        n = rng.randint(2, 6)
        hand = Hand(
            spec=game,
            players=[Player(seat=i + 1, stack=rng.choice([5, 60, 400])) for i in range(n)],
            deck=rng.sample(range(52), 52),
        )
        while not hand.is_over:
            bot = bots[hand.actor % 2]
            action = bot.decide(situation_for(hand, hand.actor))
            assert hand.can_apply(action), (bot.name, action, hand.legal_actions())
            hand.apply(action)


def test_rule_bot_raises_aces_and_folds_seven_deuce_to_a_raise() -> None:
    hand = deal([10_000] * 3, game=spec(sb=50, bb=100), hole=["7c2d", "QsQd", "AsAh"])
    bot = RuleBot(random.Random(0))
    aces = bot.decide(situation_for(hand, 2))
    assert aces.kind is ActionKind.BET_OR_RAISE
    act(hand, f"r {aces.amount}")
    assert bot.decide(situation_for(hand, 0)).kind is ActionKind.FOLD


def test_equity_bot_raises_the_nuts_and_folds_air_to_a_big_bet() -> None:
    bot = EquityBot(samples=400, rng=np.random.default_rng(1))
    hand = deal([10_000] * 2, game=spec(sb=50, bb=100), hole=["3c2d", "AsKs"], board="QsJsTs4h4d")
    act(hand, "c", "x")  # to the flop: the big blind acts first after it
    act(hand, "x", "x", "x", "x")  # flop and turn checked
    assert hand.street_name == "river"
    # Far behind with a free card: it checks (no bet with air, no fold when checking is free).
    assert bot.decide(situation_for(hand, 0)) == Action(ActionKind.CHECK_OR_CALL)
    act(hand, "x")
    nuts = bot.decide(situation_for(hand, 1))
    assert nuts.kind is ActionKind.BET_OR_RAISE  # a royal flush bets
    act(hand, f"b {hand.legal_actions().max_raise_to}")
    assert bot.decide(situation_for(hand, 0)).kind is ActionKind.FOLD  # 3-high folds to a shove


@pytest.mark.parametrize("name", ["rules", "equity"])
def test_bots_beat_random_players(name: str) -> None:
    rng = random.Random(5)
    bot = (
        RuleBot(random.Random(6))
        if name == "rules"
        else EquityBot(samples=200, rng=np.random.default_rng(6))
    )
    house = load_preset("titan")
    game = house.game(Variant.HOLDEM, Structure.NO_LIMIT, 200)
    net = 0
    for k in range(150):
        n = 4
        seat_of_bot = k % n
        hand = Hand(
            spec=game,
            house=house,
            players=[Player(seat=i + 1, stack=20_000) for i in range(n)],
            deck=rng.sample(range(52), 52),
        )
        while not hand.is_over:
            if hand.actor == seat_of_bot:
                hand.apply(bot.decide(situation_for(hand, hand.actor)))
            else:
                hand.apply(random_action(hand, rng))
        net += hand.stacks[seat_of_bot] - 20_000
    assert net > 0, f"{name} bot lost {net} against random players"
