"""In-memory tables for tests: built (a house preset's table, players seated) and played hand by
hand with a policy, no server in between."""

from __future__ import annotations

import random
from collections.abc import Mapping

from pokerroom.engine import Action, ActionKind
from pokerroom.engine.events import Event, ForcedBet
from pokerroom.rng import SeededRandomSource
from pokerroom.rules import load_preset
from pokerroom.rules.game import Structure, Variant
from pokerroom.table import Table
from pokerroom.table.events import HandStarting

BB = 200  # $2 big blind in cents


def make_table(
    preset: str = "titan",
    seats: int = 6,
    players: dict[int, int] | None = None,
    structure: Structure = Structure.NO_LIMIT,
    seed: int = 1,
) -> Table:
    house = load_preset(preset)
    spec = house.game(Variant.HOLDEM, structure, BB)
    table = Table(spec=spec, house=house, seats=seats, rng=SeededRandomSource(seed))
    for seat, stack in (players or {}).items():
        table.sit(f"p{seat}", seat, stack)
    return table


def finish_hand(table: Table, now: float = 0.0, policy: str = "check") -> list[Event]:
    """Play the current hand to the end: everyone checks or calls (or folds to a bet)."""
    events: list[Event] = []
    while table.hand is not None:
        seat = table.actor_seat()
        assert seat is not None
        kind = ActionKind.FOLD if policy == "fold" else ActionKind.CHECK_OR_CALL
        legal = table.hand.legal_actions()
        if policy == "fold" and legal is not None and legal.can_check:
            kind = ActionKind.CHECK_OR_CALL
        events += table.act(table.seats[seat].player, Action(kind), now)
    return events


def play(table: Table, now: float = 0.0, policy: str = "check") -> HandStarting | None:
    """Start and finish one hand; its HandStarting event (None if no hand could start)."""
    events = table.start_hand(now)
    started = [e for e in events if isinstance(e, HandStarting)]
    if not started:
        return None
    finish_hand(table, now, policy)
    return started[0]


def posts(events: list[Event]) -> list[tuple[int, str, int]]:
    return [(e.seat, e.what, e.amount) for e in events if isinstance(e, ForcedBet)]


def random_policy(table: Table, rng: random.Random, now: float) -> list[Event]:
    seat = table.actor_seat()
    assert seat is not None and table.hand is not None
    legal = table.hand.legal_actions()
    assert legal is not None
    player = table.seats[seat].player
    roll = rng.random()
    if roll < 0.2 and not legal.can_check:
        return table.act(player, Action(ActionKind.FOLD), now)
    if roll < 0.8 or legal.min_raise_to is None or legal.max_raise_to is None:
        return table.act(player, Action(ActionKind.CHECK_OR_CALL), now)
    return table.act(
        player,
        Action(ActionKind.BET_OR_RAISE, rng.randint(legal.min_raise_to, legal.max_raise_to)),
        now,
    )


def titan_table(
    stacks: Mapping[int, int],
    *,
    seed: int,
    variant: Variant = Variant.HOLDEM,
    structure: Structure = Structure.NO_LIMIT,
) -> Table:
    """Six seats at 100/200; player ``p<seat>`` (named ``P<seat>``) in each seat of
    ``stacks`` with that stack."""
    house = load_preset("titan")
    table = Table(
        spec=house.game(variant, structure, 200),
        house=house,
        seats=6,
        rng=SeededRandomSource(seed),
    )
    for seat, stack in stacks.items():
        table.sit(f"p{seat}", seat, stack, name=f"P{seat}")
    return table
