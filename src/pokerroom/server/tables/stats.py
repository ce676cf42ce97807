"""A table's lobby figures over the last 15 minutes: hands per hour, the average
pot and the share of players who saw the flop, from a sliding window of recent hand ends.

A table that dealt nothing for 15 minutes shows 0 hands an hour (never a lifetime average).
The window is the server's memory: after a restart it fills again as hands are dealt."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from pokerroom.engine.events import ActionTaken, BoardDealt, Event, Move

WINDOW_SECONDS = 15 * 60.0
SHORTEST_SPAN = 60.0  # a table open for less than this is rated over a minute (no spikes)


@dataclass(frozen=True, slots=True)
class HandEnd:
    at: float  # monotonic seconds
    dealt: int  # players dealt in
    saw_flop: int  # of them, still in when the flop came (0: the hand ended before it)
    pot: int  # chips awarded


def saw_flop(events: Iterable[Event], dealt: int) -> int:
    """How many of the ``dealt`` players were still in the hand when the flop was dealt."""
    folded = 0
    for event in events:
        if isinstance(event, BoardDealt):
            return dealt - folded
        if isinstance(event, ActionTaken) and event.action is Move.FOLD:
            folded += 1
    return 0


class TableStats:
    """The recent hand ends of one table; ``now`` is always passed in (monotonic)."""

    def __init__(self, opened: float, window: float = WINDOW_SECONDS) -> None:
        self.opened = opened
        self.window = window
        self.ends: deque[HandEnd] = deque()

    def hand_ended(self, end: HandEnd) -> None:
        self.ends.append(end)
        self._forget(end.at)

    def _forget(self, now: float) -> None:
        while self.ends and now - self.ends[0].at > self.window:
            self.ends.popleft()

    def figures(self, now: float) -> dict[str, int]:
        """``hands_per_hour``, ``average_pot`` (chips) and ``players_per_flop`` (the percent
        of players dealt in who saw the flop) over the window; all 0 for a table with no hand
        in it."""
        self._forget(now)
        ends = self.ends
        if not ends:
            return {"hands_per_hour": 0, "average_pot": 0, "players_per_flop": 0}
        span = max(SHORTEST_SPAN, min(self.window, now - self.opened))
        dealt = sum(e.dealt for e in ends)
        return {
            "hands_per_hour": round(len(ends) * 3600 / span),
            "average_pot": sum(e.pot for e in ends) // len(ends),
            "players_per_flop": round(100 * sum(e.saw_flop for e in ends) / dealt) if dealt else 0,
        }
