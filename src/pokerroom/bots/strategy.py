"""How bots decide. A bot sees only what its seat sees (its own cards, the board, the legal
actions and the pot) and always answers with one of the legal actions."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from pokerroom.cards import Card
from pokerroom.engine.actions import Action, ActionKind, LegalActions
from pokerroom.engine.hand import Hand
from pokerroom.evaluation.classes import Category, category_of
from pokerroom.evaluation.equity import equity
from pokerroom.evaluation.high import evaluate_codes
from pokerroom.rules.game import Variant


@dataclass(frozen=True, slots=True)
class Situation:
    variant: Variant
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    legal: LegalActions
    opponents: int  # players still in the hand besides the bot
    big_blind: int


class Strategy(Protocol):
    name: str

    def decide(self, situation: Situation) -> Action: ...


def situation_for(hand: Hand, position: int) -> Situation:
    """What the seat at ``position`` knows when it is to act (nothing of others' cards)."""
    legal = hand.legal_actions()
    if legal is None or legal.position != position:
        raise ValueError(f"position {position} is not to act")
    return Situation(
        variant=hand.variant,
        hole=hand.hole_cards(position),
        board=hand.board_cards(),
        legal=legal,
        opponents=sum(1 for i in range(hand.n) if i != position and not hand.folded[i]),
        big_blind=hand.big_blind,
    )


def _raise(legal: LegalActions, fraction_of_pot: float) -> Action:
    """A bet or raise of about ``fraction_of_pot``, clamped to the legal range."""
    assert legal.min_raise_to is not None and legal.max_raise_to is not None
    target = (
        legal.current_bet
        + legal.call_amount
        + int(fraction_of_pot * (legal.pot + legal.call_amount))
    )
    to = max(legal.min_raise_to, min(legal.max_raise_to, target))
    return Action(ActionKind.BET_OR_RAISE, amount=to)


def _check_or_fold(legal: LegalActions) -> Action:
    return Action(ActionKind.CHECK if legal.can_check else ActionKind.FOLD)


def _pot_odds(legal: LegalActions) -> float:
    """The share of the final pot a call costs: call only with more equity than this."""
    if legal.call_amount == 0:
        return 0.0
    return legal.call_amount / (legal.pot + legal.call_amount)


def preflop_score(hole: tuple[Card, ...]) -> float:
    """A rough 0..1 strength of two hole cards (pairs, high cards, suited, connected)."""
    a, b = sorted((c.rank for c in hole[:2]), reverse=True)
    score = (a + b) / 24
    if a == b:
        score = 0.55 + a / 26
    if hole[0].suit == hole[1].suit:
        score += 0.06
    if 0 < a - b <= 2:
        score += 0.04
    return min(score, 1.0)


class RuleBot:
    """Plays by rules of thumb: strong starting hands and made hands bet, draws call cheaply."""

    name = "rules"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def decide(self, situation: Situation) -> Action:
        legal = situation.legal
        if not situation.board:
            score = preflop_score(situation.hole)
            if situation.variant is not Variant.HOLDEM:
                score = max(preflop_score(situation.hole[i : i + 2]) for i in (0, 1, 2)) * 0.9
            if score > 0.8 and legal.can_raise:
                return _raise(legal, 0.75)
            if score > 0.55 or (score > 0.4 and legal.call_amount <= situation.big_blind):
                return Action(ActionKind.CHECK_OR_CALL)
            return _check_or_fold(legal)
        strength = self._made_hand(situation)
        if strength >= Category.TWO_PAIR and legal.can_raise:
            return _raise(legal, 0.6 if self.rng.random() < 0.8 else 1.0)
        if strength >= Category.PAIR and _pot_odds(legal) < 0.35:
            return Action(ActionKind.CHECK_OR_CALL)
        if legal.can_check:
            return Action(ActionKind.CHECK)
        return Action(ActionKind.FOLD if _pot_odds(legal) > 0.15 else ActionKind.CALL)

    @staticmethod
    def _made_hand(situation: Situation) -> Category:
        codes = [c.code for c in situation.board]
        if situation.variant is Variant.HOLDEM:
            return category_of(evaluate_codes([c.code for c in situation.hole] + codes))
        from pokerroom.engine.showdown import high_strength

        if len(codes) < 3:
            return Category.HIGH_CARD
        return category_of(
            high_strength(situation.variant, [c.code for c in situation.hole], codes[:5])
        )


class TightBot:
    """The house's steady regular: a tight, human mix. Preflop it opens good hands to three
    big blinds (limping some playable ones now and then), re-raises only the best, calls a
    raise with strong hands and folds the rest; it risks a large part of its stack only with
    the very best hands. After the flop it bets its made hands at about half the pot, calls
    with a pair when the price is fair and the bet no large part of its stack, and raises
    only with two pair or better. Stacks therefore last: a sit & go sees its levels rise."""

    name = "tight"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def decide(self, situation: Situation) -> Action:
        legal = situation.legal
        bb = max(1, situation.big_blind)
        # What the bot has in all, its bet in this round included (all-in is max_raise_to).
        stack = legal.max_raise_to if legal.max_raise_to is not None else legal.call_amount
        big = legal.call_amount * 3 > max(1, stack)  # a call of more than a third of it
        if not situation.board:
            return self._preflop(situation, bb, big)
        strength = RuleBot._made_hand(situation)
        if legal.can_check:
            if strength >= Category.PAIR and legal.can_raise and self.rng.random() < 0.6:
                return _raise(legal, 0.5)
            return Action(ActionKind.CHECK)
        if strength >= Category.THREE_OF_A_KIND and legal.can_raise:
            return _raise(legal, 0.75)
        if strength >= Category.TWO_PAIR and (not big or strength >= Category.THREE_OF_A_KIND):
            return Action(ActionKind.CHECK_OR_CALL)
        if strength >= Category.TWO_PAIR:  # two pair, for most of the stack: now and then
            return Action(ActionKind.CHECK_OR_CALL if self.rng.random() < 0.5 else ActionKind.FOLD)
        if strength >= Category.PAIR and not big and _pot_odds(legal) < 0.25:
            return Action(ActionKind.CHECK_OR_CALL)
        return Action(ActionKind.FOLD)

    def _preflop(self, situation: Situation, bb: int, big: bool) -> Action:
        legal = situation.legal
        score = preflop_score(situation.hole)
        if situation.variant is not Variant.HOLDEM:
            score = max(preflop_score(situation.hole[i : i + 2]) for i in (0, 1, 2)) * 0.9
        facing = legal.call_amount / bb  # big blinds to call
        if big or facing > 4:  # a shove or a big raise: only the very best go on
            if score >= 0.93 and legal.can_raise and not big:
                return _raise_to(legal, 3 * legal.current_bet)
            return Action(ActionKind.CHECK_OR_CALL) if score >= 0.93 else _check_or_fold(legal)
        if facing > 1:  # a raise
            if score >= 0.93 and legal.can_raise:
                return _raise_to(legal, 3 * legal.current_bet)
            if score >= 0.8:
                return Action(ActionKind.CHECK_OR_CALL)
            return _check_or_fold(legal)
        # No raise yet: open, limp now and then, or check / fold.
        if score >= 0.78 and legal.can_raise and self.rng.random() < 0.85:
            return _raise_to(legal, 3 * bb)
        if score >= 0.6 and self.rng.random() < 0.5:
            return Action(ActionKind.CHECK_OR_CALL)
        return _check_or_fold(legal)


def _raise_to(legal: LegalActions, to: int) -> Action:
    assert legal.min_raise_to is not None and legal.max_raise_to is not None
    return Action(
        ActionKind.BET_OR_RAISE, amount=max(legal.min_raise_to, min(legal.max_raise_to, to))
    )


def house_strategy(index: int) -> Strategy:
    """What the room's own bots play (the demo tables' and the open sit & go's): the steady
    regular, with an equity player among every three at cash tables."""
    if index % 3 == 2:
        return EquityBot(samples=300, rng=np.random.default_rng())
    return TightBot()


class EquityBot:
    """Estimates its equity against random hands of the players left, and compares it with
    the price of calling: raises when well ahead, calls when the pot pays, folds otherwise."""

    name = "equity"

    def __init__(self, samples: int = 600, rng: np.random.Generator | None = None) -> None:
        self.samples = samples
        self.rng = rng or np.random.default_rng()

    def estimate(self, situation: Situation) -> float:
        known = {c.code for c in (*situation.hole, *situation.board)}
        deck = [c for c in range(52) if c not in known]
        size = len(situation.hole)
        wins = 0.0
        rounds = max(1, self.samples // 100)
        for _ in range(rounds):  # a few random deals of the opponents' cards
            picks = self.rng.choice(deck, size=size * situation.opponents, replace=False)
            hands = [situation.hole] + [
                tuple(Card.from_code(int(c)) for c in picks[k * size : (k + 1) * size])
                for k in range(situation.opponents)
            ]
            result = equity(
                hands, board=situation.board, game=situation.variant, samples=100, rng=self.rng
            )
            wins += result.hands[0].equity
        return wins / rounds

    def decide(self, situation: Situation) -> Action:
        legal = situation.legal
        share = self.estimate(situation)
        fair = 1 / (situation.opponents + 1)
        if share > max(0.6, 1.6 * fair) and legal.can_raise:
            return _raise(legal, 0.5 + share / 2)
        if share >= _pot_odds(legal) * 1.1 or legal.can_check:
            return Action(ActionKind.CHECK_OR_CALL)
        return Action(ActionKind.FOLD)
