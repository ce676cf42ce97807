"""A tournament's entries as the coordinator keeps them: one per buy-in (a re-entry is a new
one), with the table it sits at and what it bought; and a busted entry's rebuy on offer."""

from __future__ import annotations

from dataclasses import dataclass


def entry_id(player: str, number: int) -> str:
    """The key an entry is known by at its table, in the store and on the wire: the player's
    id for their first entry, ``7#2`` for their first re-entry. Built here only and never
    read back: what it stands for is the entry's ``player`` and ``number``."""
    return player if number == 1 else f"{player}#{number}"


@dataclass
class Entry:
    id: str
    player: str
    number: int = 1  # the player's first entry, 2 their first re-entry...
    name: str = ""  # shown at the tables (the player's id when none)
    table: int | None = None
    rebuys: int = 0
    addon: bool = False
    out: bool = False
    big_blind_last: bool = False  # posted the big blind in the last hand dealt to them
    moved: bool = False  # moved since that hand
    bounty: int = 0  # a knockout event: the bounty on this entry now (money, not chips)
    bounties_won: int = 0  # the bounty cash this entry has won

    @property
    def owes_no_big_blind(self) -> bool:
        """Moved after posting the big blind: the next hand must not make them post it."""
        return self.moved and self.big_blind_last


@dataclass
class RebuyOffer:
    """A busted entry's rebuy on offer until ``until``; declined or lapsed, they are out in
    the hand they busted in (its elimination group, their chips and position at its start)."""

    until: float
    group: int
    chips: int
    order: tuple[int, ...]
