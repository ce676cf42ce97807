"""A hand's facts as the store would write them: the hand written to its record and read
back (what is stored is what is counted), then seen by one player."""

from __future__ import annotations

from datetime import UTC, datetime

from pokerroom.engine import Hand
from pokerroom.history.record import hand_record, read_record
from pokerroom.history.stats import HandFacts, hand_facts
from pokerroom.history.viewer import viewer_hand

AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def stored(hand: Hand) -> Hand:
    """The hand as its stored record gives it back."""
    return read_record(hand_record(hand))


def facts_of(
    hand: Hand,
    position: int,
    *,
    hand_id: int = 1,
    at: datetime = AT,
    tournament: bool = False,
    account: int | None = None,
) -> HandFacts:
    return hand_facts(
        viewer_hand(stored(hand), position),
        hand_id=hand_id,
        account=position + 1 if account is None else account,
        at=at,
        table_id="t1",
        tournament=tournament,
    )
