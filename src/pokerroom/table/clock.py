"""The turn clock (R-TIME-*): the player to act's deadline, the warning before it, their time
bank, the refill between hands, and the reconnect grace. Time comes in as ``now``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pokerroom.engine.events import Event
from pokerroom.rules.house import HouseOptions
from pokerroom.table.events import TimeBankUsed, TimerExpired, TimerStarted, TimerWarning
from pokerroom.table.seats import Seat


class TurnClock:
    """One running turn at a time; ``deadline`` is None when no one is on the clock."""

    def __init__(self, house: HouseOptions) -> None:
        # Read at every turn; the house is fixed for the table's life.
        self._decision_seconds = float(house.decision_seconds)
        self._warning_seconds = float(house.warning_after_seconds)
        self._reconnect_seconds = float(house.reconnect_extra_seconds)
        self._bank_seconds = float(house.time_bank_seconds)
        self._refill_seconds = float(house.time_bank_refill_seconds)
        self._refill_every = max(house.time_bank_refill_hands, 1)
        self._prompt_seconds = float(house.runout_seconds)
        self.deadline: float | None = None
        self.warning_at: float | None = None
        self.warned = False
        self.extra_given = False

    def start(self, number: int, seat: Seat, now: float) -> TimerStarted:
        """A new turn for seat ``number``."""
        self.deadline = deadline = now + self._decision_seconds
        self.warning_at = warning = now + self._warning_seconds
        self.warned = self.extra_given = False
        return TimerStarted(
            seat=number, deadline=deadline, warning_at=warning, time_bank=seat.time_bank
        )

    def start_prompt(self, number: int, seat: Seat, now: float) -> TimerStarted:
        """R-RIT-1: seat ``number`` is asked whether to run it twice: a few seconds, no
        warning, and never the time bank (``tick`` with ``bank=False``)."""
        self.deadline = self.warning_at = deadline = now + self._prompt_seconds
        self.warned, self.extra_given = True, False
        return TimerStarted(seat=number, deadline=deadline, warning_at=deadline, time_bank=0.0)

    def stop(self) -> None:
        self.deadline = self.warning_at = None

    def tick(
        self, number: int, seat: Seat, now: float, events: list[Event], *, bank: bool = True
    ) -> bool:
        """The warning, then the time bank (unless ``bank`` is False: a prompt); True when
        the turn has run out (R-TIME-2)."""
        deadline, warning_at = self.deadline, self.warning_at
        if deadline is None or warning_at is None:
            return False
        if not self.warned and now >= warning_at:
            self.warned = True
            events.append(TimerWarning(seat=number, seconds_left=max(0.0, deadline - now)))
        if now < deadline:
            return False
        if bank and seat.time_bank > 0:
            used = seat.time_bank
            seat.time_bank = 0.0
            self.deadline = deadline = deadline + used
            events.append(TimeBankUsed(seat=number, seconds=used, deadline=deadline))
            if now < deadline:
                return False
        events.append(TimerExpired(seat=number))
        return True

    def reconnect(self, now: float) -> float:
        """R-TIME-3: the player to act, back within their time, gets the grace once a turn."""
        if self.deadline is None or now >= self.deadline or self.extra_given:
            return 0.0
        self.deadline += self._reconnect_seconds
        self.extra_given = True
        return self._reconnect_seconds

    def refill_due(self, hand_number: int) -> bool:
        return hand_number % self._refill_every == 0

    def refill(self, seats: Iterable[Seat]) -> None:
        """Every few hands (``refill_due``) each time bank grows back towards the full bank."""
        full = self._bank_seconds
        for seat in seats:
            if seat.time_bank < full:
                seat.time_bank = min(full, seat.time_bank + self._refill_seconds)

    def to_json(self) -> list[object]:
        return [self.deadline, self.warning_at, self.warned, self.extra_given]

    def restore(self, data: list[Any]) -> None:
        deadline, warning_at, warned, extra_given = data
        self.deadline = None if deadline is None else float(deadline)
        self.warning_at = None if warning_at is None else float(warning_at)
        self.warned, self.extra_given = bool(warned), bool(extra_given)
