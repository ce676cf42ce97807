"""Presentation built outside the table's actor (issue 13): the labels beside each seat, the
five cards of a shown hand and the hand-result frame, in server/views.py."""

from __future__ import annotations

from typing import Any

from pokerroom.cards import parse_cards
from pokerroom.engine.events import ActionTaken, BoardDealt, ForcedBet, ForcedBetKind, Move
from pokerroom.server import protocol
from pokerroom.server.views import best_five, hand_result, note_action


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
        1: {"text": "Call", "amount": 500},
        2: {"text": "Fold", "amount": None},
        3: {"text": "All-in", "amount": 1100},
        4: {"text": "Raise to", "amount": 600},
    }
    # A new street: only the folds stay marked.
    labels = note_action(labels, BoardDealt(street="flop", cards=tuple(parse_cards("Ks7d2c"))))
    assert labels == {2: {"text": "Fold", "amount": None}}
    labels = note_action(
        labels, ActionTaken(position=0, seat=1, action=Move.BET, added=300, to=300, all_in=False)
    )
    assert labels[1] == {"text": "Bet", "amount": 300}
    labels = note_action(
        labels, ActionTaken(position=3, seat=4, action=Move.CHECK, added=0, to=0, all_in=False)
    )
    assert labels[4] == {"text": "Check", "amount": None}


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
