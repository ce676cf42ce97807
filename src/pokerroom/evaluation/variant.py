"""Which hands are made and ranked: Hold'em, Omaha, Omaha Hi-Lo.

Defined here, below the rules, so that evaluation (equity) and the rules (game specs) name
a game with the same enum; ``pokerroom.rules.game`` re-exports it."""

from __future__ import annotations

from enum import StrEnum


class Variant(StrEnum):
    HOLDEM = "holdem"
    OMAHA = "omaha"
    OMAHA_HILO = "omaha_hilo"

    @property
    def hole_cards(self) -> int:
        return 2 if self is Variant.HOLDEM else 4

    @property
    def two_plus_three(self) -> bool:
        """Hands use exactly two hole and three board cards (R-SHOW-3)."""
        return self is not Variant.HOLDEM

    @property
    def hi_lo(self) -> bool:
        return self is Variant.OMAHA_HILO

    @property
    def label(self) -> str:
        return {"holdem": "Hold'em", "omaha": "Omaha", "omaha_hilo": "Omaha Hi-Lo"}[self.value]
