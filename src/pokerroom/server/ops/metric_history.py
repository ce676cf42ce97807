"""The last hour of a few of the room's metrics, kept in memory for the back office's charts:
a sample of the registry's totals every ``every`` seconds, each series' value at a sample
(a gauge as read; a counter as its rate per minute since the sample before; a histogram as
its mean in milliseconds over that span). Prometheus keeps the long history; this is what
one node saw lately, gone at a restart."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Iterable
from typing import Any, Final

from prometheus_client import CollectorRegistry

from pokerroom.server.clock import utcnow

EVERY: Final = 30.0  # seconds between samples
KEEP: Final = 3600.0  # seconds of samples kept

# Each series' name -> the registry's sample it is read from.
GAUGES: Final = {
    "players": "pokerroom_players_seated",
    "tables": "pokerroom_tables",
    "sockets": "pokerroom_websockets_open",
}
RATES: Final = {  # per minute
    "hands": "pokerroom_hands_total",
    "http": "pokerroom_http_responses_total",
    "faults": "pokerroom_table_faults_total",
}
MEANS: Final = {  # milliseconds
    "action_ms": "pokerroom_action_seconds",
    "commit_ms": "pokerroom_commit_seconds",
}
SERIES: Final = (*GAUGES, *RATES, *MEANS)


def _totals(registry: CollectorRegistry) -> dict[str, float]:
    """Each sample's value added up over its labels (every status, both outcomes)."""
    wanted = {*GAUGES.values(), *RATES.values()}
    wanted |= {f"{m}_{part}" for m in MEANS.values() for part in ("sum", "count")}
    totals: dict[str, float] = {}
    for metric in registry.collect():
        for sample in metric.samples:
            if sample.name in wanted:
                totals[sample.name] = totals.get(sample.name, 0.0) + sample.value
    return totals


class MetricHistory:
    def __init__(
        self, registry: CollectorRegistry, *, every: float = EVERY, keep: float = KEEP
    ) -> None:
        self.registry = registry
        self.every = every
        self.samples: deque[tuple[float, dict[str, float]]] = deque(maxlen=int(keep // every) + 2)

    def sample(self, now: float | None = None) -> None:
        moment = utcnow().timestamp() if now is None else now
        self.samples.append((moment, _totals(self.registry)))

    def fresh(self) -> None:
        """A sample now unless the last is younger than ``every`` (so the page shows now)."""
        now = utcnow().timestamp()
        if not self.samples or now - self.samples[-1][0] >= self.every:
            self.sample(now)

    async def run(self) -> None:
        while True:
            self.sample()
            await asyncio.sleep(self.every)

    def as_json(self) -> dict[str, Any]:
        """``times`` (Unix seconds) and, per series, one value per time (the first sample
        has no rate or mean: None)."""
        points = list(self.samples)
        return {
            "every": self.every,
            "times": [t for t, _ in points],
            "series": {name: list(_values(name, points)) for name in SERIES},
        }


def _values(name: str, points: list[tuple[float, dict[str, float]]]) -> Iterable[float | None]:
    previous: tuple[float, dict[str, float]] | None = None
    for moment, totals in points:
        if name in GAUGES:
            yield totals.get(GAUGES[name], 0.0)
        elif previous is None:
            yield None
        elif name in RATES:
            seconds = max(moment - previous[0], 1e-9)
            key = RATES[name]
            yield round((totals.get(key, 0.0) - previous[1].get(key, 0.0)) * 60 / seconds, 3)
        else:
            base = MEANS[name]
            count = totals.get(f"{base}_count", 0.0) - previous[1].get(f"{base}_count", 0.0)
            spent = totals.get(f"{base}_sum", 0.0) - previous[1].get(f"{base}_sum", 0.0)
            yield round(spent * 1000 / count, 3) if count else None
        previous = (moment, totals)
