"""Randomness and the shuffle (R-DECK-1, R-DECK-2, S-RNG-1).

Every deck order comes from an unbiased Fisher-Yates shuffle driven by a
``RandomSource``. The default source is the OS CSPRNG (``secrets``); a seeded
source exists for simulations, benchmarks and tests and is never the default.
"""

from __future__ import annotations

import random
import secrets
from typing import Protocol, runtime_checkable

from pokerroom.cards import DECK_SIZE, FULL_DECK, Card


@runtime_checkable
class RandomSource(Protocol):
    """Anything that draws a uniform integer in ``[0, n)``."""

    def randbelow(self, n: int) -> int: ...


class SystemRandomSource:
    """The OS CSPRNG via ``secrets.randbelow``: the only source for live tables."""

    def randbelow(self, n: int) -> int:
        return secrets.randbelow(n)


class SeededRandomSource:
    """A reproducible source for simulations and tests; never deal live hands with it."""

    def __init__(self, seed: int | str | bytes) -> None:
        self._random = random.Random(seed)

    def randbelow(self, n: int) -> int:
        return self._random.randrange(n)


def shuffled_codes(source: RandomSource | None = None) -> list[int]:
    """A fresh 52-card order as integer codes: Fisher-Yates, each swap uniform.

    Position ``i`` (from the top, 51 down to 1) swaps with a uniformly drawn
    position in ``[0, i]`` -- never "any card", the classic biased variant.
    """
    draw = (source or _SYSTEM).randbelow
    deck = list(range(DECK_SIZE))
    for i in range(DECK_SIZE - 1, 0, -1):
        j = draw(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def shuffled_deck(source: RandomSource | None = None) -> list[Card]:
    """A fresh, fully shuffled deck of 52 cards (R-DECK-1)."""
    return [FULL_DECK[code] for code in shuffled_codes(source)]


_SYSTEM = SystemRandomSource()
