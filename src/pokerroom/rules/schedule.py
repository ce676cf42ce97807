"""A room's tournament schedule: recurring events as data, validated on load.

Each event of a schedule names its structure, its name, how often it runs (``every_minutes``)
and when in the day its first run is (``offset_minutes`` after midnight UTC), and may
guarantee a prize pool (``guarantee``, in the room's smallest unit): when registration closes
on less, the house pays the difference (the overlay) into the pool. A satellite's event names
the scheduled event its seats are for (``target``): the next run of that event.

>>> s = load_schedule("demo")
>>> [e.name for e in s.events]
['Hourly PKO', 'Hourly PKO Satellite']
>>> s.events[0].starts(0.0, 2)
[900.0, 4500.0]
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from pokerroom.rules.errors import RulesError
from pokerroom.rules.tournament import load_tournament_structure

DAY = 86_400


@dataclass(frozen=True, slots=True, kw_only=True)
class ScheduledEvent:
    name: str
    structure: str
    every_minutes: int
    offset_minutes: int = 0
    guarantee: int = 0
    target: str | None = None  # a satellite's: the scheduled event its seats are for

    def starts(self, after: float, count: int = 1) -> list[float]:
        """The next ``count`` start times (seconds since the epoch) strictly after ``after``."""
        every, first = self.every_minutes * 60, self.offset_minutes * 60
        day = after - after % DAY
        k = max(0, int((after - day - first) // every) + 1)
        return [day + first + (k + n) * every for n in range(count)]


@dataclass(frozen=True, slots=True, kw_only=True)
class Schedule:
    name: str
    events: tuple[ScheduledEvent, ...]

    def event(self, name: str) -> ScheduledEvent:
        found = next((e for e in self.events if e.name == name), None)
        if found is None:
            raise RulesError(f"schedule {self.name}: no event {name!r}")
        return found


def _whole(where: str, value: Any, minimum: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise RulesError(f"{where} must be a whole number >= {minimum}, got {value!r}")
    return value


def parse_schedule(data: dict[str, Any], name: str) -> Schedule:
    """Validate a schedule read from a data file; every error names the file and the key."""
    raw = data.get("event")
    if set(data) - {"event", "description"} or not isinstance(raw, list) or not raw:
        raise RulesError(f"schedule {name}: one or more [[event]] tables and nothing else")
    events = []
    keys = {"name", "structure", "every_minutes", "offset_minutes", "guarantee", "target"}
    for item in raw:
        if not isinstance(item, dict) or set(item) - keys or not {"name", "structure"} <= set(item):
            raise RulesError(f"schedule {name}: an event has {keys}, name and structure required")
        where = f"schedule {name}: event {item['name']!r}"
        structure = load_tournament_structure(str(item["structure"]))
        every = _whole(f"{where} every_minutes", item.get("every_minutes", 60), 1)
        if DAY % (every * 60):
            raise RulesError(f"{where}: every_minutes must divide a day, not {every}")
        event = ScheduledEvent(
            name=str(item["name"]),
            structure=structure.name,
            every_minutes=every,
            offset_minutes=_whole(f"{where} offset_minutes", item.get("offset_minutes", 0)),
            guarantee=_whole(f"{where} guarantee", item.get("guarantee", 0)),
            target=None if item.get("target") is None else str(item["target"]),
        )
        if (event.target is None) != (structure.satellite is None):
            raise RulesError(f"{where}: a satellite, and only a satellite, names its target")
        events.append(event)
    schedule = Schedule(name=name, events=tuple(events))
    for event in events:
        if event.target is not None:
            target = schedule.event(event.target)
            rule = load_tournament_structure(event.structure).satellite
            if rule is not None and rule.target != target.structure:
                raise RulesError(
                    f"schedule {name}: {event.name} wins seats in {rule.target},"
                    f" not {target.structure}"
                )
    if len({e.name for e in events}) != len(events):
        raise RulesError(f"schedule {name}: two events share a name")
    return schedule


def _folder() -> Any:
    return resources.files("pokerroom.rules").joinpath("data", "schedules")


def schedule_names() -> list[str]:
    return sorted(
        p.name.removesuffix(".toml") for p in _folder().iterdir() if p.name.endswith(".toml")
    )


@cache
def load_schedule(name: str) -> Schedule:
    """One of the shipped schedules (``schedule_names()``)."""
    resource = _folder().joinpath(f"{name}.toml")
    if not resource.is_file():
        raise RulesError(f"no schedule {name!r}; schedules: {', '.join(schedule_names())}")
    try:
        data = tomllib.loads(resource.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise RulesError(f"schedule {name!r} does not parse: {error}") from None
    return parse_schedule(data, name)
