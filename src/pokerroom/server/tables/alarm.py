"""A table's clock as one timer: the actor waits for its inbox, and an alarm put into the
inbox wakes it for the next moment it waits for (a decision's deadline, the next deal)."""

from __future__ import annotations

import asyncio

from pokerroom.server.tables.inbox import ALARM, Item


class Alarmed:
    """The actor's wait (mixed into ``TableActor``).

    Not a timer armed and cancelled around every wait (``asyncio.timeout``): in flat-out
    play every action moves the decision clock, so that was one timer an action.
    One alarm, re-armed only to ring sooner than it is set for; one that rings early (the
    moment moved on) is a clock turn that finds nothing due, and the next wait arms it for
    the moment then."""

    inbox: asyncio.Queue[Item]
    alarm: asyncio.TimerHandle | None
    alarm_at: float = 0.0

    async def _wait(self, timeout: float | None) -> Item:
        """The next inbox item; an ``Alarm`` once ``timeout`` seconds have passed."""
        if timeout is not None:
            loop = asyncio.get_running_loop()
            when = loop.time() + timeout
            if self.alarm is None or self.alarm_at > when:
                if self.alarm is not None:
                    self.alarm.cancel()
                self.alarm_at = when
                self.alarm = loop.call_at(when, self._ring)
        return await self.inbox.get()

    def _ring(self) -> None:
        self.alarm = None
        self.inbox.put_nowait(ALARM)
