"""Warnings about refused clients, limited per address and reason: one address refused again
and again (a wrong Origin, past its connection limit) must not fill the logs.

The first ``FIRST`` refusals of an address for a reason are logged in full; past them the
refusals are counted, and at most one line an ``INTERVAL`` says how many were not logged.
An address that has not been refused for that reason for an ``INTERVAL`` starts again with
full lines. At most ``KEYS`` addresses and reasons are remembered (the ones refused longest ago
are forgotten first, their count said at once): an attack from many addresses costs memory
and lines in proportion, never more."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

FIRST = 3  # full lines for an address and reason, before counting
INTERVAL = 60.0  # seconds: at most one summary line each this long, per address and reason
KEYS = 10_000  # addresses and reasons remembered at once

Later = Callable[[float, Callable[[], None]], Any]


def _call_later(delay: float, callback: Callable[[], None]) -> Any:
    return asyncio.get_running_loop().call_later(delay, callback)


@dataclass(slots=True)
class _Seen:
    logged: int = 0  # full lines written in this run of refusals
    suppressed: int = 0  # refusals counted since the last summary
    last: float = 0.0  # the latest refusal (the clock's seconds)
    summary_due: bool = False  # a summary is scheduled


class RefusalLog:
    """``warning(address, reason, message, *args)`` in place of ``log.warning``."""

    def __init__(
        self,
        log: logging.Logger,
        *,
        first: int = FIRST,
        interval: float = INTERVAL,
        keys: int = KEYS,
        clock: Callable[[], float] = time.monotonic,
        later: Later = _call_later,
    ) -> None:
        self.log, self.first, self.interval, self.keys = log, first, interval, keys
        self.clock, self.later = clock, later
        self.seen: dict[tuple[str, str], _Seen] = {}  # oldest refusal first

    def warning(self, address: str, reason: str, message: str, *args: Any) -> None:
        key, now = (address, reason), self.clock()
        seen = self.seen.pop(key, None)  # put back last: the dict stays oldest first
        if seen is None or (now - seen.last >= self.interval and not seen.summary_due):
            seen = _Seen()
        seen.last = now
        self.seen[key] = seen
        if seen.logged < self.first:
            seen.logged += 1
            more = " (further refusals of it counted)" if seen.logged == self.first else ""
            self.log.warning(message + more, *args, extra={"address": address})
        else:
            seen.suppressed += 1
            if not seen.summary_due:
                seen.summary_due = True
                self.later(self.interval, lambda: self._summary(key, seen))
        if len(self.seen) > self.keys:
            self._forget(now)

    def _summary(self, key: tuple[str, str], seen: _Seen) -> None:
        seen.summary_due = False
        if seen.suppressed:
            address, reason = key
            self.log.warning(
                "%d more refusals of %s (%s) in the last %g s were not logged",
                seen.suppressed,
                address,
                reason,
                self.interval,
                extra={"address": address},
            )
            seen.suppressed = 0

    def _forget(self, now: float) -> None:
        """Over ``keys``: those idle an interval go, then the oldest (its count said). The
        dict is in the order of the latest refusals: the idle ones are at its front."""
        while self.seen:
            key, seen = next(iter(self.seen.items()))
            if len(self.seen) <= self.keys and now - seen.last < self.interval:
                return
            del self.seen[key]
            self._summary(key, seen)
