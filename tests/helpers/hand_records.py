"""Random hands played to the end under a house's options, for tests of what is stored of them."""

from __future__ import annotations

import random

from pokerroom.engine import (
    ExtraPost,
    Hand,
    Player,
)
from pokerroom.rng import SeededRandomSource
from pokerroom.rules import STANDARD, HouseOptions, load_preset
from pokerroom.rules.game import Structure, Variant
from tests.helpers.hands import play_randomly, spec


def played_hand(seed: int, variant: Variant, structure: Structure, house: HouseOptions) -> Hand:
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    game = (
        house.game(variant, structure, 200) if house.rake else spec(variant.value, structure.value)
    )
    hand = Hand(
        spec=game,
        players=[
            Player(seat=2 * k + 1, stack=rng.randint(100, 40_000), name=f"p{k}") for k in range(n)
        ],
        house=house,
        rng=SeededRandomSource(seed),
        posts=[ExtraPost(position=n - 1, live=game.stakes.big_blind)]
        if n > 2 and seed % 3 == 0
        else [],
    )
    return play_randomly(hand, rng)


def house_options(name: str) -> HouseOptions:
    return STANDARD if name == "standard" else load_preset(name)
