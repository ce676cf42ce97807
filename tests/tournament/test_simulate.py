"""Whole tournaments in process: properties over random events of 2 to
300 entries, with rebuys, late entries, re-entries, absent players and ties."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.rules.tournament import load_tournament_structure
from pokerroom.tournament.events import Eliminated, HandDealt, HandDone
from pokerroom.tournament.simulate import Options, Simulation, simulate
from pokerroom.tournament.simulate import result as result_of
from tests.helpers.tournament_invariants import Invariants, Settled, check_result

SNGS = ["sng9", "sng9_turbo", "sng6", "sng6_turbo", "sng_heads_up"]
MTTS = ["mtt_freezeout", "mtt_rebuy", "mtt_reentry"]


def play(name: str, entrants: int, seed: int, **options: Any) -> tuple[dict[str, Any], Invariants]:
    watch, settled = Invariants(), Settled()
    structure = load_tournament_structure(name)
    run = Simulation(structure, entrants, seed, options=Options(**options), observe=watch)
    run.on_hand = settled
    run.play()
    result = result_of(run.t)
    watch.check_ties(result)
    assert not watch.problems, watch.problems[:5]
    assert watch.state_checks > 0
    check_result(result)
    settled.check(run.t)
    return result, watch


@st.composite
def events(draw: st.DrawFn, big: int) -> tuple[str, int, int, dict[str, int]]:
    name = draw(st.sampled_from(SNGS + MTTS))
    structure = load_tournament_structure(name)
    high = min(structure.max_entrants, big)
    entrants = draw(st.integers(structure.min_entrants, high))
    options = {"absent_percent": draw(st.sampled_from([0, 0, 10, 60]))}  # 60: ties
    if structure.kind == "mtt":
        options["late_entries"] = draw(st.integers(0, entrants // 3))
        options["rebuy_percent"] = draw(st.sampled_from([0, 50, 100]))
        options["addon_percent"] = draw(st.sampled_from([0, 50]))
        options["reentry_percent"] = draw(st.sampled_from([0, 50, 100]))
    return name, entrants, draw(st.integers(0, 2**32)), options


@st.composite
def arrivals(draw: st.DrawFn) -> tuple[str, int, int, dict[str, int]]:
    """Multi-table events where players arrive at tables: late entries, re-entries, moves and
    broken tables' redraws (each into whatever seats the busts left open)."""
    name = draw(st.sampled_from(MTTS))
    entrants = draw(st.integers(12, 160))
    options = {
        "late_entries": draw(st.integers(0, entrants // 3)),
        "reentry_percent": draw(st.sampled_from([0, 50, 100])),
        "absent_percent": draw(st.sampled_from([0, 10])),
    }
    return name, entrants, draw(st.integers(0, 2**32)), options


@settings(max_examples=15, deadline=None)
@given(arrivals())
def test_TDA_8A_10A_an_arriving_player_is_never_dealt_in_between_the_button_and_the_small_blind(
    event: tuple[str, int, int, dict[str, int]],
) -> None:
    # ``Invariants`` checks each arrival's first hand at its new table: dealt in anywhere but
    # between the button and the small blind, or (seated there) not dealt that one hand.
    name, entrants, seed, options = event
    _, watch = play(name, entrants, seed, **options)
    assert watch.moves or options["late_entries"] or entrants <= 9


def test_TDA_10A_a_redrawn_player_seated_between_the_button_and_the_small_blind_waits_a_hand() -> (
    None
):
    # Seeds where a broken table's players and late entries fill the seats that a hand's busts
    # left between the button and the small blind: they wait for the button, once.
    _, watch = play("mtt_reentry", 120, 1, late_entries=40, reentry_percent=100)
    assert watch.waited > 0


@settings(max_examples=25, deadline=None)
@given(events(300))
def test_random_events_keep_every_invariant(event: tuple[str, int, int, dict[str, int]]) -> None:
    name, entrants, seed, options = event
    result, _ = play(name, entrants, seed, **options)
    assert result["entrants"] >= entrants - options.get("late_entries", 0)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_300_entry_freezeout_moves_breaks_and_plays_hand_for_hand(seed: int) -> None:
    # Absent players fold: fewer busts a hand, so the bubble lasts some hand-for-hand rounds.
    result, watch = play("mtt_freezeout", 300, seed, absent_percent=30)
    assert result["tables_max"] == 34 and result["moves"] > 50
    assert watch.balanced > 0 and watch.moves == result["moves"]
    assert watch.h4h_seen and watch.h4h_hands > 0  # the bubble, hand for hand


def test_rebuys_late_entries_and_re_entries_are_counted_in_chips_and_money() -> None:
    rebuy, _ = play(
        "mtt_rebuy",
        60,
        5,
        late_entries=10,
        rebuy_percent=100,
        addon_percent=100,
        absent_percent=20,  # fewer busts a hand: the event lasts into the add-on break
    )
    structure = load_tournament_structure("mtt_rebuy")
    assert rebuy["rebuys"] > 0 and rebuy["addons"] > 0 and rebuy["entrants"] > 50
    assert rebuy["prize_pool"] == structure.buy_in * rebuy["entrants"] + 10000 * (
        rebuy["rebuys"] + rebuy["addons"]
    )
    assert (
        rebuy["chips_start"]
        == 10000 * (rebuy["entrants"] + rebuy["rebuys"]) + 15000 * (rebuy["addons"])
    )
    again, _ = play("mtt_reentry", 40, 3, reentry_percent=100)
    assert again["entrants"] > 40  # re-entries are entries: each gets a place


def test_recording_the_hands_changes_nothing_in_the_event() -> None:
    structure = load_tournament_structure("mtt_freezeout")
    seen: list[int] = []
    recorded = simulate(structure, 40, 9, on_hand=lambda t, played: seen.append(played.number))
    assert recorded == simulate(structure, 40, 9)
    assert seen and sorted(seen) == list(range(1, recorded["hands"] + 1))


def test_ties_go_to_players_out_in_one_hand_with_equal_stacks() -> None:
    # Absent players are blinded off side by side: equal stacks busting in the same hand.
    result, watch = play("mtt_freezeout", 100, 0, absent_percent=60)
    assert len(result["ties"]) >= 2 and not watch.problems
    for first, last in result["ties"]:
        shares = [p[2] for p in result["places"] if first <= p[0] <= last]
        points = load_tournament_structure("mtt_freezeout").payout_for(100)
        paid = sum(points[first - 1 : last])
        assert max(shares) - min(shares) <= 1 and (sum(shares) > 0) == (paid > 0)


def test_places_are_settled_as_the_event_goes() -> None:
    # The room pays each place when it is final: here before the end, hand-for-hand too.
    watch, settled = Invariants(), Settled()
    run = Simulation(
        load_tournament_structure("mtt_freezeout"),
        120,
        2,
        options=Options(absent_percent=30),
        observe=watch,
    )
    run.on_hand = settled
    run.play()
    settled.check(run.t)
    assert watch.h4h_seen and settled.early == 119 - 1  # all but the last two, before the end


def test_absent_players_are_blinded_off_and_still_placed() -> None:
    result, watch = play("sng9", 9, 4, absent_percent=50)
    assert not watch.problems and len(result["places"]) == 9


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(events(300))
def test_many_random_events_keep_every_invariant(
    event: tuple[str, int, int, dict[str, int]],
) -> None:
    name, entrants, seed, options = event
    play(name, entrants, seed, **options)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 3])  # 3: a hand over as dealt moved players between starts
def test_a_1000_entry_freezeout_spreads_over_112_tables_and_plays_hand_for_hand(seed: int) -> None:
    result, watch = play("mtt_freezeout", 1000, seed)
    assert result["tables_max"] == 112 and watch.h4h_seen


class Rounds:
    """Who busted at which table in each hand-for-hand round, and each bust's group."""

    def __init__(self) -> None:
        self.round_of: dict[int, int] = {}  # table -> the round of its hand in progress
        self.busts: dict[int, dict[int, tuple[str, ...]]] = {}  # round -> table -> entries
        self.out: dict[str, tuple[int, int]] = {}  # entry -> group, chips at its hand's start

    def __call__(self, t: Any, events: list[Any]) -> None:
        for e in events:
            if isinstance(e, HandDealt):
                self.round_of[e.table] = -1 if e.round is None else e.round
            elif isinstance(e, HandDone) and e.busted and self.round_of.get(e.table, -1) >= 0:
                self.busts.setdefault(self.round_of[e.table], {})[e.table] = e.busted
            elif isinstance(e, Eliminated):
                self.out[e.entry] = (e.group, e.chips_at_start)


def test_hand_for_hand_busts_at_two_tables_in_one_round_are_simultaneous() -> None:
    # Seed 7: three players out in one round at two tables (one at table 1, two at table 2).
    rounds = Rounds()
    run = Simulation(
        load_tournament_structure("mtt_freezeout"),
        60,
        7,
        options=Options(absent_percent=30),
        observe=rounds,
    )
    run.play()
    places = {p.entry: p for p in run.t.places()}
    together = [r for r in rounds.busts.values() if len(r) > 1]
    assert together
    for by_table in together:
        out = [entry for entries in by_table.values() for entry in entries]
        assert len({rounds.out[e][0] for e in out}) == 1  # one group: out at the same time
        ranked = sorted(out, key=lambda e: places[e].place)
        chips = [rounds.out[e][1] for e in ranked]
        assert chips == sorted(chips, reverse=True)  # more chips at the start: the better place
        for a, b in pairwise(ranked):
            tied = rounds.out[a][1] == rounds.out[b][1]
            assert tied == (places[a].tie is not None and places[a].tie == places[b].tie)
