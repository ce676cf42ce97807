"""Pots: layering contributions into main and side pots, and splitting a pot (R-POT-*)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from pokerroom.records import Record


class Pot(Record):
    __match_args__: ClassVar[tuple[str, ...]] = ("amount", "eligible")

    def __init__(self, amount: int, eligible: tuple[int, ...]) -> None:
        self.amount: Final = amount
        self.eligible: Final = eligible  # positions that can win it


def build_pots(live: Sequence[int], dead: int, in_hand: Sequence[bool]) -> list[Pot]:
    """Main pot first, then side pots, layered by live contribution (R-POT-1, R-POT-2).

    ``live[i]`` is what position i put in towards bets (folded players too);
    ``dead`` is dead money (dead blinds, dead antes), which goes to the main pot;
    ``in_hand[i]`` is False once i has folded or mucked. A pot's eligible players
    are those still in the hand who contributed to its whole layer.
    """
    levels = sorted({c for c, alive in zip(live, in_hand, strict=True) if alive and c > 0})
    pots: list[Pot] = []
    previous = 0
    for n, level in enumerate(levels):
        top = level if n < len(levels) - 1 else max(live)  # money above the last level: last pot
        amount = 0
        for c in live:
            amount += min(c, top) - min(c, previous)
        eligible = tuple([i for i, c in enumerate(live) if in_hand[i] and c >= level])
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(amount=pots[-1].amount + amount, eligible=eligible)
        else:
            pots.append(Pot(amount=amount, eligible=eligible))
        previous = top
    if dead:
        if pots:
            pots[0] = Pot(amount=pots[0].amount + dead, eligible=pots[0].eligible)
        else:
            everyone = tuple([i for i, alive in enumerate(in_hand) if alive])
            pots.append(Pot(amount=dead, eligible=everyone))
    return pots


def split(amount: int, winners: Sequence[int]) -> list[tuple[int, int]]:
    """Share ``amount`` among ``winners`` (positions, ascending = order left of the button).

    Odd chips go one each to the winners first in order left of the button (R-SHOW-6).
    """
    ordered = sorted(winners)
    share, odd = divmod(amount, len(ordered))
    return [(p, share + (1 if n < odd else 0)) for n, p in enumerate(ordered)]


def take_rake(pots: list[Pot], rake: int) -> list[Pot]:
    """Remove the rake, from the main pot first (R-RAKE-5)."""
    out = []
    for pot in pots:
        taken = min(rake, pot.amount)
        rake -= taken
        out.append(Pot(amount=pot.amount - taken, eligible=pot.eligible))
    return out
