"""Knockout bounties: who knocked a player out, and how the bounty is shared.

The knockers of a busted player are the players who won chips from the pots the busted
player put chips into (the pots they were eligible for at the showdown, before any muck),
each weighted by the chips they won from those pots: a player who won the main pot alone
takes the whole bounty, two who split it share it evenly, and when one wins the main pot
and another a side pot the busted player was in, the bounty follows the chips.

Amounts are integer units (cents). A share is the amount times the knocker's weight over
all the weights, rounded down; the units rounding leaves go one each to the knockers with
the largest weight first, a tie to the one first left of the button (R-SHOW-6's order), so
the shares always add up to the amount. A progressive bounty (PKO) pays the knockers
``bounty - bounty // 2`` (the odd unit is cash) and adds ``bounty // 2`` to their own
bounties, each half shared as above; a plain bounty pays it whole.

>>> [(s.entry, s.cash, s.added) for s in share_bounty(1001, [("a", 300), ("b", 100)], True)]
[('a', 376, 375), ('b', 125, 125)]
>>> [(s.entry, s.cash, s.added) for s in share_bounty(5, [("a", 1), ("b", 1)], False)]
[('a', 3, 0), ('b', 2, 0)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pokerroom.engine.events import PotAwarded
from pokerroom.engine.hand import Hand


@dataclass(frozen=True, slots=True)
class Share:
    """A knocker's part of one bounty: ``cash`` paid to their balance, ``added`` to their
    own bounty (progressive)."""

    entry: str
    cash: int
    added: int


def knockers(hand: Hand, entries: Sequence[str], busted: str) -> list[tuple[str, int]]:
    """Who knocked ``busted`` out of ``hand`` (``entries`` by position) and the chips each
    won from the pots the busted player was in, in position order (left of the button
    first)."""
    position = entries.index(busted)
    pots = hand._showdown_pots  # eligibility before the mucks: the pots they put chips into
    mine = None if pots is None else {k for k, pot in enumerate(pots) if position in pot.eligible}
    weights = [0] * len(entries)
    for event in hand.events:
        if isinstance(event, PotAwarded) and (mine is None or event.pot in mine):
            for i, chips in event.winners:
                if i != position:
                    weights[i] += chips
    if not any(weights):  # no showdown pot of theirs was won (cannot happen): every winner
        for event in hand.events:
            if isinstance(event, PotAwarded):
                for i, chips in event.winners:
                    weights[i] += chips if i != position else 0
    return [(entries[i], w) for i, w in enumerate(weights) if w > 0]


def split(amount: int, weights: Sequence[tuple[str, int]]) -> list[tuple[str, int]]:
    """``amount`` shared by ``weights`` (in position order): rounded down, the odd units one
    each to the largest weights first, ties in position order. Sums to ``amount``."""
    if not weights:
        raise ValueError(f"nobody to share {amount} with")
    total = sum(w for _, w in weights)
    parts = [amount * w // total for _, w in weights]
    odd = amount - sum(parts)
    for k in sorted(range(len(weights)), key=lambda k: (-weights[k][1], k))[:odd]:
        parts[k] += 1
    return [(entry, part) for (entry, _), part in zip(weights, parts, strict=True)]


def share_bounty(bounty: int, weights: Sequence[tuple[str, int]], progressive: bool) -> list[Share]:
    """Each knocker's cash and the part added to their own bounty (see the module)."""
    added = bounty // 2 if progressive else 0
    cash = split(bounty - added, weights)
    grown = split(added, weights)
    return [Share(entry, paid, more) for (entry, paid), (_, more) in zip(cash, grown, strict=True)]
