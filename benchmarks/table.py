"""The table layer: a 6-max table with random players, beside the bare engine, same run.

Same policy and stakes as the engine benchmark (no-limit hold'em, random actions). The
table deals hand after hand: it plans the blinds, builds each hand, starts a turn timer
at every decision, settles stacks, and players rebuy when short. The bare engine then
plays the very same hands -- the same players and stacks in the same positions, the
same shuffles, the same random decisions -- with nothing around it but the player
records each hand is dealt to, and both must end every hand with the same stacks.
Target: the table costs at most 20%.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from benchmarks.report import Report, Row
from pokerroom.engine import Action, ActionKind, Hand, LegalActions, Player
from pokerroom.rng import SeededRandomSource
from pokerroom.rules import load_preset
from pokerroom.rules.game import Structure, Variant
from pokerroom.table import Table

HOUSE = load_preset("titan")
SPEC = HOUSE.game(Variant.HOLDEM, Structure.NO_LIMIT, 200)
STACK = 20_000
SEED = 1


def _choose(rng: random.Random, legal: LegalActions) -> Action:
    roll = rng.random()
    if roll < 0.25 and legal.call_amount:
        return Action(ActionKind.FOLD)
    if roll < 0.75 or legal.min_raise_to is None or legal.max_raise_to is None:
        return Action(ActionKind.CHECK_OR_CALL)
    return Action(ActionKind.BET_OR_RAISE, rng.randint(legal.min_raise_to, legal.max_raise_to))


@dataclass(frozen=True)
class Dealt:
    """One hand as the table dealt it: what the bare engine needs to deal it again."""

    seats: list[int]  # by position
    stacks: list[int]  # by position, as the hand starts
    blinds: list[int]
    final_stacks: list[int]


def table(hands: int, dealt: list[Dealt] | None = None) -> float:
    """Hands per second at the table; ``dealt`` (untimed runs only) collects every hand."""
    rng = random.Random(SEED)
    tab = Table(spec=SPEC, house=HOUSE, seats=6, rng=SeededRandomSource(SEED))
    for n in range(1, 7):
        tab.sit(f"p{n}", n, STACK)
    now = 0.0
    floor = tab.min_buy_in  # fixed by the house: read once, as a server would
    short = list(tab.seats.values())
    start = time.perf_counter()
    for _ in range(hands):
        for seat in short:  # players look at their stacks when a hand ends
            if seat.stack < floor:
                tab.add_chips(seat.player, STACK - seat.stack)  # rebuy when short
        tab.start_hand(now)
        setup = tab.hand.setup if dealt is not None and tab.hand is not None else None
        while (hand := tab.hand) is not None:
            now += 1.0
            number = tab.actor_seat()
            legal = hand.legal_actions()
            assert number is not None and legal is not None
            tab.act(tab.seats[number].player, _choose(rng, legal), now)
        finished = tab.last_hand
        assert finished is not None
        stacks = zip(finished.seats, finished.stacks, strict=True)
        short = [tab.seats[n] for n, stack in stacks if stack < floor]
        if dealt is not None and setup is not None and tab.last_hand is not None:
            assert not setup.posts, "nobody joins or returns in this benchmark"
            dealt.append(
                Dealt(
                    list(setup.seats),
                    list(setup.stacks),
                    list(setup.blinds),
                    list(tab.last_hand.stacks),
                )
            )
    return hands / (time.perf_counter() - start)


def bare(dealt: list[Dealt], check: bool = False) -> float:
    """Hands per second of the bare engine playing the table's hands again."""
    rng, source = random.Random(SEED), SeededRandomSource(SEED)
    start = time.perf_counter()
    for deal in dealt:
        # Dealing a hand takes the players with their stacks of the moment, as at the table.
        players = [Player(n, s) for n, s in zip(deal.seats, deal.stacks, strict=True)]
        hand = Hand(spec=SPEC, players=players, house=HOUSE, rng=source, blinds=deal.blinds)
        while not hand.is_over:
            legal = hand.legal_actions()
            assert legal is not None
            hand.apply(_choose(rng, legal))
        if check and hand.stacks != deal.final_stacks:
            raise AssertionError("the bare engine did not play the table's hand")
    return len(dealt) / (time.perf_counter() - start)


def run() -> Report:
    report = Report("The table layer")
    hands = 2_000
    dealt: list[Dealt] = []
    table(hands, dealt)
    bare(dealt, check=True)  # the same hands, to the chip
    rounds = [(bare(dealt), table(hands)) for _ in range(5)]
    bare_rate = sorted(r[0] for r in rounds)[2]
    table_rate = sorted(r[1] for r in rounds)[2]
    report.add(
        Row(
            "6-max table, random players (vs the bare engine)",
            table_rate,
            "/s",
            {"bare engine, the same hands": bare_rate},
            target="table costs <= 20%",
        )
    )
    report.notes.append(
        f"table layer cost: {1 - table_rate / bare_rate:.0%} of the bare engine's rate"
    )
    return report
