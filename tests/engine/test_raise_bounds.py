"""The raise bounds and the reason a raise is refused come from one function
(``engine.betting.raise_bounds``), so the offer and the refusal cannot disagree."""

from __future__ import annotations

import random

import pytest

from pokerroom.engine import Action, ActionKind, Hand, Player
from pokerroom.engine.betting import raise_bounds
from pokerroom.engine.errors import IllegalActionError
from pokerroom.rng import SeededRandomSource
from pokerroom.rules.game import Structure, Variant
from tests.helpers.hands import spec


@pytest.mark.parametrize("structure", list(Structure))
def test_refusal_reason_and_bounds_agree_at_every_decision(structure: Structure) -> None:
    refused = 0
    for seed in range(60):
        rng = random.Random(seed)
        n = rng.randint(2, 6)
        players = [Player(seat=k + 1, stack=rng.randint(1, 120)) for k in range(n)]
        game = spec(Variant.HOLDEM.value, structure.value)
        hand = Hand(spec=game, players=players, rng=SeededRandomSource(seed))
        while not hand.is_over:
            legal = hand.legal_actions()
            assert legal is not None
            low, high, why = raise_bounds(hand, legal.position)
            assert (low, high) == (legal.min_raise_to, legal.max_raise_to)
            assert (why == "") is legal.can_raise
            if not legal.can_raise:
                refused += 1
                with pytest.raises(IllegalActionError) as error:
                    hand.verify(Action(ActionKind.BET_OR_RAISE, legal.current_bet + 100))
                assert str(error.value).endswith(why) and "None" not in why
            roll = rng.random()
            if roll < 0.5 or not legal.can_raise or legal.max_raise_to is None:
                hand.check_or_call()
            else:
                assert legal.min_raise_to is not None
                hand.bet_or_raise(rng.randint(legal.min_raise_to, legal.max_raise_to))
    assert refused > 0


def test_R_LIM_2_capped_round_names_the_cap() -> None:
    game = spec(Variant.HOLDEM.value, Structure.FIXED_LIMIT.value)
    hand = Hand(
        spec=game,
        players=[Player(seat=k + 1, stack=1000) for k in range(3)],
        rng=SeededRandomSource(1),
    )
    while (legal := hand.legal_actions()) is not None and legal.can_raise:
        assert legal.min_raise_to is not None
        hand.bet_or_raise(legal.min_raise_to)
    legal = hand.legal_actions()
    assert legal is not None
    assert raise_bounds(hand, legal.position)[2] == "the betting is capped at 4 bets"
