"""A hand with a time-out under all-in protection (R-TIME-2) is written as PHH that PokerKit
plays: its standard ``actions`` end at the time-out, which PHH cannot express, and the rest of
the hand is the user field ``_actions_after_timeout``; our own reader plays on through it to
the hand's finishing stacks."""

import warnings

from pokerkit import HandHistory

from pokerroom.engine.events import PlayerProtected
from pokerroom.history.phh import load_text, phh_fields, replay, write_phh
from tests.helpers.tables import BB, finish_hand, make_table


def test_a_protected_time_out_leaves_actions_pokerkit_plays_and_ours_replays_whole() -> None:
    table = make_table("multipoker", players={1: 40 * BB, 2: 40 * BB, 3: 40 * BB})
    table.start_hand(0.0)
    table.tick(100.0)  # the time bank
    table.tick(200.0)  # the time-out: all-in protection at multipoker
    finish_hand(table, 300.0)
    hand = table.last_hand
    assert hand is not None and any(isinstance(e, PlayerProtected) for e in hand.events)
    fields = phh_fields(hand)
    assert not any(line.startswith("#") for line in fields["actions"])
    assert fields["_actions_after_timeout"][0].endswith(" timeout")
    text = write_phh(hand)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # our user fields
        states = list(HandHistory.loads(text))  # PokerKit plays every standard action
    assert len(states) >= len(fields["actions"])
    (ours,) = load_text(text)
    assert replay(ours).finishing_stacks == list(hand.stacks) == fields["finishing_stacks"]
