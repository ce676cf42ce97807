"""The hand owns its history. ``Hand.setup`` and ``Hand.log`` rebuild it exactly."""

from __future__ import annotations

import pickle
import random

import pytest

from pokerroom.engine import Action, ActionKind, ExtraPost, Hand, HandSetup, Player
from pokerroom.engine.errors import IllegalActionError
from pokerroom.rng import SeededRandomSource
from pokerroom.rules import load_preset
from pokerroom.rules.game import Structure, Variant
from tests.helpers.hands import play_randomly, spec


def _random_hand(
    seed: int, variant: Variant, structure: Structure, *, auto_showdown: bool = True
) -> Hand:
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    game = spec(variant.value, structure.value, ante=rng.choice([0, 1]))
    players = [Player(seat=k + 1, stack=rng.randint(1, 300), name=f"p{k}") for k in range(n)]
    posts = [ExtraPost(position=n - 1, live=2, dead=1)] if n > 2 and rng.random() < 0.3 else []
    hand = Hand(
        spec=game,
        players=players,
        rng=SeededRandomSource(seed),
        posts=posts,
        auto_showdown=auto_showdown,
    )
    return play_randomly(hand, rng)


@pytest.mark.parametrize("auto_showdown", [True, False])
@pytest.mark.parametrize("structure", list(Structure))
@pytest.mark.parametrize("variant", list(Variant))
def test_hand_replay_rebuilds_every_event_from_setup_and_log(
    variant: Variant, structure: Structure, auto_showdown: bool
) -> None:
    for seed in range(40):
        hand = _random_hand(seed, variant, structure, auto_showdown=auto_showdown)
        assert hand.is_over
        again = Hand.replay(hand.setup, hand.log)
        assert again.events == hand.events, seed
        assert again.stacks == hand.stacks and again.log == hand.log
        assert again.setup == hand.setup


def test_hand_setup_is_a_settled_frozen_record() -> None:
    """The setup names the deck dealt (not the source of randomness) and every default."""
    hand = _random_hand(3, Variant.HOLDEM, Structure.NO_LIMIT)
    setup = hand.setup
    assert isinstance(setup, HandSetup)
    assert list(setup.deck) == hand.deck and setup.seats == hand.seats
    assert setup.stacks == hand.starting_stacks and setup.button_seat == hand.seats[-1]
    assert len(setup.antes) == hand.n and setup.cash_table is hand.cash_table
    assert pickle.loads(pickle.dumps(setup)) == setup  # records unpickle by keyword
    with pytest.raises(TypeError):
        HandSetup(setup.spec)  # type: ignore[misc, call-arg]


def test_hand_replay_refuses_an_action_the_rebuilt_hand_refuses() -> None:
    hand = _random_hand(5, Variant.HOLDEM, Structure.FIXED_LIMIT)
    bad = [(hand.log[0][0] if hand.log else 0, Action(ActionKind.SHOW))]
    with pytest.raises(IllegalActionError):
        Hand.replay(hand.setup, bad)


def test_a_house_preset_travels_in_the_setup() -> None:
    house = load_preset("titan")
    game = house.game(Variant.HOLDEM, Structure.NO_LIMIT, 200)
    hand = Hand(
        spec=game,
        players=[Player(seat=1, stack=20_000), Player(seat=2, stack=20_000)],
        house=house,
        rng=SeededRandomSource(1),
    )
    hand.bet_or_raise(600)
    hand.fold()
    again = Hand.replay(hand.setup, hand.log)
    assert again.house is house and again.events == hand.events and again.rake == hand.rake


def test_hand_steps_is_the_one_replay_one_step_per_action() -> None:
    """``Hand.steps`` yields the hand as dealt, then the hand after each logged
    action; ``Hand.replay`` is its last step (PHH replay and the replayer walk it too)."""
    hand = _random_hand(7, Variant.OMAHA_HILO, Structure.POT_LIMIT, auto_showdown=False)
    seen: list[tuple[int, int]] = []
    for step in Hand.steps(hand.setup, hand.log):
        seen.append((len(step.log), len(step.events)))
    assert [logged for logged, _ in seen] == list(range(len(hand.log) + 1))
    assert seen[0][1] > 0 and seen[-1][1] == len(hand.events)  # the deal, then every event
    assert [e for _, e in seen] == sorted(e for _, e in seen)
    assert Hand.replay(hand.setup, hand.log).events == hand.events
