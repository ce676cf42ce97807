"""S-VIEW-1 in the broadcast's own code: each viewer's frame, as the table's
actor builds and encodes it (``public_state`` once, ``SharedEncoding`` once, one
``state_for_seat`` per seated viewer), checked against the engine's plain view for that
viewer (``view_for(hand, position)``) over whole hands of hold'em, pot-limit Omaha and
Omaha hi-lo with folds, raises, all-ins and showdowns: the same cards, stacks, bets and
legal actions, nothing of another seat's hand before it is shown, and every member that
is not the viewer's own exactly the spectators' frame."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.engine.events import ActionTaken, BoardDealt, CardsShown, ForcedBet
from pokerroom.engine.hand import Phase
from pokerroom.engine.views import view_for
from pokerroom.rules.game import Structure, Variant
from pokerroom.server.sockets import encoding
from pokerroom.server.tables.views import note_action, public_state, state_for_seat
from pokerroom.table import Table
from tests.helpers.frames import pick
from tests.helpers.tables import titan_table

GAMES = [
    (Variant.HOLDEM, Structure.NO_LIMIT),
    (Variant.OMAHA, Structure.POT_LIMIT),
    (Variant.OMAHA_HILO, Structure.FIXED_LIMIT),
    (Variant.OMAHA_HILO, Structure.NO_LIMIT),
]
OWN = {"seats", "you", "options", "buy_in", "hand"}  # what a viewer's frame may change


def frames_of_hands(
    variant: Variant, structure: Structure, seed: int, hands: int
) -> tuple[list[tuple[str, dict[int, str]]], int]:
    """Every broadcast of ``hands`` hands (short stacks: all-ins and showdowns are common),
    each checked as it is sent: the spectators' frame and each seated viewer's; and how
    many hands were shown down."""
    rng = random.Random(seed)
    stacks = {seat: rng.choice([4_000, 4_500, 8_000, 20_000]) for seat in range(1, 6)}
    table = titan_table(stacks, seed=seed, variant=variant, structure=structure)
    sent: list[tuple[str, dict[int, str]]] = []
    showdowns = 0
    last: dict[int, dict[str, Any]] = {}
    for number in range(hands):
        if not table.can_start():
            break
        table.start_hand(float(number))
        last = {}
        while True:
            public = public_state(
                table, table_id="t", version=len(sent), now=float(number), last_actions=last
            )
            shared = encoding.SharedEncoding(public)
            per_seat = {
                s: encoding.encode_utf8(state_for_seat(table, public, s)).decode()  # as sent
                for s in table.seats
            }
            check_broadcast(table, shared.whole, per_seat)
            sent.append((shared.whole, per_seat))
            if table.hand is None:
                break
            player = table.seats[table.actor_seat()].player
            events = table.act(player, pick(table, rng), float(number))
            showdowns += any(isinstance(e, CardsShown) for e in events)
            for event in events:
                if isinstance(event, (ActionTaken, ForcedBet, BoardDealt)):
                    last = note_action(last, event)
    return sent, showdowns


def check_broadcast(table: Table, whole: str, per_seat: dict[int, str]) -> None:
    public = json.loads(whole)
    hand = table.hand
    live = hand is not None and not hand.is_over
    for viewer, text in per_seat.items():
        frame = json.loads(text)
        assert frame["you"] == viewer
        # Everything but the viewer's own members is the spectators' frame, as it is.
        assert {k: v for k, v in frame.items() if k not in OWN} == {
            k: v for k, v in public.items() if k not in OWN
        }
        assert frame["hand"] is None or {
            k: v for k, v in frame["hand"].items() if k != "legal"
        } == {k: v for k, v in public["hand"].items() if k != "legal"}
        if not live:
            assert frame["seats"] == public["seats"]
            continue
        assert hand is not None
        position = table.hand_seats.index(viewer) if viewer in table.hand_seats else None
        view = view_for(hand, position)  # the plain view this viewer may have
        seen = {sv.seat: sv for sv in view.seats}
        for entry, spectator in zip(frame["seats"], public["seats"], strict=True):
            sv = seen.get(entry["seat"])
            if sv is None:  # not dealt in: the spectators' entry
                assert entry == spectator
                continue
            cards = None if sv.cards is None else [str(c) for c in sv.cards]
            assert entry["cards"] == cards, f"seat {entry['seat']} seen by seat {viewer}"
            assert (entry["stack"], entry["bet"], entry["folded"], entry["all_in"]) == (
                sv.stack,
                sv.bet,
                sv.folded,
                sv.all_in,
            )
            assert (entry["card_count"], entry["shown"]) == (sv.card_count, sv.shown)
            if entry["seat"] != viewer:  # S-VIEW-1: another's cards only once shown
                assert entry == spectator
                assert entry["cards"] is None or sv.shown
        legal = frame["hand"]["legal"]
        if view.legal is None or hand.phase is not Phase.BETTING:
            assert legal is None
        else:
            assert (legal["can_check"], legal["call"], legal["min_raise_to"]) == (
                view.legal.can_check,
                view.legal.call_amount,
                view.legal.min_raise_to,
            )
            assert legal["max_raise_to"] == view.legal.max_raise_to
    # The spectators see no hole card before it is shown.
    for entry in public["seats"]:
        assert entry.get("cards") is None or entry.get("shown")


def test_S_VIEW_1_each_viewers_frame_is_its_own_view_over_fixed_hands() -> None:
    """Fixed seeds: every game, with players all in while others bet on, and showdowns
    (hi-lo split pots among them): the frames after a showdown are checked as well."""
    all_in = legal = showdowns = 0
    for variant, structure in GAMES:
        sent, shown = frames_of_hands(variant, structure, seed=3, hands=25)
        for whole, per_seat in sent:
            all_in += '"all_in":true' in whole
            legal += sum('"legal":{' in text for text in per_seat.values())
        showdowns += shown
    assert all_in > 20 and legal > 200 and showdowns > 10


@settings(max_examples=12, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_S_VIEW_1_each_viewers_frame_is_its_own_view_any_seed(
    game: tuple[Variant, Structure], seed: int
) -> None:
    frames_of_hands(*game, seed=seed, hands=6)


def test_a_broadcast_to_players_only_never_encodes_the_spectators_frame() -> None:
    """A table of players only (the usual case) has no use for the public frame:
    it is encoded when a spectator asks for it, once."""
    shared = encoding.SharedEncoding({"type": "table", "seats": []})
    assert shared._whole is None
    assert shared.whole == '{"type":"table","seats":[]}' and shared.whole is shared.whole
