"""Randomness and the shuffle (R-DECK-1, R-DECK-2, S-RNG-1).

Every deck order comes from an unbiased Fisher-Yates shuffle driven by a
``RandomSource``. The default source is the OS CSPRNG (``secrets``); a seeded
source exists for simulations, benchmarks and tests and is never the default.
"""

from __future__ import annotations

import math
import random
import secrets
from typing import Final, Protocol

from pokerroom.cards import DECK_SIZE, FULL_DECK, Card


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
        # What ``Random.randrange(n)`` does (the same numbers), without its Python layers.
        if n <= 0:
            raise ValueError(f"randbelow needs a positive bound, got {n}")
        bits = n.bit_length()
        draw = self._random.getrandbits(bits)
        while draw >= n:
            draw = self._random.getrandbits(bits)
        return draw

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Copies and pickles carry on from the same point (a simulation can be forked).
        return (_seeded_at, (self._random.getstate(),))


def _seeded_at(state: tuple[object, ...]) -> SeededRandomSource:
    source = SeededRandomSource(0)
    source._random.setstate(state)
    return source


ORDERS: Final = math.factorial(DECK_SIZE)  # 52! deck orders, about 2^225.6


def shuffled_codes(source: RandomSource | None = None) -> list[int]:
    """A fresh 52-card order as integer codes: an unbiased Fisher-Yates shuffle.

    One uniform draw ``r`` in ``[0, 52!)`` is read in the factorial number system:
    its digits ``r mod 52, (r // 52) mod 51, ...`` are independent uniform draws in
    ``[0, i]`` for i = 51 down to 1, and position ``i`` swaps with that digit's
    position -- exactly Fisher-Yates, never the biased "swap with any card". One call
    to the source (one OS CSPRNG read) instead of 51.
    """
    r = (source or _SYSTEM).randbelow(ORDERS)
    deck = list(range(DECK_SIZE))
    i = DECK_SIZE - 1
    for radix in _CHUNKS:
        # The next digits, read from one machine-sized piece of r: the same digits as
        # dividing r itself each time, with a few big-number divisions instead of 51.
        r, piece = divmod(r, radix)
        while radix > 1:
            size = i + 1
            j = piece % size
            piece //= size
            radix //= size
            deck[i], deck[j] = deck[j], deck[i]
            i -= 1
    return deck


def _digit_chunks() -> tuple[int, ...]:
    """Products of consecutive radices 52, 51, ..., 2, each below 2**62."""
    chunks, product = [], 1
    for radix in range(DECK_SIZE, 1, -1):
        if product * radix >= 1 << 62:
            chunks.append(product)
            product = 1
        product *= radix
    chunks.append(product)
    return tuple(chunks)


_CHUNKS: Final = _digit_chunks()


def shuffled_deck(source: RandomSource | None = None) -> list[Card]:
    """A fresh, fully shuffled deck of 52 cards (R-DECK-1)."""
    return [FULL_DECK[code] for code in shuffled_codes(source)]


_SYSTEM = SystemRandomSource()
