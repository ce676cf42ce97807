"""Bot runs for the floor's reports: six accounts at one table, hand after hand through the
engine, each deciding by its strategy (an honest one, or a planted colluder), every hand
read back from its stored record as the floor reads it."""

from __future__ import annotations

import random
from collections.abc import Callable

from pokerroom.bots.strategy import RuleBot, situation_for
from pokerroom.engine import Action, ActionKind, Hand, Player
from pokerroom.history.integrity import FloorHand
from pokerroom.rng import SeededRandomSource
from tests.helpers.hands import spec
from tests.helpers.results import stored

Decide = Callable[[Hand, int, tuple[int, ...]], Action]
STACK = 10_000


def honest(seed: int) -> Decide:
    bot = RuleBot(random.Random(seed))
    return lambda hand, position, _: bot.decide(situation_for(hand, position))


def _partner_in(hand: Hand, accounts: tuple[int, ...], partner: int) -> bool:
    return any(a == partner and not hand.folded[i] for i, a in enumerate(accounts))


def dumper(partner: int, seed: int) -> Decide:
    """Puts chips in against its partner before the flop and folds to any bet after (it
    plays fair otherwise)."""
    fair = honest(seed)

    def decide(hand: Hand, position: int, accounts: tuple[int, ...]) -> Action:
        legal = hand.legal_actions()
        assert legal is not None
        if not _partner_in(hand, accounts, partner):
            return fair(hand, position, accounts)
        if not hand.board:
            return Action(ActionKind.CHECK_OR_CALL)
        if legal.call_amount:
            return Action(ActionKind.FOLD)
        return fair(hand, position, accounts)

    return decide


def receiver(partner: int, seed: int) -> Decide:
    """Bets the pot whenever its partner is in the hand."""
    fair = honest(seed)

    def decide(hand: Hand, position: int, accounts: tuple[int, ...]) -> Action:
        legal = hand.legal_actions()
        assert legal is not None
        if _partner_in(hand, accounts, partner) and legal.min_raise_to is not None:
            assert legal.max_raise_to is not None
            to = min(legal.max_raise_to, max(legal.min_raise_to, legal.current_bet + legal.pot))
            return Action(ActionKind.BET_OR_RAISE, to)
        return fair(hand, position, accounts)

    return decide


def soft(partner: int, seed: int) -> Decide:
    """Plays fair, but sees cheap flops with its partner and never bets or raises while the
    partner is in the hand."""
    fair = honest(seed)

    def decide(hand: Hand, position: int, accounts: tuple[int, ...]) -> Action:
        legal = hand.legal_actions()
        assert legal is not None
        left = {a for i, a in enumerate(accounts) if i != position and not hand.folded[i]}
        cheap = not hand.board and legal.call_amount <= 3 * hand.big_blind
        if partner in left and (hand.board or cheap):
            return Action(
                ActionKind.CHECK_OR_CALL if legal.call_amount == 0 or cheap else ActionKind.FOLD
            )
        return fair(hand, position, accounts)

    return decide


def bot_run(players: dict[int, Decide], hands: int, seed: int = 1) -> list[FloorHand]:
    """``hands`` hands at a 6-seat table, 50/100, every stack reloaded to 100 big blinds,
    the button moving one seat a hand."""
    accounts = list(players)
    out = []
    for number in range(hands):
        k = number % len(accounts)
        order = tuple(accounts[k:] + accounts[:k])  # position 0 first, the button last
        hand = Hand(
            spec=spec(sb=50, bb=100),
            players=[Player(seat=i + 1, stack=STACK) for i in range(len(order))],
            rng=SeededRandomSource(seed * 100_003 + number),
        )
        while not hand.is_over:
            legal = hand.legal_actions()
            if legal is None:
                hand.finish_showdown()
                continue
            hand.apply(players[order[legal.position]](hand, legal.position, order))
        out.append(FloorHand(number + 1, stored(hand), order, "t1"))
    return out
