"""The chi-square test of a shuffle's card positions."""

import math
from collections.abc import Callable

import numpy as np

Z_99 = 2.326347874  # standard normal quantile at 0.99

DEGREES = 51 * 51  # card x position, both margins fixed


def chi_square_critical(df: int, z: float = Z_99) -> float:
    """Wilson-Hilferty approximation of the chi-square quantile (exact to ~0.1% here)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def card_position_chi_square(shuffle: Callable[[], list[int]], count: int) -> float:
    orders = np.array([shuffle() for _ in range(count)], dtype=np.int64)
    counts = np.zeros((52, 52), dtype=np.int64)
    positions = np.broadcast_to(np.arange(52), orders.shape)
    np.add.at(counts, (orders.ravel(), positions.ravel()), 1)
    expected = count / 52
    return float(((counts - expected) ** 2 / expected).sum())
