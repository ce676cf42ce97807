"""Tables for the frame tests: a six-seat table of the "titan" house, players seated."""

from __future__ import annotations

from collections.abc import Mapping

from pokerroom.rng import SeededRandomSource
from pokerroom.rules import load_preset
from pokerroom.rules.game import Structure, Variant
from pokerroom.table import Table


def titan_table(
    stacks: Mapping[int, int],
    *,
    seed: int,
    variant: Variant = Variant.HOLDEM,
    structure: Structure = Structure.NO_LIMIT,
) -> Table:
    """Six seats at 100/200; player ``p<seat>`` (named ``P<seat>``) in each seat of
    ``stacks`` with that stack."""
    house = load_preset("titan")
    table = Table(
        spec=house.game(variant, structure, 200),
        house=house,
        seats=6,
        rng=SeededRandomSource(seed),
    )
    for seat, stack in stacks.items():
        table.sit(f"p{seat}", seat, stack, name=f"P{seat}")
    return table
