"""A tournament written to JSON and read back mid-event, its hands in progress cancelled
(R-DECK-5): it resumes where it was, and finishes with every chip and place accounted for
("never abort a running tournament because of a restart")."""

from __future__ import annotations

from pokerroom.rng import SeededRandomSource
from pokerroom.rules.tournament import load_tournament_structure
from pokerroom.tournament.simulate import Options, Simulation, result
from pokerroom.tournament.snapshot import tournament_from_json, tournament_to_json
from tests.helpers.tournament_invariants import Invariants, check_result


def test_a_restart_mid_event_rolls_hands_back_and_the_event_goes_on() -> None:
    watch = Invariants()
    options = Options(late_entries=10, rebuy_percent=50, absent_percent=10)
    run = Simulation(load_tournament_structure("mtt_rebuy"), 60, 7, options=options, observe=watch)
    run.play(hands=40)
    t = run.t
    assert not t.finished and any(table.hand is not None for table in t.tables.values())
    seats = {e.id: (e.table, e.out) for e in t.entries.values()}
    t.requests = {"1": ["click-7", "rebuy:1"]}  # (the room's: a retry answered the same)
    text = tournament_to_json(t)
    again = tournament_from_json(text, rng=SeededRandomSource("after the crash"))
    assert tournament_to_json(again) == text  # everything was written, and read back
    assert again.requests == t.requests
    cancelled = again.cancel_hands()
    assert cancelled  # the hands in progress went back to their start
    assert all(table.hand is None for table in again.tables.values())
    assert again.chips_in_play() == again.chips_issued == t.chips_issued
    assert {e.id: (e.table, e.out) for e in again.entries.values()} == seats
    assert again.clock.start == t.clock.start and again.level_shown == t.level_shown
    watch.open.clear()  # the cancelled hands are over
    run.resume(again)
    run.play()
    assert not watch.problems, watch.problems[:5]
    check_result(result(again))
