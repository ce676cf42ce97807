"""How many times a property check repeats: a fast tier in ``make test`` (``-m "not slow"``)
and the full size, marked slow, in ``make test-all``. Both tiers run the same checks; only the
number of random cases differs, and a fast tier draws more of the cases where bugs hide
(all-ins, side pots, split pots)."""

from __future__ import annotations

from typing import Any

import pytest


def fast_and_full(fast: object, full: object) -> list[Any]:
    """Parameters for a test's size (a count, or a count with what it draws from): ``fast``
    (id "fast") and ``full`` (id "full", marked slow)."""
    return [pytest.param(fast, id="fast"), pytest.param(full, id="full", marks=pytest.mark.slow)]
