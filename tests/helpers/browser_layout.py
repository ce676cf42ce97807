"""Boxes Chromium lays out, in document coordinates, and how they lie: one inside another,
two overlapping; the phone's window."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Page

PHONE = {"width": 390, "height": 844}

# Boxes in document coordinates (scrolling does not move them).
BOXES = """(selector) => [...document.querySelectorAll(selector)].map((node) => {
  const r = node.getBoundingClientRect();
  return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height,
           visible: r.width > 0 && r.height > 0 };
})"""


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (
        inner["x"] >= outer["x"] - 0.5
        and inner["y"] >= outer["y"] - 0.5
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5
    )


async def boxes(page: Page, selector: str) -> list[dict[str, Any]]:
    return list(await page.evaluate(BOXES, selector))
