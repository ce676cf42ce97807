"""A finished hand as one viewer may see it: the one place that decides which hole cards
a per-player export holds (S-EXPORT-1).

Every writer (PHH, PokerStars text, the replayer, session .phhs) takes a ``ViewerHand``
and reads hole cards only through it. A viewer sees their own cards and the cards that
were shown; a folded or mucked hand stays hidden from everyone else, in every format,
for ever (R-SHOW-8, S-VIEW-1). The decision is the engine's own view of the hand
(``view_for``), the same one the table's frames are built from.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerroom.cards import Card
from pokerroom.engine.hand import Hand
from pokerroom.engine.views import view_for

EVERYONE = -1  # the room's own record: every card, mucked hands included


@dataclass(frozen=True, slots=True)
class ViewerHand:
    """A hand and, for each position, the hole cards the viewer may see (None: hidden)."""

    hand: Hand
    viewer: int | None  # a position, None for a spectator, EVERYONE for the record
    hole: tuple[tuple[Card, ...] | None, ...]

    def cards(self, position: int) -> tuple[Card, ...] | None:
        return self.hole[position]


def viewer_hand(hand: Hand, viewer: int | None) -> ViewerHand:
    """What ``viewer`` (a position, None a spectator, EVERYONE the record) may see of ``hand``."""
    if viewer == EVERYONE:
        return ViewerHand(hand, viewer, tuple(hand.hole_cards(i) for i in range(hand.n)))
    if viewer is not None and not 0 <= viewer < hand.n:
        raise ValueError(f"viewer {viewer} is not a position of this {hand.n}-player hand")
    seen = view_for(hand, viewer)
    return ViewerHand(hand, viewer, tuple(seat.cards for seat in seen.seats))
