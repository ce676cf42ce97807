"""Tournament structures are data files validated on load."""

from __future__ import annotations

import copy
import tomllib
from importlib import resources
from typing import Any

import pytest

from pokerroom.rules import RulesError
from pokerroom.rules.tournament import (
    WHOLE,
    load_tournament_structure,
    parse_tournament_structure,
    tournament_structure_names,
)

SHIPPED = tournament_structure_names()


def raw(name: str) -> dict[str, Any]:
    text = (
        resources.files("pokerroom.rules")
        .joinpath("data", "tournaments", f"{name}.toml")
        .read_text(encoding="utf-8")
    )
    return tomllib.loads(text)


def test_ships_sit_and_gos_turbos_heads_up_and_three_kinds_of_mtt() -> None:
    kinds = {name: load_tournament_structure(name) for name in SHIPPED}
    assert {"sng6", "sng6_turbo", "sng9", "sng9_turbo", "sng_heads_up"} <= set(kinds)
    assert {"mtt_freezeout", "mtt_rebuy", "mtt_reentry"} <= set(kinds)
    assert kinds["sng_heads_up"].table_size == 2
    assert kinds["sng9_turbo"].levels[0].minutes < kinds["sng9"].levels[0].minutes
    assert kinds["sng6_turbo"].levels[0].minutes < kinds["sng6"].levels[0].minutes
    freeze = kinds["mtt_freezeout"]
    assert freeze.rebuy is None and freeze.addon is None and freeze.re_entries == 0
    rebuy = kinds["mtt_rebuy"]
    assert rebuy.rebuy is not None and rebuy.addon is not None
    assert kinds["mtt_reentry"].re_entries > 0 and kinds["mtt_reentry"].late_registration_levels


def test_fixed_limit_holdem_pot_limit_omaha_and_omaha_hi_lo_ship_as_sit_and_go_and_mtt() -> None:
    games = {
        (s.kind, f"{s.variant}/{s.structure}") for s in map(load_tournament_structure, SHIPPED)
    }
    for game in ("holdem/fixed_limit", "omaha/pot_limit", "omaha_hilo/pot_limit"):
        assert {("sng", game), ("mtt", game)} <= games, game
    # R-LIM-3 (001): in tournament play the three-raise cap holds even heads-up, to the end.
    for name in ("sng6_limit", "mtt_limit"):
        assert load_tournament_structure(name).limit_cap_lifts == "never"


@pytest.mark.parametrize("name", SHIPPED)
def test_every_field_size_pays_exactly_100_percent(name: str) -> None:
    structure = load_tournament_structure(name)
    if structure.satellite is not None:  # it pays seats (tests/tournament/test_satellites.py)
        assert structure.payout_for(structure.max_entrants) == ()
        return
    for entrants in range(structure.min_entrants, min(structure.max_entrants, 2000) + 1):
        places = structure.payout_for(entrants)
        assert sum(places) == WHOLE
        assert len(places) <= entrants
        assert list(places) == sorted(places, reverse=True)


def test_nine_player_sng_pays_50_30_20() -> None:
    assert load_tournament_structure("sng9").payout_for(9) == (5000, 3000, 2000)


@pytest.mark.parametrize("entrants", [100, 300, 1000, 5000])
def test_mtt_pays_about_15_percent_of_the_field(entrants: int) -> None:
    paid = len(load_tournament_structure("mtt_freezeout").payout_for(entrants))
    assert 0.10 * entrants <= paid <= 0.16 * entrants


def test_paid_places_grow_with_the_field() -> None:
    structure = load_tournament_structure("mtt_freezeout")
    counts = [len(structure.payout_for(n)) for n in range(2, 3000)]
    assert counts == sorted(counts) and counts[-1] > counts[0]


def test_big_blind_ante_levels_in_the_mtt() -> None:
    structure = load_tournament_structure("mtt_freezeout")
    assert structure.levels[0].big_blind_ante == 0
    assert structure.levels[5].big_blind_ante == structure.levels[5].big_blind
    assert structure.level(10_000) == structure.levels[-1]  # the last level stays


def broken(change: Any, name: str = "sng9") -> str:
    data = copy.deepcopy(raw(name))
    change(data)
    with pytest.raises(RulesError) as error:
        parse_tournament_structure(data, "bad")
    return str(error.value)


def test_bad_files_get_clear_errors() -> None:
    assert "unknown keys colour" in broken(lambda d: d.update(colour="red"))
    assert "missing starting_stack" in broken(lambda d: d.pop("starting_stack"))
    assert "sum to 90" in broken(lambda d: d["payouts"][2].update(places=[50, 30, 10]))
    assert "lower place pays more" in broken(lambda d: d["payouts"][2].update(places=[30, 50, 20]))
    assert "do not cover 4" in broken(lambda d: d["payouts"].pop(1))
    assert "payouts stop at 6" in broken(lambda d: d["payouts"].pop(2))
    assert "more than two decimals" in broken(
        lambda d: d["payouts"][2].update(places=[49.995, 30.005, 20])
    )
    assert "3 places paid with only 2" in broken(
        lambda d: d["payouts"][0].update(places=[50, 30, 20])
    )
    assert "small blind 50 exceeds" in broken(
        lambda d: d["levels"][0].update(small_blind=50, big_blind=20)
    )
    assert "an ante and a big-blind ante" in broken(
        lambda d: d["levels"][0].update(ante=5, big_blind_ante=20)
    )
    assert "the big blind goes down" in broken(
        lambda d: d["levels"][1].update(small_blind=5, big_blind=10)
    )
    assert "minutes must be a whole number >= 1" in broken(
        lambda d: d["levels"][0].update(minutes=0)
    )
    assert "a sit & go seats at most 9" in broken(lambda d: d.update(entrants=[2, 12]))
    assert "game must be variant/structure" in broken(lambda d: d.update(game="chess"))
    assert "re-entries need late registration" in broken(lambda d: d.update(re_entries=1))
    assert "the add-on needs a break after level 5" in broken(
        lambda d: d["addon"].update(after_level=5), "mtt_rebuy"
    )
    assert "limit_cap_lifts must be never or heads_up" in broken(
        lambda d: d.update(limit_cap_lifts="sometimes")
    )
    assert "rebuy: missing chips" in broken(lambda d: d["rebuy"].pop("chips"), "mtt_rebuy")


def test_unknown_structure_names_the_shipped_ones() -> None:
    with pytest.raises(RulesError, match="no tournament structure 'nope'; structures: mtt_"):
        load_tournament_structure("nope")
