"""A tournament schedule is data: recurring events with their structure, times and
guarantee, validated on load."""

from __future__ import annotations

from typing import Any

import pytest

from pokerroom.rules import RulesError
from pokerroom.rules.schedule import load_schedule, parse_schedule, schedule_names


def test_the_demo_schedule_runs_an_hourly_pko_with_a_guarantee_and_its_satellite() -> None:
    assert "demo" in schedule_names()
    s = load_schedule("demo")
    pko, satellite = s.event("Hourly PKO"), s.event("Hourly PKO Satellite")
    assert pko.structure == "mtt_pko" and pko.guarantee == 50_000 and pko.target is None
    assert satellite.structure == "satellite_pko" and satellite.target == "Hourly PKO"


def test_start_times_recur_from_the_offset_and_are_strictly_after_now() -> None:
    pko = load_schedule("demo").event("Hourly PKO")
    day = 20_000 * 86_400
    assert pko.starts(day, 3) == [day + 900, day + 4500, day + 8100]
    assert pko.starts(day + 900, 1) == [day + 4500]  # a run at its moment is not "next"
    assert pko.starts(day + 86_399, 1) == [day + 86_400 + 900]  # past midnight: the next day


def event(**more: Any) -> dict[str, Any]:
    return {"event": [{"name": "a", "structure": "mtt_pko", **more}]}


def test_a_schedule_refuses_what_it_cannot_run() -> None:
    with pytest.raises(RulesError, match="divide a day"):
        parse_schedule(event(every_minutes=7), "x")
    with pytest.raises(RulesError, match="guarantee must be a whole number"):
        parse_schedule(event(guarantee=-1), "x")
    with pytest.raises(RulesError, match="no tournament structure"):
        parse_schedule({"event": [{"name": "a", "structure": "nope"}]}, "x")
    with pytest.raises(RulesError, match="only a satellite, names its target"):
        parse_schedule(event(target="a"), "x")
    sat = {"name": "s", "structure": "satellite_turbo6", "target": "a"}
    with pytest.raises(RulesError, match="wins seats in mtt_turbo6, not mtt_pko"):
        parse_schedule({"event": [*event()["event"], sat]}, "x")
    with pytest.raises(RulesError, match="no event 'b'"):
        parse_schedule({"event": [{**sat, "target": "b"}]}, "x")
