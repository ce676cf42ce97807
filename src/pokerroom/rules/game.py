"""Game specs: which variant, which betting structure, which stakes (variants are data)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from pokerroom.evaluation.variant import Variant as Variant  # one enum for both layers
from pokerroom.rules.errors import RulesError


class Structure(StrEnum):
    FIXED_LIMIT = "fixed_limit"
    POT_LIMIT = "pot_limit"
    NO_LIMIT = "no_limit"

    @property
    def label(self) -> str:
        return {"fixed_limit": "Limit", "pot_limit": "Pot Limit", "no_limit": "No Limit"}[
            self.value
        ]


# PHH variant codes; PT, NO, FO, PO/8 and NO/8 are ours (PHH.md: the standard lacks them).
SB_ROUNDINGS = ("exact", "nearest_dollar")  # R-BLIND-3

_PHH_CODES = {
    (Variant.HOLDEM, Structure.FIXED_LIMIT): "FT",
    (Variant.HOLDEM, Structure.POT_LIMIT): "PT",
    (Variant.HOLDEM, Structure.NO_LIMIT): "NT",
    (Variant.OMAHA, Structure.FIXED_LIMIT): "FO",
    (Variant.OMAHA, Structure.POT_LIMIT): "PO",
    (Variant.OMAHA, Structure.NO_LIMIT): "NO",
    (Variant.OMAHA_HILO, Structure.FIXED_LIMIT): "FO/8",
    (Variant.OMAHA_HILO, Structure.POT_LIMIT): "PO/8",
    (Variant.OMAHA_HILO, Structure.NO_LIMIT): "NO/8",
}
STANDARD_PHH_CODES = frozenset({"FT", "NT", "PO", "FO/8"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Stakes:
    """Amounts in the table's smallest unit (cents). ``small_bet`` is the big blind."""

    small_blind: int
    big_blind: int
    ante: int = 0  # posted by every player
    big_blind_ante: int = 0  # posted by the big blind alone, dead money
    straddle: int = 0  # a forced third blind, after the big blind

    def __post_init__(self) -> None:
        for name in ("small_blind", "big_blind", "ante", "big_blind_ante", "straddle"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise RulesError(
                    f"stakes: {name} must be a whole number of chips >= 0, got {value!r}"
                )
        if self.big_blind <= 0:
            raise RulesError("stakes: the big blind must be positive")
        if self.small_blind > self.big_blind:
            raise RulesError(
                f"stakes: small blind {self.small_blind} exceeds big blind {self.big_blind}"
            )
        if self.straddle and self.straddle < self.big_blind:
            raise RulesError(f"stakes: straddle {self.straddle} is below the big blind")

    @property
    def small_bet(self) -> int:
        """R-BLIND-2: the big blind is the small bet (the lower limit)."""
        return self.big_blind

    @property
    def big_bet(self) -> int:
        """R-LIM-1: the big bet is twice the small bet."""
        return 2 * self.big_blind


def small_blind_for(big_blind: int, rounding: str) -> int:
    """R-BLIND-3: half the big blind, rounded by the house's ``sb_rounding``.

    ``nearest_dollar``: a half of $1 (100) or more is rounded to the nearest dollar, a
    half dollar down ($5/$10 -> $2, $15/$30 -> $7, but $3.50/$7 -> $2); a half under $1
    stays exact ($1/$2 -> $0.50).
    ``exact``: half, in whole chips (an odd big blind rounds the half down).
    """
    if rounding not in SB_ROUNDINGS:
        raise RulesError(
            f"unknown sb_rounding {rounding!r}: use {' or '.join(map(repr, SB_ROUNDINGS))}"
        )
    half = big_blind // 2
    if rounding == "nearest_dollar" and half >= 100:
        dollars, rest = divmod(big_blind, 200)  # the half is dollars + rest/200
        return (dollars + (rest > 100)) * 100  # exactly half a dollar (rest 100) goes down
    return half


@dataclass(frozen=True, slots=True, kw_only=True)
class GameSpec:
    variant: Variant
    structure: Structure
    stakes: Stakes
    # Derived once here: the engine reads them for every hand it deals.
    phh_code: str = field(init=False, repr=False, compare=False)
    hole_cards: int = field(init=False, repr=False, compare=False)
    two_plus_three: bool = field(init=False, repr=False, compare=False)
    hi_lo: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "phh_code", _PHH_CODES[(self.variant, self.structure)])
        object.__setattr__(self, "hole_cards", self.variant.hole_cards)
        object.__setattr__(self, "two_plus_three", self.variant.two_plus_three)
        object.__setattr__(self, "hi_lo", self.variant.hi_lo)

    @property
    def name(self) -> str:
        return f"{self.structure.label} {self.variant.label}"

    @staticmethod
    def from_phh_code(code: str) -> tuple[Variant, Structure]:
        for key, value in _PHH_CODES.items():
            if value == code:
                return key
        raise RulesError(f"unsupported PHH variant {code!r}")
