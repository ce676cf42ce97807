"""Property tests over random hands of all nine games (DESIGN: invariants, not examples).

For at least 2,000 hands of each variant x structure: chips are conserved to the
chip, no stack goes below zero, every hand ends, every action listed as legal is
accepted, random illegal actions are refused and change nothing, and replaying
the written PHH gives the same final stacks.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.engine import (
    Action,
    ActionKind,
    Hand,
    IllegalActionError,
    Phase,
    Player,
)
from pokerroom.history.phh import load_text, replay, write_phh
from pokerroom.rules import load_preset
from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant

HANDS_PER_GAME = 2_000
HOUSES = [load_preset(name) for name in ("titan", "multipoker", "casino", "fortune")]
# Stakes of $1/$2 in cents: every preset's rake schedule covers them.
STACK_SIZES = st.sampled_from([1, 100, 150, 350, 700, 2_000, 5_500, 19_999, 40_000, 500_000])


def snapshot(hand: Hand) -> tuple[object, ...]:
    return (
        tuple(hand.stacks),
        tuple(hand.bets),
        tuple(hand.live),
        tuple(hand.dead),
        tuple(hand.folded),
        tuple(hand.all_in),
        tuple(hand.protected),
        hand.actor,
        hand.phase,
        hand.street,
        hand.current_bet,
        len(hand.events),
        tuple(hand.board),
    )


def illegal_attempts(hand: Hand, data: st.DataObject) -> None:
    """Try one random action that the rules forbid; it must raise and change nothing."""
    legal = hand.legal_actions()
    if legal is None:
        return
    before = snapshot(hand)
    choices: list[tuple[Action, int | None]] = []
    others = [i for i in range(hand.n) if i != hand.actor]
    choices.append((Action(ActionKind.FOLD), data.draw(st.sampled_from(others), label="not me")))
    if not legal.can_check:
        choices.append((Action(ActionKind.CHECK), None))
    else:
        choices.append((Action(ActionKind.CALL), None))
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        choices.append((Action(ActionKind.BET_OR_RAISE, legal.min_raise_to - 1), None))
        choices.append((Action(ActionKind.BET_OR_RAISE, legal.max_raise_to + 1), None))
    else:
        choices.append((Action(ActionKind.BET_OR_RAISE, hand.current_bet + 10_000), None))
    choices.append((Action(ActionKind.SHOW), None))
    action, position = data.draw(st.sampled_from(choices), label="illegal")
    with pytest.raises(IllegalActionError):
        hand.apply(action, position)
    assert not hand.can_apply(action, position)
    assert snapshot(hand) == before


def play_random_hand(variant: Variant, structure: Structure, data: st.DataObject) -> None:
    n = data.draw(st.integers(2, 10 if variant is Variant.HOLDEM else 9), label="players")
    stacks = data.draw(st.lists(STACK_SIZES, min_size=n, max_size=n), label="stacks")
    house = data.draw(st.sampled_from(HOUSES), label="house")
    ante = data.draw(st.sampled_from([0, 0, 0, 25]), label="ante")
    spec = GameSpec(
        variant=variant,
        structure=structure,
        stakes=Stakes(small_blind=100, big_blind=200, ante=ante),
    )
    # A seeded shuffle: as uniform as a drawn permutation, far cheaper to generate.
    deck = random.Random(data.draw(st.integers(0, 2**32), label="deck seed")).sample(range(52), 52)
    hand = Hand(
        spec=spec,
        players=[Player(seat=i + 1, stack=s) for i, s in enumerate(stacks)],
        house=house,
        deck=deck,
    )
    total = sum(stacks)
    for _ in range(400):  # every hand ends well within this many actions
        if hand.is_over:
            break
        assert sum(hand.stacks) + hand.pot == total
        assert min(hand.stacks) >= 0
        if data.draw(st.integers(0, 9), label="try illegal") == 0:
            illegal_attempts(hand, data)
        legal = hand.legal_actions()
        assert legal is not None and hand.phase is Phase.BETTING
        options = [Action(ActionKind.FOLD), Action(ActionKind.CHECK_OR_CALL)]
        if legal.can_check:
            options.append(Action(ActionKind.CHECK))
        else:
            options.append(Action(ActionKind.CALL))
        if legal.min_raise_to is not None and legal.max_raise_to is not None:
            to = data.draw(st.integers(legal.min_raise_to, legal.max_raise_to), label="to")
            options += [Action(ActionKind.BET_OR_RAISE, to)] * 2
        if data.draw(st.integers(0, 30), label="timeout") == 0:
            options.append(Action(ActionKind.TIMEOUT))
        action = data.draw(st.sampled_from(options), label="action")
        assert hand.can_apply(action)
        hand.apply(action)
    assert hand.is_over, "a hand did not end"
    assert sum(hand.stacks) + hand.rake == total  # conserved to the chip
    assert min(hand.stacks) >= 0 and hand.rake >= 0
    replayed = replay(load_text(write_phh(hand))[0])
    assert replayed.finishing_stacks == hand.stacks


@pytest.mark.parametrize("structure", list(Structure))
@pytest.mark.parametrize("variant", list(Variant))
def test_random_hands_conserve_chips_end_and_replay(variant: Variant, structure: Structure) -> None:
    @settings(max_examples=HANDS_PER_GAME)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        play_random_hand(variant, structure, data)

    run()
