"""The shuffle (R-DECK-1, R-DECK-2, S-RNG-1): a fresh uniform permutation per hand."""

import math
import random
import secrets

import pytest

from pokerroom.cards import FULL_DECK
from pokerroom.rng import (
    RandomSource,
    SeededRandomSource,
    SystemRandomSource,
    shuffled_codes,
    shuffled_deck,
)
from tests.helpers.chi_square import DEGREES, card_position_chi_square, chi_square_critical

SHUFFLES = 200_000


class NaiveSwapWithAny:
    """The classic bug: swap each position with *any* card. 52^52 paths onto 52! orders."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def shuffle(self) -> list[int]:
        deck = list(range(52))
        for i in range(52):
            j = self._random.randrange(52)
            deck[i], deck[j] = deck[j], deck[i]
        return deck


def test_R_DECK_1_a_fresh_full_deck_every_hand() -> None:
    deck = shuffled_deck()
    assert sorted(deck) == sorted(FULL_DECK) and len(set(deck)) == 52
    assert shuffled_codes() != shuffled_codes()  # 1 in 52! to collide


def test_S_RNG_1_default_source_is_the_os_csprng() -> None:
    calls: list[int] = []
    real = secrets.randbelow

    def spy(n: int) -> int:
        calls.append(n)
        return real(n)

    source = SystemRandomSource()
    typed: RandomSource = source  # the protocol is structural: mypy checks this line
    assert typed is source
    secrets.randbelow = spy
    try:
        shuffled_codes()
    finally:
        secrets.randbelow = real
    # One uniform draw over all 52! orders, from the OS CSPRNG.
    assert calls == [math.factorial(52)]


def test_S_RNG_1_the_draw_is_read_as_fisher_yates_swaps() -> None:
    class Fixed:
        def __init__(self, value: int) -> None:
            self.value = value

        def randbelow(self, n: int) -> int:
            assert n == math.factorial(52)
            return self.value

    rng = random.Random(3)
    swaps = [rng.randrange(i + 1) for i in range(51, 0, -1)]  # j for i = 51 .. 1
    value, radix = 0, 1
    for i, j in zip(range(51, 0, -1), swaps, strict=True):
        value += j * radix
        radix *= i + 1
    expected = list(range(52))
    for i, j in zip(range(51, 0, -1), swaps, strict=True):
        expected[i], expected[j] = expected[j], expected[i]
    assert shuffled_codes(Fixed(value)) == expected


def test_seeded_source_is_reproducible_and_never_the_default() -> None:
    assert shuffled_codes(SeededRandomSource(7)) == shuffled_codes(SeededRandomSource(7))
    assert shuffled_codes(SeededRandomSource(7)) != shuffled_codes(SeededRandomSource(8))


def test_R_DECK_2_S_RNG_1_chi_square_card_by_position_passes_at_99_percent() -> None:
    critical = chi_square_critical(DEGREES)
    statistic = card_position_chi_square(shuffled_codes, SHUFFLES)
    if statistic >= critical:
        # A fair shuffle fails a 99% test once in a hundred runs; a biased one
        # fails every time. One fresh sample tells them apart (false alarm: 1e-4).
        statistic = card_position_chi_square(shuffled_codes, SHUFFLES)
    assert statistic < critical, f"chi-square {statistic:.0f} >= {critical:.0f}"


def test_R_DECK_2_the_chi_square_check_catches_a_biased_shuffle() -> None:
    critical = chi_square_critical(DEGREES)
    naive = NaiveSwapWithAny(seed=2026)
    statistic = card_position_chi_square(naive.shuffle, SHUFFLES)
    assert statistic > critical, "the uniformity check must be able to fail"


@pytest.mark.parametrize(("df", "reference"), [(10, 23.209), (100, 135.807)])
def test_chi_square_critical_value_approximation(df: int, reference: float) -> None:
    # Reference: published 99% quantiles of the chi-square distribution.
    assert chi_square_critical(df) == pytest.approx(reference, rel=2e-3)
