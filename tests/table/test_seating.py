"""Seats, buy-ins and table stakes: R-SEAT-1, R-STAKE-1, R-STAKE-2, R-STAKE-3."""

import pytest

from pokerroom.engine import Action, ActionKind
from pokerroom.table import SeatStatus, TableError
from pokerroom.table.events import HandStarting, SeatLeft, SeatOffered
from tests.helpers.tables import BB, finish_hand, make_table, play, posts


def test_R_SEAT_1_seats_exist_and_one_seat_per_player() -> None:
    table = make_table(seats=6)
    table.sit("ann", 1, 40 * BB)
    with pytest.raises(TableError, match="seat 7 does not exist"):
        table.sit("bob", 7, 40 * BB)
    with pytest.raises(TableError, match="seat 1 is taken"):
        table.sit("bob", 1, 40 * BB)
    with pytest.raises(TableError, match="'ann' already has a seat"):
        table.sit("ann", 2, 40 * BB)


def test_R_SEAT_1_min_players_to_deal() -> None:
    casino = make_table("casino", seats=10, players={1: 100 * BB, 2: 100 * BB, 3: 100 * BB})
    assert not casino.can_start() and casino.start_hand(0.0) == []  # 004: four or more
    casino.sit("p4", 4, 100 * BB)
    assert play(casino) is not None
    online = make_table(players={1: 40 * BB, 2: 40 * BB})
    assert play(online) is not None  # two are enough online


def test_R_STAKE_2_buy_in_between_minimum_and_maximum() -> None:
    table = make_table()  # titan: 20 to 100 big blinds
    with pytest.raises(TableError, match="the minimum is 4000"):
        table.sit("ann", 1, 19 * BB)
    with pytest.raises(TableError, match="the maximum is 20000"):
        table.sit("ann", 1, 101 * BB)
    casino = make_table("casino", seats=10)
    with pytest.raises(TableError, match="the minimum is 10000"):
        casino.sit("ann", 1, 49 * BB)  # 004: 50 big blinds


def test_R_STAKE_2_a_busted_player_rebuys_the_minimum_or_loses_the_seat() -> None:
    table = make_table(players={1: 20 * BB, 2: 100 * BB, 3: 100 * BB})
    table.start_hand(0.0)
    while table.hand is not None:  # seat 1 shoves, seat 2 calls, seat 3 folds
        seat = table.actor_seat()
        player = table.seats[seat].player
        legal = table.hand.legal_actions()
        if seat == 1:
            table.act(player, Action(ActionKind.BET_OR_RAISE, legal.max_raise_to), 0.0)
        elif seat == 2:
            table.act(player, Action(ActionKind.CHECK_OR_CALL), 0.0)
        else:
            table.act(
                player,
                Action(ActionKind.FOLD if not legal.can_check else ActionKind.CHECK_OR_CALL),
                0.0,
            )
    busted = [s for s in table.seats.values() if s.stack == 0]
    assert [s.number for s in busted] == [1]  # the table's seed makes the shove lose
    seat = busted[0]
    assert seat.status is SeatStatus.BUSTED
    with pytest.raises(TableError, match="minimum is 4000"):
        table.add_chips(seat.player, 10 * BB)
    # The seat is kept for the rebuy window, and no hand is dealt to it meanwhile ...
    events = table.start_hand(1.0)
    assert not [e for e in events if isinstance(e, SeatLeft)]
    assert seat.number in table.seats and seat.number not in table.hand_seats
    finish_hand(table)
    # ... then, without a rebuy, it is lost.
    later = 1.0 + table.house.rebuy_seconds
    left = [e for e in table.start_hand(later) if isinstance(e, SeatLeft)]
    assert [(e.seat, e.reason) for e in left] == [(seat.number, "busted")]


def test_R_STAKE_2_rebuy_keeps_the_seat() -> None:
    table = make_table(players={1: 20 * BB, 2: 100 * BB})
    table.seats[1].stack = 0
    table.seats[1].status = SeatStatus.BUSTED
    table.add_chips("p1", 30 * BB)
    assert table.seats[1].status is SeatStatus.WAITING and table.seats[1].stack == 30 * BB


def test_R_STAKE_1_chips_only_between_hands() -> None:
    table = make_table(players={1: 40 * BB, 2: 40 * BB, 3: 40 * BB})
    table.start_hand(0.0)
    with pytest.raises(TableError, match="cannot add chips during a hand"):
        table.add_chips("p1", 10 * BB)
    finish_hand(table)
    table.add_chips("p1", 10 * BB)
    with pytest.raises(TableError, match="maximum is 20000"):
        table.add_chips("p1", 60 * BB)


def test_R_STAKE_3_a_short_stack_is_dealt_in_all_in_not_forced_out() -> None:
    table = make_table(players={1: 40 * BB, 2: 40 * BB, 3: 40 * BB})
    play(table)
    short = table.seats[3]  # last hand's big blind posts the small blind next
    short.stack = 30
    events = table.start_hand(1.0)
    assert (3, "small_blind", 30) in posts(events)  # R-BLIND-7: all it has
    assert table.hand is not None and 3 in table.hand_seats


def test_leaving_between_hands_returns_the_stack_and_offers_the_seat() -> None:
    table = make_table(seats=2, players={1: 40 * BB, 2: 40 * BB})
    table.join_waiting_list("carl", 0.0)
    events = table.leave("p2", 0.0)
    assert [(e.seat, e.stack, e.reason) for e in events if isinstance(e, SeatLeft)] == [
        (2, 40 * BB, "left")
    ]
    offered = table.offer_seats(0.0)
    assert [(e.seat, e.player) for e in offered if isinstance(e, SeatOffered)] == [(2, "carl")]
    table.sit("carl", 2, 40 * BB)
    assert table.waiting.players == []


def test_leaving_mid_hand_folds_when_the_turn_comes_and_stands_after() -> None:
    table = make_table(players={1: 40 * BB, 2: 40 * BB, 3: 40 * BB})
    start = table.start_hand(0.0)
    assert start
    not_to_act = next(n for n in table.hand_seats if n != table.actor_seat())
    table.leave(f"p{not_to_act}", 0.0)
    assert not_to_act in table.seats  # still seated until the hand ends
    finish_hand(table)
    assert not_to_act not in table.seats


def test_R_SEAT_1_the_casino_never_deals_fewer_than_four() -> None:
    table = make_table("casino", seats=10, players=dict.fromkeys((1, 2, 3, 4), 100 * BB))
    table.start_hand(0.0)
    finish_hand(table)
    table.leave("p1", 1.0)
    table.sit("p5", 5, 100 * BB)  # four are ready, but the newcomer would wait for the blind
    events = table.start_hand(2.0)
    started = next(e for e in events if isinstance(e, HandStarting))
    # Not three dealt with the newcomer waiting: the table starts afresh with all four.
    assert sorted(started.seats) == [2, 3, 4, 5] and started.fresh
