"""The back office's metric history: a gauge as read, a counter as its rate per minute since
the sample before, a histogram as its mean in milliseconds over that span; an hour kept."""

from __future__ import annotations

from pokerroom.server.ops.metric_history import MetricHistory
from pokerroom.server.ops.metrics import RoomMetrics


def test_gauges_rates_and_means_between_samples_and_only_the_last_hour_kept() -> None:
    seated = [4]
    metrics = RoomMetrics(node="n1", tables=lambda: 2, players=lambda: seated[0])
    history = MetricHistory(metrics.registry, every=30, keep=3600)
    history.sample(1000.0)
    for _ in range(6):
        metrics.hands.labels(outcome="complete").inc()
    metrics.hands.labels(outcome="cancelled").inc()
    metrics.actions.observe(0.002)
    metrics.actions.observe(0.004)
    seated[0] = 3
    history.sample(1030.0)  # seven hands in 30 s: 14 a minute
    history.sample(1060.0)  # nothing since
    body = history.as_json()
    series = body["series"]
    assert body["times"] == [1000.0, 1030.0, 1060.0]
    assert series["players"] == [4, 3, 3] and series["tables"] == [2, 2, 2]
    assert series["hands"] == [None, 14.0, 0.0]
    assert series["action_ms"] == [None, 3.0, None]  # no action in the last span: no mean
    assert series["faults"] == [None, 0.0, 0.0]
    for k in range(200):
        history.sample(1090.0 + 30 * k)
    times = history.as_json()["times"]
    assert times[-1] - times[0] <= 3600 + 30 and len(times) == 3600 // 30 + 2
