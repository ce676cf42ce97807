"""A guaranteed prize pool: the house's overlay is set when the field is final."""

from __future__ import annotations

from pokerroom.rng import SeededRandomSource
from pokerroom.rules.house import STANDARD
from pokerroom.rules.tournament import load_tournament_structure
from pokerroom.tournament.coordinator import Tournament
from pokerroom.tournament.snapshot import tournament_from_json, tournament_to_json


def test_a_guarantee_is_topped_up_by_the_overlay_when_registration_closes() -> None:
    s = load_tournament_structure("mtt_pko")
    t = Tournament(structure=s, house=STANDARD, rng=SeededRandomSource(1))
    t.guarantee = 50_000
    for k in range(4):
        t.register(f"p{k}", 0.0)
    t.start(0.0)
    assert t.overlay == 0 and t.prize_pool == 4 * s.pool_share  # late entries may still come
    t.close_registration()
    assert t.overlay == 50_000 - 4 * s.pool_share and t.prize_pool == 50_000
    back = tournament_from_json(tournament_to_json(t), rng=SeededRandomSource(1))
    assert (back.guarantee, back.overlay, back.prize_pool) == (50_000, t.overlay, 50_000)
