"""A hand's facts as the store would write them: the hand written to its record and read
back (what is stored is what is counted), then seen by one player; and a player's page
recounted from a running room's records."""

from __future__ import annotations

from datetime import UTC, datetime

from pokerroom.engine import Hand
from pokerroom.history.record import hand_record, read_record
from pokerroom.history.results import EVERY_HAND, Filters
from pokerroom.history.stats import HandFacts, hand_facts
from pokerroom.history.viewer import viewer_hand
from pokerroom.store.db import Database
from pokerroom.store.tables.results import scan_page_sync

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


async def recounted(url: str, account: int, filters: Filters = EVERY_HAND) -> dict[str, object]:
    """``account``'s results page recounted from the stored records (every hand replayed by
    the server's own ``scan_page_sync``), through a connection of its own: what the rows
    the hands' ends wrote must add up to."""
    db = Database(url)
    try:
        async with db.transaction() as session:
            page = await session.run_sync(scan_page_sync, account, filters)
        return page.as_json()
    finally:
        await db.close()
