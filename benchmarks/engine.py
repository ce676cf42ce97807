"""The hand engine: random-action hands in ours, PokerKit and pokerfast's FastHand, and
PHH replay speed.

Each decision: fold (a quarter of the time, when facing a bet), check or call (half),
or bet/raise to a uniformly random legal amount (a quarter); six players with 200
big blinds. Both engines play to the end with all their rules, events and showdown;
PokerKit with every automation on (it deals from its own shuffled deck). FastHand plays
only 6-max no-limit hold'em, so it is in the no-limit row only.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

from pokerfast import FastHand
from pokerkit import (
    Automation,
    FixedLimitOmahaHoldemHighLowSplitEightOrBetter,
    HandHistory,
    NoLimitTexasHoldem,
)

from benchmarks.report import Report, Row
from pokerroom.engine import Hand, Player
from pokerroom.history.phh import iter_paths, load_file, replay
from pokerroom.rng import SeededRandomSource
from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "phh"
EVERY_AUTOMATION = tuple(Automation)
STACK = 400  # 200 big blinds of 2


def _pokerkit_hand(state_factory: Callable[[], object], rng: random.Random) -> None:
    state: object = state_factory()
    s = state  # PokerKit's State; typed loosely to keep the peer out of our types
    while s.status:  # type: ignore[attr-defined]
        roll = rng.random()
        if roll < 0.25 and s.checking_or_calling_amount:  # type: ignore[attr-defined]
            s.fold()  # type: ignore[attr-defined]
        elif roll < 0.75 or not s.can_complete_bet_or_raise_to():  # type: ignore[attr-defined]
            s.check_or_call()  # type: ignore[attr-defined]
        else:
            low = s.min_completion_betting_or_raising_to_amount  # type: ignore[attr-defined]
            high = s.max_completion_betting_or_raising_to_amount  # type: ignore[attr-defined]
            s.complete_bet_or_raise_to(rng.randint(low, high))  # type: ignore[attr-defined]


def _fasthand_hand(rng: random.Random) -> None:
    # The same policy through FastHand's API: its get_action_space() offers "fold" only when
    # facing a bet, and its bet_or_raise takes the chips added rather than the total raised
    # to, so a uniform draw over [min_bet, max_bet] is the same uniform draw over the legal
    # raise-to amounts. Every stack is STACK (min_stack = max_stack), the blinds 1 and 2.
    hand = FastHand(small_blind=1, big_blind=2, min_stack=STACK, max_stack=STACK, rng=rng)
    while (space := hand.get_action_space()) and not hand.done:
        roll = rng.random()
        if roll < 0.25 and "fold" in space:
            hand.fold()
        elif roll < 0.75 or "min_bet" not in space:
            if "call" in space:
                hand.call()
            else:
                hand.check()
        else:
            hand.bet_or_raise(rng.randint(space["min_bet"], space["max_bet"]))


def _our_hand(
    spec: GameSpec, players: list[Player], source: SeededRandomSource, rng: random.Random
) -> None:
    hand = Hand(spec=spec, players=players, rng=source)
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        roll = rng.random()
        if roll < 0.25 and legal.call_amount:
            hand.fold()
        elif roll < 0.75 or legal.min_raise_to is None or legal.max_raise_to is None:
            hand.check_or_call()
        else:
            hand.bet_or_raise(rng.randint(legal.min_raise_to, legal.max_raise_to))


def _hands_per_second(play: Callable[[], None], seconds: float, rounds: int = 5) -> float:
    """Median over ``rounds`` runs of hands played per second for ``seconds`` each."""
    rates = []
    for _ in range(rounds):
        count, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            play()
            count += 1
        rates.append(count / elapsed)
    rates.sort()
    return rates[len(rates) // 2]


def random_hands(report: Report) -> None:
    rng = random.Random(2026)
    source = SeededRandomSource(2026)
    players = [Player(seat=i + 1, stack=STACK) for i in range(6)]
    nlhe = GameSpec(
        variant=Variant.HOLDEM,
        structure=Structure.NO_LIMIT,
        stakes=Stakes(small_blind=1, big_blind=2),
    )

    def pk_nlhe() -> object:
        return NoLimitTexasHoldem.create_state(EVERY_AUTOMATION, True, 0, (1, 2), 2, [STACK] * 6, 6)

    report.add(
        Row(
            "6-max no-limit hold'em, random actions",
            _hands_per_second(lambda: _our_hand(nlhe, players, source, rng), 1.0),
            "/s",
            {
                "PokerKit": _hands_per_second(lambda: _pokerkit_hand(pk_nlhe, rng), 1.0),
                "pokerfast FastHand": _hands_per_second(lambda: _fasthand_hand(rng), 1.0),
            },
            target=">= 100x PokerKit",
        )
    )
    plo8 = GameSpec(
        variant=Variant.OMAHA_HILO,
        structure=Structure.POT_LIMIT,
        stakes=Stakes(small_blind=1, big_blind=2),
    )

    def pk_plo8() -> object:
        # PokerKit's "fixed-limit" Omaha hi-lo class bets pot-limit.
        return FixedLimitOmahaHoldemHighLowSplitEightOrBetter.create_state(
            EVERY_AUTOMATION, True, 0, (1, 2), 2, 4, [STACK] * 6, 6
        )

    report.add(
        Row(
            "6-max pot-limit Omaha Hi-Lo, random actions",
            _hands_per_second(lambda: _our_hand(plo8, players, source, rng), 1.0),
            "/s",
            {
                "PokerKit (its PL Omaha hi-lo)": _hands_per_second(
                    lambda: _pokerkit_hand(pk_plo8, rng), 1.0
                )
            },
        )
    )


def replay_corpus(report: Report) -> None:
    if not CORPUS.is_dir():
        report.notes.append(f"replay: no corpus at {CORPUS}")
        return
    hands = [h for path in iter_paths([CORPUS]) for h in load_file(path)]
    start = time.perf_counter()
    for hand in hands:
        replay(hand)
    ours = len(hands) / (time.perf_counter() - start)
    sample = list(iter_paths([CORPUS]))[:300]
    texts = [p.read_text() for p in sample]
    start = time.perf_counter()
    for text in texts:
        history = HandHistory.loads(text)
        for _ in history:
            pass
    theirs = len(texts) / (time.perf_counter() - start)
    report.add(
        Row(
            f"PHH replay, shared corpus ({len(hands):,} hands)",
            ours,
            "/s",
            {"PokerKit HandHistory (300 hands)": theirs},
        )
    )


def run() -> Report:
    report = Report("The hand engine")
    random_hands(report)
    replay_corpus(report)
    return report
