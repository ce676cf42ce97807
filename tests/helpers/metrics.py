"""Prometheus metrics as a test reads them."""

from __future__ import annotations

import httpx
from prometheus_client.parser import text_string_to_metric_families

from tests.server.conftest import Server


async def scrape(server: Server) -> dict[str, float]:
    """Every sample /metrics serves, by name (and labels, where it has some)."""
    async with httpx.AsyncClient(base_url=server.base) as http:
        response = await http.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    samples: dict[str, float] = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()) if k != "le")
            le = sample.labels.get("le")
            key = sample.name + (f"{{{labels}}}" if labels else "") + (f"[{le}]" if le else "")
            samples[key] = sample.value
    return samples
