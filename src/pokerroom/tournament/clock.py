"""The level clock: levels and breaks as absolute times from the start (a restart resumes
from the same deadlines), late registration through the end of its last level."""

from __future__ import annotations

from pokerroom.rules.tournament import TournamentStructure


class LevelClock:
    def __init__(self, structure: TournamentStructure) -> None:
        self.structure = structure
        self.spans = structure.level_schedule()  # (start, end) of each level, from the start
        self.start: float | None = None

    def _elapsed(self, now: float) -> float:
        return 0.0 if self.start is None else now - self.start

    def level_index(self, now: float) -> int:
        """The level in play (0-based); during a break, the level just finished."""
        elapsed = self._elapsed(now)
        index = 0
        for k, (begin, _) in enumerate(self.spans):
            if elapsed >= begin:
                index = k
        return index

    def level_number(self, now: float) -> int:
        return self.level_index(now) + 1

    def on_break(self, now: float) -> bool:
        elapsed = self._elapsed(now)
        index = self.level_index(now)
        return index + 1 < len(self.spans) and self.spans[index][1] <= elapsed

    def next_change(self, now: float) -> float | None:
        """When the next level starts (absolute), None after the last."""
        if self.start is None:
            return None
        index = self.level_index(now)
        if index + 1 >= len(self.spans):
            return None
        return self.start + self.spans[index + 1][0]

    def late_registration_open(self, now: float) -> bool:
        late = self.structure.late_registration_levels
        return late > 0 and self._elapsed(now) < self.spans[late - 1][1]
