"""The tournament coordinator, rule by rule (Poker TDA rules 2024)."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from typing import Any

import pytest

from pokerroom.engine import Action, ActionKind
from pokerroom.rng import SeededRandomSource
from pokerroom.rules import load_preset
from pokerroom.rules.house import STANDARD
from pokerroom.rules.tournament import (
    TournamentStructure,
    load_tournament_structure,
    parse_tournament_structure,
)
from pokerroom.table.events import HandStarting, TimerExpired
from pokerroom.tournament import Tournament, TournamentError
from pokerroom.tournament.balancing import balance
from pokerroom.tournament.events import (
    Eliminated,
    HandDealt,
    HandDone,
    LevelStarted,
    Moved,
    Rebought,
    Seated,
    TableBroken,
    Unregistered,
)
from pokerroom.tournament.seats import next_big_blind, worst_seat
from pokerroom.tournament.simulate import random_action
from pokerroom.tournament.snapshot import tournament_from_json, tournament_to_json
from tests.helpers.coordinator_hands import all_in_hand, fold_or_check, to_the_end
from tests.helpers.tables import posts


def tournament(name: str = "mtt_freezeout", entrants: int = 18, seed: int = 1) -> Tournament:
    t = Tournament(
        structure=load_tournament_structure(name), house=STANDARD, rng=SeededRandomSource(seed)
    )
    for k in range(entrants):
        t.register(f"p{k + 1}", 0.0)
    return t


def fold_round(t: Tournament, number: int, now: float = 0.0) -> list[Any]:
    """Deal a hand at table ``number``; everyone folds to a bet: the big blind wins it."""
    return to_the_end(t, number, fold_or_check, now)


def eliminate(t: Tournament, entry: str) -> None:
    """Stands for a bust at the entry's table between hands (no deck is rigged for it)."""
    table = t.table_of(entry)
    table.remove(entry, "busted")
    e = t.entries[entry]
    e.out, e.table = True, None
    t.left -= 1


def test_TDA7_random_seating_within_one_player() -> None:
    t = tournament(entrants=20)
    events = t.start(0.0)
    seated = [e for e in events if isinstance(e, Seated)]
    assert sorted(e.entry for e in seated) == sorted(t.entries)
    assert {e.reason for e in seated} == {"draw"}
    assert sorted(len(table.seats) for table in t.tables.values()) == [6, 7, 7]
    other = tournament(entrants=20, seed=2)
    again = [e for e in other.start(0.0) if isinstance(e, Seated)]
    assert {(e.entry, e.table, e.seat) for e in seated} != {
        (e.entry, e.table, e.seat) for e in again
    }


def test_TDA23_a_new_level_applies_from_the_next_hand() -> None:
    t = tournament("sng9", 9)
    t.start(0.0)
    t.start_hand(1, 0.0)
    table = t.tables[1]
    assert table.spec.stakes.big_blind == 20
    late = 10 * 60 + 5.0  # level 1 (10 minutes) is over during the hand
    while table.hand is not None:
        seat = table.actor_seat()
        assert seat is not None
        t.act(table.seats[seat].player, Action(ActionKind.FOLD), late)
        assert table.hand is None or table.hand.big_blind == 20  # the hand keeps its blinds
    events = t.start_hand(1, late)
    assert [e for e in events if isinstance(e, LevelStarted)] == [LevelStarted(2, 15, 30, 0, 0)]
    assert table.hand is not None and table.hand.big_blind == 30


def test_TDA11A_the_next_big_blind_moves_to_the_worst_position() -> None:
    t = tournament(entrants=18)  # two tables of nine
    t.start(0.0)
    fold_round(t, 1)
    fold_round(t, 2)
    for entry in sorted(s.player for s in t.tables[1].seats.values())[:2]:
        eliminate(t, entry)  # table 1 is now two players short: 7 against 9
    mover, seat = next_big_blind(t.tables[2]), worst_seat(t.tables[1])
    small_blind_seat = t.tables[1].previous_big
    events = balance(t)
    moves = [e for e in events if isinstance(e, Moved)]
    assert [(m.entry, m.from_table, m.to_table, m.seat) for m in moves] == [(mover, 2, 1, seat)]
    assert seat != small_blind_seat  # never into the small blind
    assert sorted(len(table.seats) for table in t.tables.values()) == [8, 8]
    # The worst position: the open seat that gets the big blind soonest (at once when no
    # player sits between last hand's big blind and it).
    table = t.tables[1]
    assert small_blind_seat is not None and mover is not None
    ahead = [
        table.seats[(small_blind_seat + k - 1) % 9 + 1].player
        for k in range(1, (seat - small_blind_seat) % 9)
    ]
    bigs = [
        next(e for e in fold_round(t, 1) if isinstance(e, HandDealt)).big_blind
        for _ in range(len(ahead) + 1)
    ]
    assert bigs == [*ahead, mover]


def test_TDA11A_moves_wait_for_the_hand_in_progress_at_either_table() -> None:
    t = tournament(entrants=18)
    t.start(0.0)
    fold_round(t, 1)
    t.start_hand(2, 0.0)  # table 2 is in a hand
    for entry in sorted(s.player for s in t.tables[1].seats.values())[:2]:
        eliminate(t, entry)
    assert not [e for e in balance(t) if isinstance(e, Moved)]
    assert t.held == {1} and not t.can_start(1, 0.0)  # the short table waits for its player
    table = t.tables[2]
    moved: list[Any] = []
    while table.hand is not None:
        seat = table.actor_seat()
        assert seat is not None
        moved += t.act(table.seats[seat].player, Action(ActionKind.FOLD), 0.0)
    assert [e.to_table for e in moved if isinstance(e, Moved)] == [1]
    assert t.held == set() and t.can_start(1, 0.0)


def test_TDA10B_tables_break_highest_number_first_into_a_random_redraw() -> None:
    t = tournament(entrants=27)  # three tables of nine
    t.start(0.0)
    for number in (1, 2, 3):
        fold_round(t, number)
        for entry in sorted(s.player for s in t.tables[number].seats.values())[:3]:
            eliminate(t, entry)
    events = balance(t)
    moves = [e for e in events if isinstance(e, Moved)]
    assert {m.from_table for m in moves} == {3} and {m.reason for m in moves} == {"break"}
    assert TableBroken(3, None) in events
    assert sorted(len(table.seats) for table in t.tables.values()) == [9, 9]


def test_the_final_table_forms_when_the_players_fit_one_table() -> None:
    t = tournament(entrants=18)
    t.start(0.0)
    for number in (1, 2):
        fold_round(t, number)
    for entry in sorted(t.entries)[:9]:
        eliminate(t, entry)
    events = balance(t)
    broken = [e for e in events if isinstance(e, TableBroken)]
    assert broken == [TableBroken(2, 1)]
    assert list(t.tables) == [1] and len(t.tables[1].seats) == 9


def test_registration_errors_are_clear_and_change_nothing() -> None:
    sng = tournament("sng9", 9)
    with pytest.raises(TournamentError, match="sng9 is full \\(9 entries\\)"):
        sng.register("late", 0.0)
    with pytest.raises(TournamentError, match="'p1' is already in"):
        sng.register("p1", 0.0)
    lonely = tournament("sng9", 1)
    with pytest.raises(TournamentError, match="needs 2 entries to start, has 1"):
        lonely.start(0.0)
    mtt = tournament(entrants=18)
    mtt.start(0.0)
    eliminate(mtt, "p1")
    with pytest.raises(TournamentError, match="'p1' has used 0 of 0 re-entries"):
        mtt.register("p1", 60.0)
    assert len(mtt.entries) == 18
    mtt.register("newcomer", 60.0)  # late registration: a full stack and a seat
    assert mtt.table_of("newcomer").seat_of("newcomer").stack == 10_000
    with pytest.raises(TournamentError, match="registration is closed"):
        mtt.register("too-late", 4 * 15 * 60 + 1.0)


def test_actions_for_unknown_or_eliminated_entries_are_refused() -> None:
    t = tournament("sng9", 3)
    t.start(0.0)
    t.start_hand(1, 0.0)
    with pytest.raises(TournamentError, match="sng9 has no entry 'ghost'"):
        t.act("ghost", Action(ActionKind.FOLD), 0.0)
    table = t.tables[1]
    seat = table.actor_seat()
    assert seat is not None
    others = sorted(s.player for s in table.seats.values() if s.number != seat)
    with pytest.raises(TournamentError, match="cannot fold: it is seat"):
        t.act(others[0], Action(ActionKind.FOLD), 0.0)  # not their turn: nothing changes
    assert table.actor_seat() == seat
    with pytest.raises(TournamentError, match="sng9 table 1 cannot deal now"):
        t.start_hand(1, 0.0)


def test_unregister_before_the_start_only() -> None:
    t = tournament("sng9", 3)
    assert t.unregister("p2") == [Unregistered("p2", "p2")]
    assert sorted(t.entries) == ["p1", "p3"] and t.chips_issued == 2 * 1500
    assert t.prize_pool == 2 * 1000 and t.fees == 2 * 100
    t.register("p2", 0.0)  # may register again: it is not a re-entry
    with pytest.raises(TournamentError, match="'nobody' is not registered"):
        t.unregister("nobody")
    t.start(0.0)
    with pytest.raises(TournamentError, match="has started: 'p1' cannot unregister"):
        t.unregister("p1")
    assert len(t.entries) == 3


def test_re_entries_are_new_entries_up_to_the_limit() -> None:
    t = tournament("mtt_reentry", 18)
    t.start(0.0)
    for entry in ("p1", "p1#2", "p1#3"):
        eliminate(t, entry)
        if entry != "p1#3":
            t.register("p1", 30.0)
    assert {"p1", "p1#2", "p1#3"} <= set(t.entries)
    assert [(t.entries[e].player, t.entries[e].number) for e in ("p1", "p1#2", "p1#3")] == [
        ("p1", 1),
        ("p1", 2),
        ("p1", 3),
    ]
    with pytest.raises(TournamentError, match="'p1' has used 2 of 2 re-entries"):
        t.register("p1", 30.0)


def test_an_entry_stored_before_entries_kept_their_number_is_read_with_it() -> None:
    t = tournament("mtt_reentry", 18)
    t.start(0.0)
    eliminate(t, "p1")
    t.register("p1", 30.0)
    stored = json.loads(tournament_to_json(t))
    for raw in stored["entries"]:
        del raw["number"]
    again = tournament_from_json(json.dumps(stored), rng=SeededRandomSource(1))
    assert (again.entries["p1"].number, again.entries["p1#2"].number) == (1, 2)
    assert again.entries["p1#2"].player == "p1"


def test_a_late_entry_the_room_did_not_store_is_taken_back_whole() -> None:
    t = tournament("mtt_reentry", 18)
    t.start(0.0)
    before = json.loads(tournament_to_json(t))
    eliminate(t, "p1")
    before_again, in_play = json.loads(tournament_to_json(t)), t.chips_in_play()
    t.register("p1", 30.0)  # a re-entry: p1#2, seated with a full stack
    t.register("p99", 30.0)  # a late entry
    t.withdraw("p99")
    t.withdraw("p1#2")
    after = json.loads(tournament_to_json(t))
    for key in ("current", "used", "left"):
        assert after[key] == before_again[key], key
    assert after["counts"][:4] == before_again["counts"][:4]  # (moves made meanwhile stay)
    assert [e["id"] for e in after["entries"]] == [e["id"] for e in before_again["entries"]]
    assert "p99" not in t._current and t.prize_pool == 18 * t.structure.buy_in
    assert t.chips_in_play() == in_play and before["used"]["p1"] == 1
    t.register("p1", 30.0)  # the same re-entry again: the same id
    assert "p1#2" in t.entries
    for _ in range(2):  # dealt in (at once, or after the button passed: TDA 10A)
        if t.table_of("p1#2").seat_of("p1#2").arrived:
            fold_round(t, t.entries["p1#2"].table or 0, 30.0)
    assert not t.table_of("p1#2").seat_of("p1#2").arrived  # it has played: it stays
    with pytest.raises(TournamentError, match="has played in"):
        t.withdraw("p1#2")
    with pytest.raises(TournamentError, match="cannot be taken back"):
        t.withdraw("p1")  # out already
    assert "p1#2" in t.entries


def test_rebuys_at_or_below_the_starting_stack_and_one_add_on_in_its_break() -> None:
    t = tournament("mtt_rebuy", 18)
    t.start(0.0)
    assert t.can_rebuy("p1", 0.0)  # at the starting stack
    t.rebuy("p1", 0.0)
    assert not t.can_rebuy("p1", 0.0)  # now over it
    with pytest.raises(TournamentError, match="entry p1 cannot rebuy now in mtt_rebuy"):
        t.rebuy("p1", 0.0)
    assert t.can_rebuy("p2", 4 * 15 * 60 + 1.0)  # in the break after level 4: still
    assert not t.can_rebuy("p2", 4 * 15 * 60 + 5 * 60 + 1.0)  # level 5: the period is over
    assert not t.can_addon("p2", 0.0)
    in_break = 4 * 15 * 60 + 60.0  # the break after level 4
    assert t.clock.on_break(in_break) and t.can_addon("p2", in_break)
    t.addon("p2", in_break)
    assert not t.can_addon("p2", in_break)
    assert t.prize_pool == 18 * 10_000 + 10_000 + 10_000
    assert t.chips_issued == 18 * 10_000 + 10_000 + 15_000 == t.chips_in_play()


def test_no_rebuy_or_add_on_once_the_event_is_over() -> None:
    """Two entrants play out a rebuy event before its add-on's break: its winner is not out
    and still seated, but the pool is paid, so the add-on (and a rebuy) is refused."""
    t = tournament("mtt_rebuy", 2)
    t.start(0.0)
    rng, now = SeededRandomSource(3), 0.0
    while not t.finished:
        table = t.tables[1]
        for busted in list(t.offers):  # the rebuy a bust is offered: declined
            t.decline_rebuy(busted, now)
        if t.finished:
            break
        if table.hand is None:
            t.start_hand(1, now)
            continue
        seat = table.actor_seat()
        assert seat is not None
        t.act(table.seats[seat].player, random_action(table.hand, rng), now)
        now += 1.0
    in_break = 4 * 15 * 60 + 60.0
    assert t.winner is not None and now < in_break and t.clock.on_break(in_break)
    assert not t.can_addon(t.winner, in_break) and not t.can_rebuy(t.winner, now)
    with pytest.raises(TournamentError, match="cannot take the add-on now"):
        t.addon(t.winner, in_break)


def raises_heads_up(lifts: str) -> int:
    """Raise at every turn of a fixed-limit heads-up tournament hand; how many went in."""
    text = (
        resources.files("pokerroom.rules")
        .joinpath("data", "tournaments", "sng_heads_up.toml")
        .read_text(encoding="utf-8")
    )
    data = tomllib.loads(text)
    data["game"] = "holdem/fixed_limit"
    data["limit_cap_lifts"] = lifts
    return raises_heads_up_in(parse_tournament_structure(data, "limit_heads_up"))


def raises_heads_up_in(structure: TournamentStructure) -> int:
    house = load_preset("fortune").with_options(heads_up_uncapped=True)  # a cash-table rule
    t = Tournament(structure=structure, house=house, rng=SeededRandomSource(1))
    t.register("a", 0.0)
    t.register("b", 0.0)
    t.start(0.0)
    t.start_hand(1, 0.0)
    table = t.tables[1]
    raises = 0
    while table.hand is not None and (legal := table.hand.legal_actions()) is not None:
        if legal.min_raise_to is None:
            break
        seat = table.actor_seat()
        assert seat is not None
        t.act(table.seats[seat].player, Action(ActionKind.BET_OR_RAISE, legal.min_raise_to), 0.0)
        raises += 1
    return raises


def test_R_LIM_3_the_fixed_limit_cap_stays_heads_up_in_a_tournament() -> None:
    assert raises_heads_up("never") == 3  # the big blind's bet and three raises: capped


@pytest.mark.parametrize("name", ["sng6_limit", "mtt_limit"])
def test_R_LIM_3_the_shipped_fixed_limit_events_keep_the_cap_heads_up(name: str) -> None:
    assert raises_heads_up_in(load_tournament_structure(name)) == 3


def test_TDA48_the_cap_lifts_when_the_event_is_down_to_two_if_the_structure_says_so() -> None:
    assert raises_heads_up("heads_up") > 3  # raised until a player was all in


def test_TDA71_a_timed_out_absent_player_checks_or_folds_and_stays_dealt_in() -> None:
    t = tournament("sng6", 3)
    t.start(0.0)
    now = 0.0
    absent = "p1"
    timeouts = 0
    for _ in range(6):
        dealt = next(e for e in t.start_hand(1, now) if isinstance(e, HandDealt))
        assert absent in dealt.entries  # dealt in every hand, never sat out
        table = t.tables[1]
        while table.hand is not None:
            seat = table.actor_seat()
            assert seat is not None
            player = table.seats[seat].player
            if player == absent:
                legal = table.hand.legal_actions()
                assert legal is not None
                position = table.hand_seats.index(seat)
                now += 120.0  # past the decision time and the time bank
                expired = [e for e in t.tick(now) if isinstance(e, TimerExpired)]
                assert [e.seat for e in expired] == [seat]
                hand = table.hand or table.last_hand
                assert hand is not None  # TDA 71: checks when it can, folds to a bet
                assert hand.folded[position] is not legal.can_check
                timeouts += 1
            else:
                legal = table.hand.legal_actions()
                assert legal is not None
                if legal.min_raise_to is None:
                    t.act(player, Action(ActionKind.CHECK_OR_CALL), now)
                else:
                    t.act(player, Action(ActionKind.BET_OR_RAISE, legal.min_raise_to), now)
        if t.finished:
            break
    assert timeouts >= 6 and t.chips_in_play() == t.chips_issued


def test_TDA_RP11_the_big_blind_ante_is_not_reduced_at_a_short_final_table() -> None:
    t = tournament("mtt_freezeout", 3)  # three left: one table, the final table
    t.start(0.0)
    now: float | None = 0.0
    while now is not None:  # the first level with a big-blind ante (not a break)
        level = t.structure.level(t.clock.level_index(now))
        if level.big_blind_ante and not t.clock.on_break(now):
            break
        now = t.clock.next_change(now)
    assert now is not None
    events = t.start_hand(1, now)
    start = next(e for e in events if isinstance(e, HandStarting))
    posted = {what: amount for seat, what, amount in posts(events) if seat == start.big_blind_seat}
    assert len(start.seats) == 3 and len(t.tables) == 1
    # The whole ante of a full table, though three are dealt in (a short big blind pays the
    # big blind first: tests/table/test_tournament_mode.py).
    assert posted == {"big_blind": level.big_blind, "big_blind_ante": level.big_blind_ante}


def play_out(t: Tournament, number: int, now: float = 0.0) -> list[Any]:
    """Everyone checks or folds at table ``number`` until its hand is over."""
    table, events = t.tables[number], []
    while table.hand is not None:
        seat = table.actor_seat()
        assert seat is not None
        events += t.act(table.seats[seat].player, fold_or_check(table.hand.legal_actions()), now)
    return events


def test_TDA11_a_table_two_short_of_the_fullest_waits_while_the_breaking_table_plays() -> None:
    t = tournament(entrants=20)  # tables of 7, 7 and 6
    t.start(0.0)
    assert [len(t.tables[n].seats) for n in (1, 2, 3)] == [7, 7, 6]
    t.start_hand(3, 0.0)  # table 3, due to break next, is in a hand
    for entry in sorted(s.player for s in t.tables[1].seats.values())[:3]:
        eliminate(t, entry)  # three out at table 1: 4, 7 and 6 players
    balance(t)
    assert not t.can_start(1, 0.0) and 1 not in t.startable(0.0)  # 4 against 7: it waits
    assert t.can_start(2, 0.0)
    moved = play_out(t, 3)  # table 3's hand ends: it breaks, its players redrawn
    assert TableBroken(3, None) in moved
    assert sorted(len(table.seats) for table in t.tables.values()) == [8, 9]
    assert t.can_start(1, 0.0)
    dealt = t.start_hand(1, 0.0) + t.start_hand(2, 0.0)
    assert len([e for e in dealt if isinstance(e, HandDealt)]) == 2
    assert t.max_table_gap == 1 and t.short_hands == 0  # measured at every deal


def test_TDA_hand_for_hand_ends_only_when_the_round_ends() -> None:
    t = tournament("mtt_turbo6", entrants=40, seed=3)  # 7 places paid
    t.start(0.0)
    for entry in sorted(t.entries, key=lambda e: int(e[1:]))[:32]:
        eliminate(t, entry)
    balance(t)
    t.close_registration()
    assert sorted(len(table.seats) for table in t.tables.values()) == [4, 4]
    assert t.hand_for_hand and t.paid_places() == 7  # 8 left: one off the money
    first, second = t.live_tables()
    t.start_hand(second, 0.0)  # both tables play the round's hand
    busted = [e for e in all_in_hand(t, first) if isinstance(e, HandDone) and e.busted]
    assert busted and t.left <= 7  # in the money, while the other table plays the round
    assert t.hand_for_hand and not t.can_start(first, 0.0)
    play_out(t, second)
    assert not t.hand_for_hand and t.can_start(first, 0.0)


def busted_rebuy_event(seed: int = 1) -> tuple[Tournament, list[str]]:
    """A rebuy event where rebuys are only for the busted (``at_or_below = 0``), its first
    all-in hand played at table 1 in level 1: who busted."""
    text = (
        resources.files("pokerroom.rules")
        .joinpath("data", "tournaments", "mtt_rebuy.toml")
        .read_text(encoding="utf-8")
    )
    data = tomllib.loads(text)
    data["rebuy"]["at_or_below"] = 0
    structure = parse_tournament_structure(data, "rebuy_when_busted")
    t = Tournament(structure=structure, house=STANDARD, rng=SeededRandomSource(seed))
    for k in range(18):
        t.register(f"p{k + 1}", 0.0)
    t.start(0.0)
    done = [e for e in all_in_hand(t, 1) if isinstance(e, HandDone)]
    return t, list(done[0].busted)


def test_TDA_a_bust_in_the_rebuy_period_is_offered_the_rebuy_for_the_decision_time() -> None:
    t, busted = busted_rebuy_event()
    assert busted
    decision = t.house.decision_seconds
    for entry in busted:
        assert not t.entries[entry].out and t.can_rebuy(entry, 1.0)
        assert t.offers[entry].until == decision
        assert t.table_of(entry).seat_of(entry).stack == 0  # the seat waits, dealt out
    assert t.left == 18
    first = busted[0]
    bought = t.rebuy(first, 2.0)
    assert [e for e in bought if isinstance(e, Rebought)] == [
        Rebought(first, 10_000, 10_000, False)
    ]
    assert first not in t.offers and t.table_of(first).seat_of(first).stack == 10_000
    assert t.chips_in_play() == t.chips_issued
    dealt = next(e for e in fold_round(t, 1, 2.0) if isinstance(e, HandDealt))
    assert first in dealt.entries and not set(busted[1:]) & set(dealt.entries)


def test_TDA_only_a_refused_or_lapsed_rebuy_offer_eliminates() -> None:
    t, busted = busted_rebuy_event()
    assert len(busted) >= 2, busted
    first, second = busted[:2]
    out = t.decline_rebuy(first, 5.0)
    assert [e.entry for e in out if isinstance(e, Eliminated)] == [first]
    assert t.entries[first].out and t.left == 17
    with pytest.raises(TournamentError, match=f"entry {first} has no rebuy offered"):
        t.decline_rebuy(first, 5.0)
    until = t.offers[second].until
    assert t.offer_deadline(1) == until and not t.can_start(1, until)  # settled first
    assert t.expire_offers(1, until - 1.0) == []
    lapsed = t.expire_offers(1, until)
    assert {e.entry for e in lapsed if isinstance(e, Eliminated)} == set(busted[1:])
    group = t.groups[-1]
    assert {b.entry for b in group} >= {first, second}  # out in the hand they busted in
