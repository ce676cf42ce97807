"""Random hands of all nine games checked against an independent pot oracle, and what every
viewer sees checked after every action.

Each hand is played from ``random.Random(seed)`` (the seed is in every failure message, so
any hand replays with ``play(game, seed)``). The policy keeps reaching the hard cases: short
and odd-sized stacks for all-ins and several side pots, an ante for odd pots, rank-twin hole
cards for split pots and quartered lows, heads-up tables, time-outs and voluntary mucks.

- R-POT-1..3, R-SHOW-6, R-HILO-1/5/6, R-RAKE-1..5: the payouts of ``tests/engine/oracle.py``
  (which shares no code with the engine's pots or award) equal the engine's rake and
  ``PotAwarded`` events chip for chip, and the final stacks follow.
- S-VIEW-1, R-SHOW-8: after every action each player's and a spectator's view holds only the
  viewer's own hole cards, the board and the hands shown so far.

The test counts how often each hard case happened and fails if one became rare, so a change
of policy cannot silently lose coverage.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from pokerroom.cards import Card
from pokerroom.engine import Action, ActionKind, Hand, Phase, Player, view_for
from pokerroom.engine.events import (
    ActionTaken,
    CardsShown,
    Event,
    ForcedBet,
    HoleCardsDealt,
    PotAwarded,
)
from pokerroom.engine.setup import arrange_deck
from pokerroom.rules import load_preset
from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant
from pokerroom.rules.house import HouseOptions, preset_names
from tests.engine.oracle import engine_outcome, expected_outcome, layered_pots, read_events

HANDS_PER_GAME = 400
GAMES = [(v, s) for v in Variant for s in Structure]
HOUSES = [load_preset(name) for name in preset_names()]

#: The least number of hands (of HANDS_PER_GAME) in which each case must occur: about a
#: quarter to a half of what was measured in the least favourable game (the test prints it).
MINIMUM = {
    "all-in": 150,
    "side pot": 100,
    "2+ side pots": 60,
    "heads-up": 40,
    "heads-up showdown": 20,
    "split pot": 40,
    "odd chip in a split": 20,
    "time-out": 25,
    "muck": 3,
}
HI_LO_MINIMUM = {"hi-lo split": 50, "quartered low": 12, "odd chip between halves": 25}


def houses_for(variant: Variant, structure: Structure) -> list[HouseOptions]:
    return [h for h in HOUSES if (variant, structure) in h.games]


def stack(rng: random.Random) -> int:
    kind = rng.random()
    if kind < 0.35:
        return rng.randint(1, 700)  # short: all-in early, often in the blinds
    if kind < 0.8:
        return rng.randint(700, 6_000)
    return rng.randint(6_000, 40_000)


def deck_with_twins(rng: random.Random, n: int, hole_count: int) -> list[int]:
    """A shuffled deck; often two or three players hold the same ranks (other suits), so
    hands tie, pots split and lows are quartered."""
    order = rng.sample(range(52), 52)
    if rng.random() < 0.5:
        return order
    holes: list[list[int | None]] = [[None] * hole_count for _ in range(n)]
    twins = rng.sample(range(n), min(n, rng.choice([2, 2, 3])))
    for rank in rng.sample(range(13), hole_count):
        suits = rng.sample(range(4), len(twins))
        for k, position in enumerate(twins):
            code = rank * 4 + suits[k]
            holes[position][len([c for c in holes[position] if c is not None])] = code
    return arrange_deck(holes, [], hole_count)


def choose(rng: random.Random, hand: Hand) -> Action:
    choice = hand.showdown_choice()
    if choice is not None:
        muck = choice.can_muck and rng.random() < 0.5
        return Action(ActionKind.MUCK if muck else ActionKind.SHOW)
    legal = hand.legal_actions()
    assert legal is not None
    roll = rng.random()
    if roll < 0.02:
        return Action(ActionKind.TIMEOUT)
    if roll < 0.14 and not legal.can_check:
        return Action(ActionKind.FOLD)
    if roll < 0.5 and legal.min_raise_to is not None and legal.max_raise_to is not None:
        size = rng.random()
        if size < 0.4:
            to = legal.max_raise_to
        elif size < 0.7:
            to = legal.min_raise_to
        else:
            to = rng.randint(legal.min_raise_to, legal.max_raise_to)
        return Action(ActionKind.BET_OR_RAISE, to)
    return Action(ActionKind.CHECK_OR_CALL)


_PLAIN = (int, str, bool, float, type(None))
_FIELDS: dict[type, tuple[str, ...]] = {}


def cards_in(value: object) -> list[Card]:
    """Every card anywhere in a view, however deep, so a leak through any field is found."""
    if isinstance(value, _PLAIN):
        return []
    if isinstance(value, Card):
        return [value]
    if isinstance(value, tuple | list):
        return [c for item in value for c in cards_in(item)]
    kind = type(value)
    names = _FIELDS.get(kind)
    if names is None:
        fields = dataclasses.fields(value) if dataclasses.is_dataclass(value) else ()
        names = _FIELDS[kind] = tuple(f.name for f in fields) or getattr(kind, "__match_args__", ())
    return [c for name in names for c in cards_in(getattr(value, name))]


def check_views(hand: Hand, seed: int) -> None:
    """S-VIEW-1, R-SHOW-8: each viewer sees their own cards and the shown hands, no more."""
    dealt = {e.position: e.cards for e in hand.events if isinstance(e, HoleCardsDealt)}
    shown = {e.position: e.cards for e in hand.events if isinstance(e, CardsShown)}
    board = set(hand.board_cards())
    for viewer in [None, *range(hand.n)]:
        view = view_for(hand, viewer)
        for seat in view.seats:
            i = seat.position
            expected = dealt[i] if i == viewer else shown.get(i)
            assert seat.cards == expected, (seed, viewer, i, seat.cards)
        allowed = board | set(dealt.get(viewer, ()) if viewer is not None else ())
        allowed |= {c for cards in shown.values() for c in cards}
        leaked = set(cards_in(view)) - allowed
        assert not leaked, f"seed {seed}: viewer {viewer} sees {leaked}"


def play(variant: Variant, structure: Structure, seed: int) -> tuple[Hand, GameSpec, HouseOptions]:
    rng = random.Random(seed)
    n = 2 if rng.random() < 0.25 else rng.randint(3, 10 if variant is Variant.HOLDEM else 9)
    house = rng.choice(houses_for(variant, structure))
    spec = GameSpec(
        variant=variant,
        structure=structure,
        stakes=Stakes(small_blind=100, big_blind=200, ante=rng.choice([0, 0, 25])),
    )
    hand = Hand(
        spec=spec,
        players=[Player(seat=i + 1, stack=stack(rng)) for i in range(n)],
        house=house,
        deck=deck_with_twins(rng, n, variant.hole_cards),
        auto_showdown=rng.random() < 0.5,
    )
    check_views(hand, seed)
    for _ in range(400):  # every hand ends well within this many actions
        if hand.is_over:
            break
        hand.apply(choose(rng, hand))
        check_views(hand, seed)
    assert hand.is_over and hand.phase is Phase.COMPLETE, f"seed {seed}: the hand did not end"
    return hand, spec, house


def tally(hand: Hand, seen: Counter[str]) -> None:
    events: list[Event] = hand.events
    all_in = any(isinstance(e, ForcedBet | ActionTaken) and e.all_in for e in events)
    side_pots = len(layered_pots(read_events(events))) - 1
    awards = [e for e in events if isinstance(e, PotAwarded)]
    splits = [e for e in awards if len(e.winners) > 1]
    lows = [e for e in awards if e.share == "low"]
    seen["hands"] += 1
    seen["all-in"] += all_in
    seen["side pot"] += side_pots >= 1
    seen["2+ side pots"] += side_pots >= 2
    seen["heads-up"] += hand.n == 2
    seen["heads-up showdown"] += hand.n == 2 and any(isinstance(e, CardsShown) for e in events)
    seen["split pot"] += bool(splits)
    seen["odd chip in a split"] += any(e.amount % len(e.winners) for e in splits)
    seen["time-out"] += any(isinstance(e, ActionTaken) and e.timed_out for e in events)
    seen["time-out"] += any(e.kind == "protected" for e in events)
    seen["muck"] += any(e.kind == "mucked" for e in events)
    seen["hi-lo split"] += bool(lows)
    seen["quartered low"] += any(len(e.winners) > 1 for e in lows)
    seen["odd chip between halves"] += any(
        e.share == "high" and e.amount != next(lo.amount for lo in lows if lo.pot == e.pot)
        for e in awards
    )


@pytest.mark.parametrize(("variant", "structure"), GAMES, ids=[f"{v}-{s}" for v, s in GAMES])
def test_R_POT_R_SHOW_6_R_HILO_6_awards_match_an_independent_oracle_and_views_hide_cards(
    variant: Variant, structure: Structure
) -> None:
    seen: Counter[str] = Counter()
    base = 1_000_000 * GAMES.index((variant, structure))
    for seed in range(base, base + HANDS_PER_GAME):
        hand, spec, house = play(variant, structure, seed)
        expected = expected_outcome(spec, house, hand.events)
        actual = engine_outcome(hand.events)
        assert actual.rake == expected.rake, f"seed {seed}: rake"
        assert actual.payouts == expected.payouts, f"seed {seed}: payouts"
        assert actual.stacks == expected.stacks == tuple(hand.stacks), f"seed {seed}: stacks"
        tally(hand, seen)
    print(f"\n{variant}/{structure}:", ", ".join(f"{k} {v}" for k, v in seen.items()))
    minimum = MINIMUM | (HI_LO_MINIMUM if spec.hi_lo else {})
    rare = {case: seen[case] for case, least in minimum.items() if seen[case] < least}
    assert not rare, f"the random hands reach these cases too rarely now: {rare}"
