"""The table layer: a 6-max table with random players, beside the bare engine, same run.

Same policy and stakes as the engine benchmark (no-limit hold'em, random actions). The
table deals hand after hand: it plans the blinds, builds each hand, starts a turn timer
at every decision, settles stacks, and players rebuy when short. The bare engine plays
the same hands with fixed seats. Target: the table costs at most 20%.
"""

from __future__ import annotations

import random
import time

from benchmarks.report import Report, Row
from pokerroom.engine import Action, ActionKind, Hand, LegalActions, Player
from pokerroom.rng import SeededRandomSource
from pokerroom.rules import load_preset
from pokerroom.rules.game import Structure, Variant
from pokerroom.table import Table

HOUSE = load_preset("titan")
SPEC = HOUSE.game(Variant.HOLDEM, Structure.NO_LIMIT, 200)
STACK = 20_000


def _choose(rng: random.Random, legal: LegalActions) -> Action:
    roll = rng.random()
    if roll < 0.25 and legal.call_amount:
        return Action(ActionKind.FOLD)
    if roll < 0.75 or legal.min_raise_to is None or legal.max_raise_to is None:
        return Action(ActionKind.CHECK_OR_CALL)
    return Action(ActionKind.BET_OR_RAISE, rng.randint(legal.min_raise_to, legal.max_raise_to))


def bare(hands: int) -> float:
    rng, source = random.Random(1), SeededRandomSource(1)
    players = [Player(seat=i + 1, stack=STACK) for i in range(6)]
    start = time.perf_counter()
    for _ in range(hands):
        hand = Hand(spec=SPEC, players=players, house=HOUSE, rng=source)
        while not hand.is_over:
            legal = hand.legal_actions()
            assert legal is not None
            hand.apply(_choose(rng, legal))
    return hands / (time.perf_counter() - start)


def table(hands: int) -> float:
    rng = random.Random(1)
    tab = Table(spec=SPEC, house=HOUSE, seats=6, rng=SeededRandomSource(1))
    for n in range(1, 7):
        tab.sit(f"p{n}", n, STACK)
    now = 0.0
    floor = tab.min_buy_in  # fixed by the house: read once, as a server would
    start = time.perf_counter()
    for _ in range(hands):
        for seat in list(tab.seats.values()):
            if seat.stack < floor:
                tab.add_chips(seat.player, STACK - seat.stack)  # rebuy when short
        tab.start_hand(now)
        while (hand := tab.hand) is not None:
            now += 1.0
            number = tab.actor_seat()
            legal = hand.legal_actions()
            assert number is not None and legal is not None
            tab.act(tab.seats[number].player, _choose(rng, legal), now)
    return hands / (time.perf_counter() - start)


def run() -> Report:
    report = Report("The table layer (issue 4)")
    rounds = [(bare(2_000), table(2_000)) for _ in range(5)]
    bare_rate = sorted(r[0] for r in rounds)[2]
    table_rate = sorted(r[1] for r in rounds)[2]
    report.add(
        Row(
            "6-max table, random players (vs the bare engine)",
            table_rate,
            "/s",
            {"bare engine, same hands": bare_rate},
            target="table costs <= 20%",
        )
    )
    report.notes.append(
        f"table layer cost: {1 - table_rate / bare_rate:.0%} of the bare engine's rate"
    )
    return report
