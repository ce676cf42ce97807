"""The room's own bots play a tight, human mix, so a newcomer at the demo sit & go sees its
levels rise: six of the sit & go's bots, 60 hands at its first level's blinds (10/20, 1,500
chips each), leave at least four players in every one of twenty events; and the mix still
plays (it opens, bets and calls, it does not only fold)."""

from __future__ import annotations

import random

from pokerroom.bots.strategy import Strategy, TightBot, house_strategy, situation_for
from pokerroom.engine import ActionKind, Hand, Player
from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant

LEVEL_ONE = GameSpec(
    variant=Variant.HOLDEM,
    structure=Structure.NO_LIMIT,
    stakes=Stakes(small_blind=10, big_blind=20),
)


def sit_and_go(bots: list[Strategy], hands: int, seed: int) -> tuple[list[int], list[str]]:
    """The stacks after ``hands`` hands (the button moving, busted players out) and every
    action taken."""
    rng = random.Random(seed)
    stacks = [1500] * len(bots)
    kinds: list[str] = []
    for k in range(hands):
        alive = [i for i, stack in enumerate(stacks) if stack > 0]
        if len(alive) < 2:
            break
        turn = k % len(alive)
        order = alive[turn:] + alive[:turn]
        hand = Hand(
            spec=LEVEL_ONE,
            players=[Player(seat=i + 1, stack=stacks[i]) for i in order],
            deck=rng.sample(range(52), 52),
        )
        while not hand.is_over:
            actor = hand.actor
            assert actor is not None
            action = bots[order[actor]].decide(situation_for(hand, actor))
            assert hand.can_apply(action)
            kinds.append(action.kind.name)
            hand.apply(action)
        for position, i in enumerate(order):
            stacks[i] = hand.stacks[position]
    assert sum(stacks) == 1500 * len(bots)  # no chip lost or made
    return stacks, kinds


def test_the_sit_and_gos_bots_leave_most_players_in_through_the_first_level() -> None:
    kinds: list[str] = []
    for seed in range(1, 21):
        bots: list[Strategy] = [TightBot(random.Random(seed * 10 + k)) for k in range(6)]
        stacks, played = sit_and_go(bots, 60, seed)
        kinds += played
        assert sum(1 for stack in stacks if stack > 0) >= 4, (seed, stacks)
    share = {kind: kinds.count(kind) / len(kinds) for kind in set(kinds)}
    assert share[ActionKind.BET_OR_RAISE.name] > 0.05, share  # it opens and bets
    assert share[ActionKind.CHECK_OR_CALL.name] + share.get(ActionKind.CHECK.name, 0) > 0.2


def test_the_house_mix_is_mostly_the_steady_regular() -> None:
    names = [house_strategy(k).name for k in range(6)]
    assert names.count("tight") == 4 and names.count("equity") == 2
