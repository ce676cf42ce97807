"""Refused clients' warnings are limited per address and reason (server/ops/refusal_log.py): one
address refused again and again cannot fill the logs. The first refusals are logged in
full, then at most one line an interval counts the rest; another address, or another
reason, has lines of its own; an address quiet for an interval starts again."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from pokerroom.server.ops.refusal_log import RefusalLog
from tests.helpers.waiting import eventually
from tests.server.conftest import Server

log = logging.getLogger("pokerroom.server.refusals_test")


class Timers:
    """A fake clock and the callbacks scheduled on it."""

    def __init__(self) -> None:
        self.now = 0.0
        self.due: list[tuple[float, Callable[[], None]]] = []

    def later(self, delay: float, callback: Callable[[], None]) -> None:
        self.due.append((self.now + delay, callback))

    def advance(self, seconds: float) -> None:
        self.now += seconds
        for moment, callback in sorted(self.due, key=lambda d: d[0]):
            if moment <= self.now:
                self.due.remove((moment, callback))
                callback()


def said(caplog: pytest.LogCaptureFixture) -> list[str]:
    lines = [r.getMessage() for r in caplog.records if r.name == log.name]
    caplog.clear()
    return lines


def test_the_first_refusals_are_logged_then_one_summary_an_interval(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger=log.name)
    timers = Timers()
    refusals = RefusalLog(log, first=3, interval=60, clock=lambda: timers.now, later=timers.later)
    for k in range(10):
        refusals.warning("203.0.113.7", "origin", "refused %s: origin", k)
        timers.advance(1)
    lines = said(caplog)
    assert lines[:2] == ["refused 0: origin", "refused 1: origin"]
    assert lines[2].startswith("refused 2: origin (further refusals of it counted)")
    assert len(lines) == 3 and len(timers.due) == 1  # one summary scheduled, not seven
    refusals.warning("203.0.113.8", "origin", "another address")  # its own lines
    refusals.warning("203.0.113.7", "connections", "another reason")
    assert said(caplog) == ["another address", "another reason"]
    timers.advance(55)  # the interval since the first refusal counted is over
    assert said(caplog) == [
        "7 more refusals of 203.0.113.7 (origin) in the last 60 s were not logged"
    ]
    for _ in range(5):  # still refused: counted, never a full line again
        refusals.warning("203.0.113.7", "origin", "refused again")
        timers.advance(10)
    assert said(caplog) == []
    timers.advance(60)
    assert said(caplog) == [
        "5 more refusals of 203.0.113.7 (origin) in the last 60 s were not logged"
    ]
    timers.advance(120)  # quiet for an interval: a new run of refusals is logged again
    refusals.warning("203.0.113.7", "origin", "back")
    assert said(caplog) == ["back"]


def test_addresses_past_the_limit_are_forgotten_oldest_first_with_their_counts(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger=log.name)
    timers = Timers()
    refusals = RefusalLog(
        log, first=1, interval=60, keys=2, clock=lambda: timers.now, later=timers.later
    )
    for address in ("a", "a", "b", "c"):
        refusals.warning(address, "origin", "refused %s", address)
    counted = " (further refusals of it counted)"
    assert said(caplog) == [
        f"refused a{counted}",
        f"refused b{counted}",
        f"refused c{counted}",
        "1 more refusals of a (origin) in the last 60 s were not logged",
    ]
    assert len(refusals.seen) == 2
    timers.advance(60)  # a's timer: its count was said already
    assert said(caplog) == []


async def test_a_client_refused_for_its_origin_again_and_again_fills_no_logs(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="pokerroom.server")
    # An interval short enough to wait for its summary, far above the time between refusals.
    server.room.refusals = RefusalLog(logging.getLogger("pokerroom.server"), interval=2.0)
    for _ in range(20):
        with pytest.raises(InvalidStatus):
            await connect(
                server.base.replace("http", "ws", 1) + "/ws",
                origin="https://elsewhere.example",  # type: ignore[arg-type]
            )

    def lines() -> list[str]:
        return [r.getMessage() for r in caplog.records if "127.0.0.1" in r.getMessage()]

    def counted() -> int:
        summaries = [x for x in lines() if "more refusals of 127.0.0.1 (origin)" in x]
        return sum(int(x.split()[0]) for x in summaries)

    await eventually(lambda: counted() == 17, lambda: f"17 counted, not {counted()}")
    refused = [x for x in lines() if "refused: Origin" in x]
    assert len(refused) == 3, refused
