"""The chat limit at a table (docs/security.md): ``burst`` lines per ``window`` seconds for each
account, however many connections it speaks through (S-RATE-1: the account, not the socket,
so that a second socket of the same player does not double the budget; a tournament entry's
re-entry is the same account too)."""

from __future__ import annotations

from collections import deque

CHAT_BURST = 5  # messages ...
CHAT_WINDOW = 10.0  # ... per this many seconds


class ChatLimit:
    """The times of each account's last lines at one table (one table task uses it)."""

    def __init__(self, burst: int = CHAT_BURST, window: float = CHAT_WINDOW) -> None:
        self.burst, self.window = burst, window
        self._times: dict[int, deque[float]] = {}

    def take(self, account: int, now: float) -> bool:
        """Count a line of ``account``'s at ``now``; False (nothing counted) if over."""
        for someone in [a for a, t in self._times.items() if now - t[-1] > self.window]:
            del self._times[someone]  # quiet for a window: forgotten (bounded memory)
        times = self._times.setdefault(account, deque())
        while times and now - times[0] > self.window:
            times.popleft()
        if len(times) >= self.burst:
            return False
        times.append(now)
        return True
