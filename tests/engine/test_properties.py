"""Property tests over random hands of all nine games (DESIGN: invariants, not examples).

For 2,000 hands of each variant x structure (``make test-all``; ``make test`` plays 250,
most of them short-stacked so that all-ins and side pots come often): chips are conserved
to the chip, no stack goes below zero, every hand ends, every action listed as legal is
accepted, random illegal actions are refused and change nothing, and replaying the
written PHH gives the same final stacks.
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
from tests.helpers.repeats import fast_and_full

HOUSES = [load_preset(name) for name in ("titan", "multipoker", "casino", "fortune")]
# Stakes of $1/$2 in cents: every preset's rake schedule covers them.
STACKS = [1, 100, 150, 350, 700, 2_000, 5_500, 19_999, 40_000, 500_000]
STACK_SIZES = st.sampled_from(STACKS)
# The fast tier: stacks of less than 10 big blinds three times as likely (all-ins, side pots,
# short blinds), every size still drawn.
SHORT_STACK_SIZES = st.sampled_from(STACKS + [s for s in STACKS if s < 2_000] * 2)
HANDS_PER_GAME = fast_and_full((250, SHORT_STACK_SIZES), (2_000, STACK_SIZES))


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


def play_random_hand(
    variant: Variant,
    structure: Structure,
    data: st.DataObject,
    stack_sizes: st.SearchStrategy[int] = STACK_SIZES,
) -> None:
    n = data.draw(st.integers(2, 10 if variant is Variant.HOLDEM else 9), label="players")
    stacks = data.draw(st.lists(stack_sizes, min_size=n, max_size=n), label="stacks")
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


@pytest.mark.parametrize("tier", HANDS_PER_GAME)
@pytest.mark.parametrize("structure", list(Structure))
@pytest.mark.parametrize("variant", list(Variant))
def test_random_hands_conserve_chips_end_and_replay(
    variant: Variant, structure: Structure, tier: tuple[int, st.SearchStrategy[int]]
) -> None:
    hands, sizes = tier

    @settings(max_examples=hands)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        play_random_hand(variant, structure, data, sizes)

    run()
