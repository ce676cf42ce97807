"""Script hands for tests: choose the cards, then play actions by name."""

from __future__ import annotations

import random
from collections.abc import Sequence

from pokerroom.cards import parse_cards
from pokerroom.engine import Action, ActionKind, ExtraPost, Hand, Phase, Player
from pokerroom.engine.setup import arrange_deck
from pokerroom.rules import STANDARD, HouseOptions
from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant


def spec(
    variant: str = "holdem", structure: str = "no_limit", sb: int = 1, bb: int = 2, **stakes: int
) -> GameSpec:
    return GameSpec(
        variant=Variant(variant),
        structure=Structure(structure),
        stakes=Stakes(small_blind=sb, big_blind=bb, **stakes),
    )


def deal(
    stacks: Sequence[int],
    *,
    game: GameSpec | None = None,
    hole: Sequence[str] = (),
    board: str = "",
    house: HouseOptions = STANDARD,
    posts: Sequence[ExtraPost] = (),
    **options: object,
) -> Hand:
    """A hand with the given stacks (position order), hole cards and board."""
    game = game or spec()
    count = game.variant.hole_cards
    holes = [[c.code for c in parse_cards(h)] for h in hole] + [[] for _ in stacks]
    deck = arrange_deck(holes[: len(stacks)], [c.code for c in parse_cards(board)], count)
    return Hand(
        spec=game,
        players=[Player(seat=i + 1, stack=s, name=f"p{i + 1}") for i, s in enumerate(stacks)],
        house=house,
        deck=deck,
        posts=posts,
        **options,  # type: ignore[arg-type]
    )


def act(hand: Hand, *script: str) -> None:
    """Apply actions by the player to act: 'f', 'x' (check), 'c' (call), 'cc', 'r 40', 't'."""
    for step in script:
        word, _, amount = step.partition(" ")
        kind = {
            "f": ActionKind.FOLD,
            "x": ActionKind.CHECK,
            "c": ActionKind.CALL,
            "cc": ActionKind.CHECK_OR_CALL,
            "r": ActionKind.BET_OR_RAISE,
            "b": ActionKind.BET_OR_RAISE,
            "t": ActionKind.TIMEOUT,
            "show": ActionKind.SHOW,
            "muck": ActionKind.MUCK,
        }[word]
        hand.apply(Action(kind, int(amount) if amount else 0))


def checks_down(hand: Hand) -> None:
    """Check or call until the hand ends (no more bets)."""
    while hand.phase is Phase.BETTING and hand.actor is not None:
        act(hand, "cc")


def kinds(hand: Hand) -> list[str]:
    return [e.kind for e in hand.events]


def play_randomly(hand: Hand, rng: random.Random) -> Hand:
    """Random legal actions, a time-out now and then, until the hand is over; a showdown
    the hand leaves to its players is settled as an automatic one would be."""
    while not hand.is_over:
        legal = hand.legal_actions()
        if legal is None:
            hand.finish_showdown()
            continue
        roll = rng.random()
        if roll < 0.05:
            hand.apply(Action(ActionKind.TIMEOUT))
        elif roll < 0.25 and legal.call_amount:
            hand.fold()
        elif roll < 0.75 or legal.min_raise_to is None or legal.max_raise_to is None:
            hand.check_or_call()
        else:
            hand.bet_or_raise(rng.randint(legal.min_raise_to, legal.max_raise_to))
    return hand
