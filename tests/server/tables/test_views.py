"""Presentation built outside the table's actor: the labels beside each seat, the
five cards of a shown hand and the hand-result frame, in server/tables/views.py."""

from __future__ import annotations

from typing import Any

from pokerroom.cards import parse_cards
from pokerroom.engine.actions import Action, ActionKind
from pokerroom.engine.events import (
    ActionTaken,
    BoardDealt,
    ForcedBet,
    ForcedBetKind,
    Move,
    PotAwarded,
    PotShare,
)
from pokerroom.rng import SeededRandomSource
from pokerroom.rules import load_preset
from pokerroom.rules.game import Structure, Variant
from pokerroom.server.sockets import encoding, protocol
from pokerroom.server.tables.views import best_five, hand_result, note_action, public_state
from pokerroom.table import SeatStatus, Table
from tests.helpers.frames import hilo_all_in_hand
from tests.helpers.tables import titan_table


def test_last_action_labels_name_what_each_seat_did_this_street() -> None:
    labels: dict[int, dict[str, Any]] = {}
    for event in [
        ForcedBet(
            position=0, seat=1, what=ForcedBetKind.SMALL_BLIND, amount=100, dead=False, all_in=False
        ),
        ForcedBet(
            position=1, seat=2, what=ForcedBetKind.BIG_BLIND, amount=200, dead=False, all_in=False
        ),
        ForcedBet(
            position=2, seat=3, what=ForcedBetKind.LIVE_POST, amount=200, dead=False, all_in=False
        ),
        ActionTaken(position=3, seat=4, action=Move.RAISE, added=600, to=600, all_in=False),
        ActionTaken(position=0, seat=1, action=Move.CALL, added=500, to=600, all_in=False),
        ActionTaken(position=1, seat=2, action=Move.FOLD, added=0, to=200, all_in=False),
        ActionTaken(position=2, seat=3, action=Move.RAISE, added=900, to=1100, all_in=True),
    ]:
        labels = note_action(labels, event)
    assert labels == {
        1: {"action": "call", "amount": 500},
        2: {"action": "fold", "amount": None},
        3: {"action": "all_in", "amount": 1100},
        4: {"action": "raise_to", "amount": 600},
    }
    # A new street: only the folds stay marked.
    labels = note_action(labels, BoardDealt(street="flop", cards=tuple(parse_cards("Ks7d2c"))))
    assert labels == {2: {"action": "fold", "amount": None}}
    labels = note_action(
        labels, ActionTaken(position=0, seat=1, action=Move.BET, added=300, to=300, all_in=False)
    )
    assert labels[1] == {"action": "bet", "amount": 300}
    labels = note_action(
        labels, ActionTaken(position=3, seat=4, action=Move.CHECK, added=0, to=0, all_in=False)
    )
    assert labels[4] == {"action": "check", "amount": None}


def test_R_SHOW_7_best_five_only_from_a_full_enough_board() -> None:
    assert best_five(tuple(parse_cards("AsKd")), tuple(parse_cards("Kc"))) == ()
    five = best_five(tuple(parse_cards("AsKd")), tuple(parse_cards("Ks7d2c9hTc")))
    assert sorted(map(str, five)) == sorted(["Ks", "Kd", "As", "Tc", "9h"])


def test_a_cancelled_hand_result_shows_nothing_and_fits_its_model() -> None:
    line = protocol.frame(hand_result("t", 17, cancelled=True))
    frame = protocol.parse_server(line)
    assert frame == protocol.HandResult(
        table="t", hand=17, board=[], shown=[], pots=[], rake=0, cancelled=True
    )
    assert '"type":"hand_result"' in line


def heads_up_table() -> Table:
    house = load_preset("multipoker")  # 30 s to act, the warning after 10 s, rebuy in 60 s
    spec = house.game(Variant.HOLDEM, Structure.NO_LIMIT, 200)
    table = Table(spec=spec, house=house, seats=2, rng=SeededRandomSource(16), name="T")
    for seat in (1, 2):
        table.sit(str(seat), seat, 10_000, name=f"p{seat}", post_now=True)
    return table


def test_the_clock_in_the_frame_warning_and_time_bank() -> None:
    """The frame says when the warning comes (0 once given) and when the player to
    act is on the time bank, so the page can alert and show the bank as it starts."""
    table = heads_up_table()
    table.start_hand(100.0)
    hand = public_state(table, table_id="t", version=1, now=104.0)["hand"]
    assert hand["seconds_left"] == 26.0 and hand["warning_left"] == 6.0
    assert hand["time_bank"] is False
    table.tick(110.0)  # the warning is given
    hand = public_state(table, table_id="t", version=2, now=112.0)["hand"]
    assert hand["warning_left"] == 0.0 and hand["seconds_left"] == 18.0
    events = table.tick(130.0)  # the decision time is over: the bank starts
    assert any(e.kind == "time_bank_used" for e in events)
    hand = public_state(table, table_id="t", version=3, now=130.0, on_time_bank=True)["hand"]
    assert hand["time_bank"] is True
    assert hand["seconds_left"] == float(table.house.time_bank_seconds)
    protocol.TableFrame.model_validate(public_state(table, table_id="t", version=3, now=130.0))


def test_a_clock_read_as_it_starts_says_its_whole_length() -> None:
    """A monotonic clock's reading is a large float: the deadline less the reading carries
    rounding noise (30.000000000000227), which the frame must not pass on as more time than
    the clock gives."""
    table = heads_up_table()
    start = 2045.648  # (start + 30) - start == 30.000000000000227 in floats
    table.start_hand(start)
    hand = public_state(table, table_id="t", version=1, now=start)["hand"]
    assert hand["seconds_left"] == 30.0 and hand["warning_left"] == 10.0
    hand = public_state(table, table_id="t", version=2, now=start + 0.0004)["hand"]
    assert hand["seconds_left"] == 30.0  # to the millisecond


def test_R_STAKE_2_a_busted_seat_carries_its_rebuy_countdown() -> None:
    table = heads_up_table()
    seat = table.seats[2]
    seat.stack, seat.status, seat.busted_at = 0, SeatStatus.BUSTED, 100.0
    seats = public_state(table, table_id="t", version=1, now=130.0)["seats"]
    assert seats[1]["rebuy_seconds_left"] == 30.0  # 60 s from busting, 30 s gone
    assert "rebuy_seconds_left" not in seats[0]  # only a busted seat has one
    late = public_state(table, table_id="t", version=2, now=200.0)["seats"]
    assert late[1]["rebuy_seconds_left"] == 0.0  # lost at the next deal
    protocol.TableFrame.model_validate(public_state(table, table_id="t", version=2, now=200.0))


def test_R_HILO_1_hands_shown_at_an_all_in_are_named_with_their_high_and_low_fives() -> None:
    """Every shown hand is named (cards shown at an all-in before the river too),
    with the five cards of its high and of its qualifying low, for the page to highlight."""
    hand = hilo_all_in_hand()
    shown = {s.seat: s for s in hand_result("t", 1, hand=hand, events=hand.events).shown}
    high = {seat: s.high and s.high.english() for seat, s in shown.items()}
    assert shown[2].high == protocol.HandName(category="three_of_a_kind", ranks=["king"])
    assert high[2] == "Three of a Kind, Kings" and shown[2].low == ""
    assert shown[2].low_best == []  # no low: two low cards of its own are needed
    assert (high[3], shown[3].low) == ("Pair of Tens", "8-6-5-4-3")
    assert shown[3].low_best == ["8c", "6s", "5h", "4d", "3c"]
    assert (high[1], shown[1].low) == ("Pair of Nines", "8-6-5-2-A")
    assert shown[1].low_best == ["8c", "6s", "5h", "2d", "As"]
    assert shown[1].best == ["Ks", "Qh", "9h", "9c", "8c"]


def test_every_hand_name_on_the_wire_says_what_the_evaluator_says() -> None:
    """A hand's name goes out as its category and ranks, read back to the same English."""
    from pokerroom.evaluation.classes import CLASS_COUNT, describe

    for strength in range(1, CLASS_COUNT + 1):
        assert protocol.HandName.of(strength).english() == describe(strength), strength
    assert protocol.HandName.of(CLASS_COUNT).category is protocol.HandCategory.ROYAL_FLUSH


def test_R_HILO_1_each_award_names_the_hand_the_engine_paid_by_category_and_ranks() -> None:
    """Each pot's award names its winning high hand (category and ranks) or its low, as the
    engine's record names it in English."""
    hand = hilo_all_in_hand()
    awards = [e for e in hand.events if isinstance(e, PotAwarded)]
    pots = hand_result("t", 1, hand=hand, events=hand.events).pots
    assert len(pots) == len(awards) == 4
    for award, pot in zip(awards, pots, strict=True):
        if award.share is PotShare.LOW:
            assert (pot.hand, pot.low) == (None, award.hand)
        else:
            assert pot.hand is not None and (pot.hand.english(), pot.low) == (award.hand, "")
    assert {p.low for p in pots if p.share == "low"} == {"8-6-5-2-A", "8-6-5-4-3"}


def test_shared_encoding_writes_each_viewers_frame_exactly_as_encoding_it_whole() -> None:
    """The broadcast encodes what viewers share once (encoding.SharedEncoding) and each
    seat's frame as UTF-8 bytes (``encode_utf8``): byte for byte what ``encode`` gives."""
    from pokerroom.server.tables.views import state_for_seat

    table = titan_table(dict.fromkeys((1, 3, 4), 20_000), seed=7)
    checked = 0
    for hand in range(3):
        table.start_hand(float(hand))
        while True:
            public = public_state(table, table_id="t", version=checked, now=float(hand))
            shared = encoding.SharedEncoding(public)
            assert shared.whole == encoding.encode(public)
            for seat in table.seats:
                state = state_for_seat(table, public, seat)
                assert encoding.encode_utf8(state) == encoding.encode(state).encode()
                checked += 1
            if table.hand is None:
                break
            kind = ActionKind.BET_OR_RAISE if checked % 5 == 0 else ActionKind.CHECK_OR_CALL
            player = table.seats[table.actor_seat()].player
            legal = table.hand.legal_actions()
            raise_to = legal.min_raise_to
            if kind is ActionKind.BET_OR_RAISE and raise_to is not None:
                table.act(player, Action(kind, raise_to), float(hand))
            else:
                table.act(player, Action(ActionKind.CHECK_OR_CALL), float(hand))
    assert checked > 30


def test_frames_keep_integer_keys_as_json_dumps_writes_them() -> None:
    """A table frame (string keys only) skips orjson's slower option for other
    keys; a payload with integer keys still gets them, as the standard library writes them."""
    import json

    for payload in ({"a": 1, "b": [1, {"c": None}]}, {"a": {1: "x", 2: [3]}}, {3: True}):
        assert encoding.encode(payload) == json.dumps(payload, separators=(",", ":"))
