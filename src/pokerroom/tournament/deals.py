"""Deals at the final table: the room computes an ICM (Malmuth-Harville) split or
an equal chip-proportional one (a "chip chop") of the prize money still to be paid; play goes
on for what is kept back and the title. Amounts are whole units and sum to the money split:
exact fractions, then the largest remainders get the odd units. No deal pays anyone more
than first place nor less than the lowest place still to be paid: a chip chop's share over
first place is capped there and the excess shared among the others by their chips (an ICM
share is within those bounds already).

>>> icm_split([5000, 3000, 2000], [500, 300, 200])
[384, 327, 289]
>>> chip_split([5000, 3000, 2000], [500, 300, 200])
[400, 320, 280]
>>> chip_split([80, 10, 10], [4500, 2700, 1800])
[4500, 2250, 2250]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from pokerroom.tournament.events import DealMade, TournamentError

if TYPE_CHECKING:
    from pokerroom.tournament.coordinator import Tournament

DealKind = Literal["icm", "chip"]


@dataclass
class Proposal:
    """A deal proposed at the final table (the room holds the one open), until every
    player left accepts it, one declines, or it lapses or is void."""

    kind: DealKind
    keep: int
    by: str  # the entry that proposed it
    players: tuple[str, ...]  # the entries left when it was proposed
    accepted: set[str] = field(default_factory=set)
    # When it lapses (the room's clock): the decision time from when its amounts were
    # shown (None while the hand in play, which decides them, goes on).
    until: float | None = None


def _whole(shares: Sequence[Fraction], total: int) -> list[int]:
    """Round exact shares to whole units summing to ``total`` (largest remainder first)."""
    floors = [int(s) for s in shares]
    order = sorted(range(len(shares)), key=lambda i: (-(shares[i] - floors[i]), i))
    for i in order[: total - sum(floors)]:
        floors[i] += 1
    return floors


def icm_equities(stacks: Sequence[int], prizes: Sequence[int]) -> list[Fraction]:
    """Each player's expected prize when the chance to finish first is their share of the
    chips, and so on down among those left (Malmuth-Harville)."""
    n = len(stacks)
    if any(s <= 0 for s in stacks):
        raise ValueError("every player in a deal has chips")
    memo: dict[int, list[Fraction]] = {}

    def rest(mask: int) -> list[Fraction]:
        """Equities in the places still open when the players in ``mask`` are left."""
        if mask in memo:
            return memo[mask]
        place = n - bin(mask).count("1")
        values = [Fraction(0)] * n
        if place < len(prizes) and mask:
            members = [i for i in range(n) if mask >> i & 1]
            total = sum(stacks[i] for i in members)
            for i in members:
                chance = Fraction(stacks[i], total)
                values[i] += chance * prizes[place]
                for j, v in enumerate(rest(mask & ~(1 << i))):
                    if v:
                        values[j] += chance * v
        memo[mask] = values
        return values

    return rest((1 << n) - 1)


def icm_split(stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """The ICM deal of ``prizes`` (places 1.. for the players left) by ``stacks``."""
    return _whole(icm_equities(stacks, prizes), sum(prizes[: len(stacks)]))


def chip_split(stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """A chip chop: everyone gets the lowest prize still to be paid; the rest is shared in
    proportion to chips, except that nobody takes more than first place: a share over it is
    first place, and what it would have had over that is shared among the others the same
    way (again, until no share is over)."""
    paid = list(prizes[: len(stacks)]) + [0] * (len(stacks) - len(prizes))
    top, floor = paid[0], paid[-1]
    capped: set[int] = set()
    while True:
        free = [i for i in range(len(stacks)) if i not in capped]
        rest = sum(paid) - top * len(capped) - floor * len(free)
        total = sum(stacks[i] for i in free)
        shares = [
            Fraction(top) if i in capped else floor + Fraction(rest * s, total)
            for i, s in enumerate(stacks)
        ]
        over = {i for i in free if shares[i] > top}
        if not over:
            return _whole(shares, sum(paid))
        capped |= over


def deal_offer(t: Tournament, kind: DealKind, keep: int = 0) -> dict[str, int]:
    """At the final table, between hands, once the prize pool is final: what each player
    left would take of the prizes still to be paid, ``keep`` played on for with the title."""
    left = t.remaining()
    if t.deal is not None:
        raise TournamentError(code="tournament.deal_done", event=t.name)
    if len(t.tables) != 1 or len(left) < 2 or not t.closed or t.finished:
        raise TournamentError(code="tournament.deal_final_table", event=t.name)
    rebuy, addon = t.structure.rebuy, t.structure.addon
    last = max(rebuy.until_level if rebuy else 0, addon.after_level if addon else 0)
    if t.level_shown <= last:
        raise TournamentError(code="tournament.deal_pool", event=t.name)
    table = next(iter(t.tables.values()))
    if table.hand is not None:
        raise TournamentError(code="tournament.deal_between_hands", event=t.name)
    prizes = (t.prizes() + [0] * len(left))[: len(left)]
    if not 0 <= keep <= prizes[0] - prizes[1]:
        raise TournamentError(code="tournament.deal_keep", event=t.name, amount=keep)
    prizes[0] -= keep
    stacks = [table.seat_of(entry).stack for entry in left]
    split = icm_split(stacks, prizes) if kind == "icm" else chip_split(stacks, prizes)
    return dict(zip(left, split, strict=True))


def make_deal(t: Tournament, kind: DealKind, agreed: Collection[str], keep: int = 0) -> list[Any]:
    """Every player left agrees: the deal's amounts replace their prizes, and the winner
    takes ``keep`` on top (``Tournament.places``)."""
    offer = deal_offer(t, kind, keep)
    missing = sorted(set(offer) - set(agreed))
    if missing:
        raise TournamentError(
            code="tournament.deal_missing", event=t.name, players=", ".join(missing)
        )
    t.deal, t.deal_keep = offer, keep
    return [DealMade(kind, tuple(offer.items()), keep)]
