"""The schedule's runs in the room's lobby, at any time of day: each event's next run
listed once, a satellite's run with the run of its target that starts after it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from pokerroom.rules.schedule import load_schedule
from pokerroom.server.tournaments.schedule import keep_scheduled

HOUR = 3600
DAY = 20_000 * 86_400


class Lobby:
    """What ``keep_scheduled`` creates, as the hall would list it."""

    def __init__(self) -> None:
        self.runs: list[Any] = []

    async def create(self, structure: str, **fields: Any) -> Any:
        config = {"scheduled": fields["scheduled"], "target": fields["target"]}
        run = SimpleNamespace(
            id=f"run-{len(self.runs)}",
            structure=structure,
            config=config,
            starts_at=fields["starts_at"],
            guarantee=fields["guarantee"],
        )
        self.runs.append(run)
        return run


@pytest.mark.parametrize("minute", [0, 20, 50])
async def test_each_run_is_listed_once_and_a_satellite_with_its_target(minute: int) -> None:
    schedule, lobby = load_schedule("demo"), Lobby()
    now = DAY + 10 * HOUR + minute * 60
    for _ in range(2):  # a second pass lists nothing again
        await keep_scheduled(schedule, lobby.runs, lobby.create, now)
    keys = [r.config["scheduled"] for r in lobby.runs]
    assert len(keys) == len(set(keys))
    pko = min((r for r in lobby.runs if r.structure == "mtt_pko"), key=lambda r: r.starts_at)
    assert now < pko.starts_at <= now + HOUR and pko.guarantee == 50_000
    (satellite,) = [r for r in lobby.runs if r.structure == "satellite_pko"]
    assert now < satellite.starts_at <= now + HOUR
    target = next(r for r in lobby.runs if r.id == satellite.config["target"])
    assert satellite.starts_at < target.starts_at <= satellite.starts_at + HOUR
