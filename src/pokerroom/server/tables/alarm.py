"""A table's clock as one timer: the actor waits for its inbox, and an alarm put into the
inbox wakes it for the next moment it waits for (a decision's deadline, the next deal).

A part of its own (``TableActor.alarm``): its state is the one timer and the moment it is
set for, and its one collaborator the inbox it rings into."""

from __future__ import annotations

import asyncio

from pokerroom.server.tables.inbox import ALARM, Item


class TableAlarm:
    """The actor's wait.

    Not a timer armed and cancelled around every wait (``asyncio.timeout``): in flat-out
    play every action moves the decision clock, so that was one timer an action.
    One alarm, re-armed only to ring sooner than it is set for; one that rings early (the
    moment moved on) is a clock turn that finds nothing due, and the next wait arms it for
    the moment then."""

    def __init__(self, inbox: asyncio.Queue[Item]) -> None:
        self.inbox = inbox
        self.timer: asyncio.TimerHandle | None = None  # the one timer, while it is set
        self.at = 0.0  # the loop's time it rings at

    async def wait(self, timeout: float | None) -> Item:
        """The next inbox item; an ``Alarm`` once ``timeout`` seconds have passed."""
        if timeout is not None:
            loop = asyncio.get_running_loop()
            when = loop.time() + timeout
            if self.timer is None or self.at > when:
                if self.timer is not None:
                    self.timer.cancel()
                self.at = when
                self.timer = loop.call_at(when, self._ring)
        return await self.inbox.get()

    def _ring(self) -> None:
        self.timer = None
        self.inbox.put_nowait(ALARM)
