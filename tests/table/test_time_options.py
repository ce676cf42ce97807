"""Time (R-TIME-1, R-TIME-2, R-TIME-3), the players' options, and JSON restore."""

import pytest

from pokerroom.engine import Action, ActionKind, NotYourTurnError
from pokerroom.engine.events import ActionTaken, PlayerProtected
from pokerroom.table import PreAction, SeatStatus, Table, TableError
from pokerroom.table.events import (
    ConnectionChanged,
    HandFinished,
    SeatStatusChanged,
    TimeBankUsed,
    TimerExpired,
    TimerStarted,
    TimerWarning,
)
from tests.helpers.tables import BB, finish_hand, make_table, play

STACK = 40 * BB


def started_timer(events):
    return next(e for e in events if isinstance(e, TimerStarted))


def test_R_TIME_1_thirty_seconds_shown_as_ten_then_a_countdown() -> None:
    table = make_table("multipoker", players={1: STACK, 2: STACK, 3: STACK})
    timer = started_timer(table.start_hand(100.0))
    assert (timer.deadline, timer.warning_at) == (130.0, 110.0)
    assert table.tick(109.0) == []
    warning = table.tick(110.0)
    assert [(e.seat, e.seconds_left) for e in warning if isinstance(e, TimerWarning)] == [
        (timer.seat, 20.0)
    ]


def test_R_TIME_2_the_time_bank_first_then_the_house_time_out() -> None:
    table = make_table("titan", players={1: STACK, 2: STACK, 3: STACK})  # check/fold
    timer = started_timer(table.start_hand(0.0))
    used = table.tick(30.0)
    assert [e.seconds for e in used if isinstance(e, TimeBankUsed)] == [30.0]
    assert table.actor_seat() == timer.seat  # the bank bought more time
    expired = table.tick(60.0)
    assert [e.seat for e in expired if isinstance(e, TimerExpired)] == [timer.seat]
    folded = [e for e in expired if isinstance(e, ActionTaken) and e.timed_out]
    assert [(e.seat, e.action) for e in folded] == [(timer.seat, "fold")]  # facing the blind


def test_R_TIME_2_all_in_protection_at_multipoker() -> None:
    table = make_table("multipoker", players={1: STACK, 2: STACK, 3: STACK})
    table.start_hand(0.0)
    table.act(f"p{table.actor_seat()}", Action(ActionKind.CHECK_OR_CALL), 1.0)  # button calls
    small_blind = table.actor_seat()
    table.seats[small_blind].time_bank = 0.0
    events = table.tick(100.0)  # the small blind has chips in: protected, not folded
    assert [e.seat for e in events if isinstance(e, PlayerProtected)] == [small_blind]


def test_R_TIME_2_repeated_time_outs_sit_the_player_out() -> None:
    table = make_table("titan", players={1: STACK, 2: STACK, 3: STACK})
    for seat in table.seats.values():
        seat.time_bank = 0.0
    sleeper = None
    now = 0.0
    for _ in range(6):
        table.start_hand(now)
        while table.hand is not None:
            seat = table.actor_seat()
            if sleeper is None:
                sleeper = seat
            if seat == sleeper:
                now += 31.0
                table.tick(now)
            else:
                table.act(f"p{seat}", Action(ActionKind.CHECK_OR_CALL), now)
        if table.seats[sleeper].status is SeatStatus.SITTING_OUT:
            break
    assert table.seats[sleeper].status is SeatStatus.SITTING_OUT
    assert table.seats[sleeper].timeouts >= 2


def test_R_TIME_3_reconnecting_in_time_gives_twenty_more_seconds() -> None:
    table = make_table("multipoker", players={1: STACK, 2: STACK, 3: STACK})
    timer = started_timer(table.start_hand(0.0))
    player = f"p{timer.seat}"
    table.disconnect(player, 5.0)
    events = table.reconnect(player, 12.0)
    assert [(e.connected, e.extra_seconds) for e in events if isinstance(e, ConnectionChanged)] == [
        (True, 20.0)
    ]
    assert table.deadline == 50.0
    assert table.reconnect(player, 13.0)[0].extra_seconds == 0.0  # once per decision


def test_R_TIME_3_not_back_in_time_is_a_time_out() -> None:
    table = make_table("titan", players={1: STACK, 2: STACK, 3: STACK})
    timer = started_timer(table.start_hand(0.0))
    table.seats[timer.seat].time_bank = 0.0
    table.disconnect(f"p{timer.seat}", 1.0)
    events = table.tick(31.0)
    assert any(isinstance(e, TimerExpired) for e in events)
    # Titan's time-out is check/fold: facing the big blind, the hand is folded.
    timed_out = [(e.seat, e.action) for e in events if isinstance(e, ActionTaken) and e.timed_out]
    assert timed_out == [(timer.seat, "fold")]
    assert table.hand is not None and table.actor_seat() != timer.seat
    late = table.reconnect(f"p{timer.seat}", 40.0)
    assert late[0].extra_seconds == 0.0
    position = table.hand_seats.index(timer.seat)
    assert table.hand.folded[position]  # reconnecting does not take the fold back
    with pytest.raises(NotYourTurnError):
        table.act(f"p{timer.seat}", Action(ActionKind.CHECK_OR_CALL), 41.0)


def test_R_TIME_3_not_back_in_time_with_chips_in_is_protected() -> None:
    table = make_table("multipoker", players={1: STACK, 2: STACK, 3: STACK})  # protection
    table.start_hand(0.0)  # the button acts first; the small blind has chips in
    table.act("p1", Action(ActionKind.CHECK_OR_CALL), 1.0)
    seat = table.actor_seat()
    table.seats[seat].time_bank = 0.0
    table.disconnect(f"p{seat}", 2.0)
    events = table.tick(40.0)
    assert [e.seat for e in events if isinstance(e, PlayerProtected)] == [seat]
    assert table.reconnect(f"p{seat}", 45.0)[0].extra_seconds == 0.0
    position = table.hand_seats.index(seat)
    assert table.hand.protected[position] and not table.hand.folded[position]


def test_pre_actions_check_fold_and_call_any() -> None:
    table = make_table(players={1: STACK, 2: STACK, 3: STACK})
    table.start_hand(0.0)  # button 1 acts first, then small blind 2, then big blind 3
    table.set_options("p2", pre_action=PreAction.CALL_ANY)
    table.set_options("p3", pre_action=PreAction.CHECK_FOLD)
    events = table.act("p1", Action(ActionKind.BET_OR_RAISE, 3 * BB), 1.0)
    acted = [(e.seat, e.action) for e in events if isinstance(e, ActionTaken)]
    assert acted == [(1, "raise"), (2, "call"), (3, "fold")]


def test_sit_out_next_hand_and_leave_after_this_hand() -> None:
    table = make_table(players={1: STACK, 2: STACK, 3: STACK})
    table.start_hand(0.0)
    table.set_options("p2", sit_out_next=True)
    table.set_options("p3", leave_after=True)
    events = finish_hand(table)
    assert any(isinstance(e, SeatStatusChanged) and e.seat == 2 for e in events)
    assert table.seats[2].status is SeatStatus.SITTING_OUT and 3 not in table.seats


def test_auto_post_off_sits_out_instead_of_posting() -> None:
    table = make_table(players={1: STACK, 2: STACK, 3: STACK, 4: STACK})
    play(table)  # next hand: big blind 4
    table.set_options("p4", auto_post=False)
    events = table.start_hand(1.0)
    assert table.seats[4].status is SeatStatus.SITTING_OUT
    assert 4 not in table.hand_seats and events


def test_cancel_returns_every_chip_R_DECK_5() -> None:
    table = make_table(players={1: STACK, 2: STACK, 3: STACK})
    table.start_hand(0.0)
    table.act("p1", Action(ActionKind.BET_OR_RAISE, 5 * BB), 1.0)
    events = table.cancel_hand("server restart")
    finished = next(e for e in events if isinstance(e, HandFinished))
    assert finished.cancelled and all(s.stack == STACK for s in table.seats.values())


def test_actions_out_of_turn_are_refused_and_change_nothing() -> None:
    table = make_table(players={1: STACK, 2: STACK, 3: STACK})
    table.start_hand(0.0)
    before = table.to_json()
    with pytest.raises(Exception, match="it is seat 1's turn"):
        table.act("p2", Action(ActionKind.FOLD), 1.0)
    with pytest.raises(TableError, match="not seated"):
        table.act("zed", Action(ActionKind.FOLD), 1.0)
    assert table.to_json() == before


def test_json_restore_mid_hand_behaves_identically() -> None:
    table = make_table(players={1: STACK, 2: STACK, 3: STACK}, seed=9)
    table.start_hand(0.0)
    table.act("p1", Action(ActionKind.BET_OR_RAISE, 3 * BB), 1.0)
    restored = Table.from_json(table.to_json())
    assert restored.to_json() == table.to_json()
    a = table.act("p2", Action(ActionKind.CHECK_OR_CALL), 2.0) + finish_hand(table, 3.0)
    b = restored.act("p2", Action(ActionKind.CHECK_OR_CALL), 2.0) + finish_hand(restored, 3.0)
    assert a == b and table.to_json() == restored.to_json()
