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
