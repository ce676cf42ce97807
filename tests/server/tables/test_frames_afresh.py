"""A table's frames, built with what the table keeps from one frame to the next (its game's
fixed members, its hand's shuffle commitments), are byte for byte the frames
built afresh whatever happens at the table: actions, seat options, disconnections, the
clock and the time bank, players sitting down, busting, rebuying, leaving, a seat held for
the waiting list, a new level of stakes, a new shuffle each hand. And no player's frame
holds another player's unshown cards (S-VIEW-1)."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.engine.errors import HandError
from pokerroom.engine.events import ActionTaken, BoardDealt, ForcedBet
from pokerroom.fairness import Shuffle
from pokerroom.rules.game import Stakes, Structure, Variant
from pokerroom.server.sockets import encoding
from pokerroom.server.tables.views import (
    FixedFields,
    note_action,
    public_state,
    state_for_seat,
    tenths,
)
from pokerroom.table import PreAction, Table, TableError
from tests.helpers.frames import pick
from tests.helpers.tables import titan_table

GAMES = [
    (Variant.HOLDEM, Structure.NO_LIMIT),
    (Variant.OMAHA, Structure.POT_LIMIT),
    (Variant.OMAHA_HILO, Structure.FIXED_LIMIT),
]


def check_frames(
    table: Table,
    fixed: FixedFields,
    version: int,
    now: float,
    last: dict[int, dict[str, Any]],
    shuffle: Shuffle | None,
) -> int:
    """The broadcast as the actor makes it against the same frames built afresh; how many
    frames were checked."""
    kwargs: dict[str, Any] = {"table_id": "t", "version": version, "now": now, "shuffle": shuffle}
    public = public_state(table, last_actions=last, fixed=fixed, **kwargs)
    fresh = public_state(table, last_actions=dict(last), **kwargs)
    shared = encoding.SharedEncoding(public)
    assert shared.whole == encoding.encode(fresh)
    if public["hand"] is not None and shuffle is not None:
        assert public["hand"]["commitment"] == shuffle.commitment
        assert public["hand"]["seed_commitment"] == shuffle.seed_commitment
    for seat in table.seats:
        sent = encoding.encode_utf8(state_for_seat(table, public, seat)).decode()  # as sent
        assert sent == encoding.encode(state_for_seat(table, fresh, seat)), f"seat {seat}"
        frame = json.loads(sent)
        for entry in frame["seats"]:  # S-VIEW-1: cards of one's own, or shown
            if entry["seat"] != seat and entry.get("cards") is not None:
                assert entry["shown"], f"seat {entry['seat']}'s cards in seat {seat}'s frame"
        hand = table.hand
        if hand is not None and not hand.is_over and seat in table.hand_seats:
            own = frame["seats"][seat - 1]["cards"]
            assert own == [str(c) for c in hand.hole_cards(table.hand_seats.index(seat))]
    return 1 + len(table.seats)


def shake(table: Table, rng: random.Random, now: float) -> float:
    """Something other than a betting action: a seat option, a connection, the clock, a
    seat taken or left, chips added, a new level of stakes, the waiting list; the time
    after it."""
    seated = list(table.seats.values())
    seat = rng.choice(seated) if seated else None
    roll = rng.randrange(11)
    try:
        if roll == 0 and seat is not None:
            table.set_options(seat.player, sit_out_next=rng.random() < 0.5)
        elif roll == 1 and seat is not None:
            table.set_options(seat.player, pre_action=rng.choice([None, *PreAction]))
        elif roll == 2 and seat is not None:
            table.set_options(seat.player, auto_muck=rng.random() < 0.5, auto_post=True)
        elif roll == 3 and seat is not None:
            if seat.connected:
                table.disconnect(seat.player, now)
            else:
                table.reconnect(seat.player, now)
        elif roll == 4:
            now += rng.choice([5.0, 12.0, 31.0, 45.0])  # the warning, the time bank, out
            table.tick(now)
        elif roll == 5 and seat is not None:
            table.leave(seat.player, now)
        elif roll == 6:
            free = [n for n in range(1, table.max_seats + 1) if n not in table.seats]
            if free:
                number = rng.choice(free)
                table.sit(f"n{number}{rng.randrange(99)}", number, table.min_buy_in, name="New")
        elif roll == 7 and seat is not None and seat.stack < table.max_buy_in:
            table.add_chips(seat.player, 1 + rng.randrange(table.max_buy_in - seat.stack))
        elif roll == 8:
            blind = rng.choice([100, 200])
            table.set_stakes(Stakes(small_blind=blind, big_blind=2 * blind))
        elif roll == 9:
            table.join_waiting_list(f"w{rng.randrange(5)}", now, name="Waiter")
            table.offer_seats(now)
        elif seat is not None:
            table.sit_out(seat.player) if rng.random() < 0.5 else table.sit_in(seat.player)
    except (TableError, HandError):
        pass  # not allowed now: nothing changed
    return now


def play(variant: Variant, structure: Structure, seed: int, steps: int) -> int:
    rng = random.Random(seed)
    stacks = {
        n: rng.choice([4_000, 4_500, 8_000, 20_000]) for n in range(1, 7) if rng.random() < 0.9
    }
    table = titan_table(stacks, seed=seed, variant=variant, structure=structure)
    fixed = FixedFields()
    last: dict[int, dict[str, Any]] = {}
    now, checked = 0.0, 0
    shuffle = None
    for version in range(steps):
        now += rng.choice([0.5, 1.0, 7.0])
        if table.hand is None and table.can_start() and rng.random() < 0.7:
            shuffle = Shuffle.deal(rng.randbytes(32))  # its commitments are in the frame
            events = table.start_hand(now, deck=shuffle.deck)
            last = {}
        elif table.hand is not None and table.actor_seat() is not None and rng.random() < 0.7:
            player = table.seats[table.actor_seat()].player  # type: ignore[index]
            events = table.act(player, pick(table, rng), now)
        else:
            now = shake(table, rng, now)
            events = []
        for event in events:
            if isinstance(event, (ActionTaken, ForcedBet, BoardDealt)):
                last = note_action(last, event)
        checked += check_frames(table, fixed, version, now, last, shuffle)
    return checked


def test_frames_are_the_frames_built_afresh_over_fixed_games() -> None:
    checked = sum(play(*game, seed=seed, steps=150) for game in GAMES for seed in (1, 2))
    assert checked > 3_000


@settings(max_examples=25, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_frames_are_the_frames_built_afresh_any_seed(
    game: tuple[Variant, Structure], seed: int
) -> None:
    play(*game, seed=seed, steps=60)


@given(st.floats(allow_nan=False) | st.integers(min_value=-(10**6), max_value=10**6))
def test_tenths_is_round_to_a_tenth_to_the_byte(seconds: float) -> None:
    """A seat's time bank, shown in tenths: the same JSON as ``round(seconds, 1)``."""
    assert encoding.encode({"t": tenths(seconds)}) == encoding.encode({"t": round(seconds, 1)})
