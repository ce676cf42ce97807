"""The room's schedule in the lobby: the next run of each scheduled event is open for
registration (created when the one before it starts), at its time (``starts_at``), with its
guarantee; a satellite's run is tied to the run of its target that starts after it (its
seats are tickets there), which is listed with it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from pokerroom.rules.schedule import Schedule, ScheduledEvent


def run_key(event: ScheduledEvent, start: float) -> str:
    """A run's name in its config: the scheduled event and its start (never made twice)."""
    return f"{event.name}@{int(start)}"


async def keep_scheduled(
    schedule: Schedule,
    runners: Iterable[Any],
    create: Callable[..., Awaitable[Any]],
    now: float,
) -> None:
    """Create each scheduled event's next run that is not listed yet; a satellite's with the
    run of its target that starts after it (listed then too, if it was not)."""
    runners = list(runners)

    async def listed(event: ScheduledEvent, start: float) -> Any:
        key = run_key(event, start)
        found = next((r for r in runners if r.config.get("scheduled") == key), None)
        if found is not None:
            return found
        target = None
        if event.target is not None:
            aim = schedule.event(event.target)
            target = (await listed(aim, aim.starts(start)[0])).id
        at = datetime.fromtimestamp(start, UTC).strftime("%H:%M")
        made = await create(
            event.structure,
            name=f"{event.name} {at} UTC",
            starts_at=start,
            guarantee=event.guarantee,
            scheduled=key,
            target=target,
        )
        runners.append(made)
        return made

    for event in schedule.events:
        await listed(event, event.starts(now)[0])
