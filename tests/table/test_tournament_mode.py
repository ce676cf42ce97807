"""The table hooks a tournament needs: entrants seated with their chips and dealt in
at once, stakes that change between hands (TDA 23), removal between hands, and nobody ever
sat out by the room (TDA 71)."""

from __future__ import annotations

import pytest

from pokerroom.engine import Action, ActionKind
from pokerroom.engine.events import ForcedBet
from pokerroom.rng import SeededRandomSource
from pokerroom.rules import load_preset
from pokerroom.rules.game import Stakes, Structure, Variant
from pokerroom.table import Table
from pokerroom.table.errors import TableError
from pokerroom.table.events import HandStarting, SeatLeft
from tests.helpers.tables import finish_hand, posts


def tournament_table(stacks: dict[int, int], seats: int = 9) -> Table:
    house = load_preset("titan").with_options(cash_table=False, rake=None)
    spec = house.game(Variant.HOLDEM, Structure.NO_LIMIT, 20, small_blind=10)
    table = Table(spec=spec, house=house, seats=seats, rng=SeededRandomSource(3), tournament=True)
    for seat, stack in stacks.items():
        table.seat_entrant(f"p{seat}", seat, stack)
    return table


def started(events: list[object]) -> HandStarting:
    return next(e for e in events if isinstance(e, HandStarting))


def test_entrants_are_dealt_in_at_once_without_a_post() -> None:
    table = tournament_table({1: 1500, 4: 1500, 7: 1500})
    events = table.start_hand(0.0)
    assert started(events).seats and len(started(events).seats) == 3
    assert sorted(a for _, _, a in posts(events)) == [10, 20]
    finish_hand(table)
    # A player moved in between hands at the seat after the last big blind: dealt in at
    # once and the big blind next (TDA 11A: the worst position, never the small blind).
    last_big = table.previous_big
    assert last_big is not None
    seat = last_big % 9 + 1
    table.seat_entrant("mover", seat, 2000)
    events = table.start_hand(1.0)
    hand = started(events)
    assert seat in hand.seats and hand.big_blind_seat == seat
    assert (seat, "big_blind", 20) in posts(events)
    assert hand.small_blind_seat == last_big


def test_TDA_8A_10A_an_entrant_seated_between_the_button_and_the_small_blind_waits_a_hand() -> None:
    table = tournament_table({1: 1500, 4: 1500, 7: 1500})
    table.start_hand(0.0)
    finish_hand(table)
    button, small = table.previous_small, table.previous_big  # the next hand's button and SB
    assert button is not None and small is not None
    seat = button % 9 + 1  # the open seat right after the next button, before its SB
    assert seat not in table.seats and seat != small
    table.seat_entrant("late", seat, 2000)
    events = table.start_hand(1.0)
    hand = started(events)
    assert (hand.button_seat, hand.small_blind_seat) == (button, small)
    assert seat not in hand.seats and len(hand.seats) == 3  # not dealt: no free hand
    table.cancel_hand("fault")  # R-DECK-5: the replay deals the same players
    again = Table.from_json(table.to_json())
    assert seat not in started(again.start_hand(2.0)).seats
    finish_hand(again)
    hand = started(again.start_hand(3.0))
    assert seat in hand.seats and hand.button_seat == small  # the button passed: dealt in
    assert not again.seats[seat].arrived


def test_cash_tables_take_buy_ins_not_entrants() -> None:
    house = load_preset("titan")
    table = Table(spec=house.game(Variant.HOLDEM, Structure.NO_LIMIT, 200), house=house, seats=6)
    with pytest.raises(TableError, match="only a tournament table seats entrants"):
        table.seat_entrant("p1", 1, 1500)
    t = tournament_table({1: 100})
    with pytest.raises(TableError, match="seat 1 is taken"):
        t.seat_entrant("p2", 1, 100)
    with pytest.raises(
        TableError, match="an entrant's chips must be a positive whole number of chips"
    ):
        t.seat_entrant("p2", 2, 0)


def test_a_tournament_rebuy_adds_chips_with_no_cash_buy_in_limits() -> None:
    table = tournament_table({1: 10, 2: 1000})
    table.add_chips("p1", 50_000)  # far over a cash table's maximum buy-in
    assert table.seats[1].stack == 50_010
    with pytest.raises(TableError, match="a tournament rebuy must be a positive whole number"):
        table.add_chips("p1", 0)


def test_TDA23_new_stakes_apply_from_the_next_hand_only() -> None:
    table = tournament_table({1: 5000, 2: 5000, 3: 5000})
    table.start_hand(0.0)
    level = Stakes(small_blind=50, big_blind=100, big_blind_ante=100)
    with pytest.raises(TableError, match="between hands"):
        table.set_stakes(level)
    finish_hand(table)
    table.set_stakes(level)
    events = table.start_hand(1.0)
    hand = started(events)
    posted = {(s, w): a for s, w, a in posts(events)}
    assert posted[(hand.small_blind_seat, "small_blind")] == 50
    assert posted[(hand.big_blind_seat, "big_blind")] == 100
    assert posted[(hand.big_blind_seat, "big_blind_ante")] == 100  # the big blind's ante
    assert sum(posted.values()) == 250


@pytest.mark.parametrize(("stack", "big", "ante"), [(5000, 100, 100), (150, 100, 50), (80, 80, 0)])
def test_TDA_RP11_the_big_blind_is_taken_before_the_big_blind_ante(
    stack: int, big: int, ante: int
) -> None:
    table = tournament_table({1: 5000, 2: 5000, 3: 5000})
    table.start_hand(0.0)
    finish_hand(table, policy="fold")
    table.set_stakes(Stakes(small_blind=50, big_blind=100, big_blind_ante=100))
    assert table.previous_big is not None
    seat = table.previous_big % 3 + 1  # seats 1..3 are all taken: the next big blind
    table.seats[seat].stack = stack
    events = table.start_hand(1.0)
    assert started(events).big_blind_seat == seat
    posted = {w: a for s, w, a in posts(events) if s == seat}
    assert posted.get("big_blind") == big and posted.get("big_blind_ante", 0) == ante


def test_remove_only_between_hands_and_the_chips_leave_with_the_player() -> None:
    table = tournament_table({1: 1000, 2: 1000, 3: 1000})
    table.start_hand(0.0)
    with pytest.raises(TableError, match="in the hand in progress"):
        table.remove("p1", "moved")
    finish_hand(table)
    stack = table.seats[1].stack
    before = table.chips_on_table()
    events = table.remove("p1", "moved")
    assert [(e.player, e.stack, e.reason) for e in events if isinstance(e, SeatLeft)] == [
        ("p1", stack, "moved")
    ]
    assert table.chips_on_table() == before - stack


def test_TDA71_an_absent_player_is_dealt_in_and_blinded_off_never_sat_out() -> None:
    table = tournament_table({1: 300, 2: 3000, 3: 3000})
    with pytest.raises(TableError, match="cannot sit out of a tournament"):
        table.sit_out("p1")
    table.set_options("p1", auto_post=False)  # refusing to post does not sit them out
    for hand in range(60):
        events = table.start_hand(float(hand))
        assert 1 in started(events).seats  # dealt in every hand
        while table.hand is not None:
            seat = table.actor_seat()
            legal = table.hand.legal_actions()
            assert seat is not None and legal is not None
            absent_in = not table.hand.folded[table.hand_seats.index(1)]
            if seat == 1:
                action = Action(ActionKind.TIMEOUT)  # checks when it can, else folds
            elif absent_in and legal.min_raise_to is not None:
                action = Action(ActionKind.BET_OR_RAISE, legal.min_raise_to)
            else:
                action = Action(ActionKind.CHECK_OR_CALL)
            table.act(f"p{seat}", action, float(hand))
        if table.seats[1].stack == 0:
            break
    assert table.seats[1].stack == 0  # blinded off: every hand dealt, every time out folded
    assert str(table.seats[1].status) == "busted"


def test_TDA34B_heads_up_nobody_posts_the_big_blind_twice() -> None:
    for leaver in ("small", "big", "button"):
        table = tournament_table({2: 1000, 5: 1000, 8: 1000})
        first = started(table.start_hand(0.0))
        finish_hand(table, policy="fold")
        seat = {
            "small": first.small_blind_seat,
            "big": first.big_blind_seat,
            "button": first.button_seat,
        }[leaver]
        table.remove(f"p{seat}", "busted")
        events = table.start_hand(1.0)
        heads_up = started(events)
        assert heads_up.big_blind_seat != first.big_blind_seat, leaver
        assert heads_up.small_blind_seat == heads_up.button_seat  # R-BLIND-5
        assert all(
            e.seat != first.big_blind_seat or e.what != "big_blind"
            for e in events
            if isinstance(e, ForcedBet)
        )


def test_snapshot_keeps_the_tournament_mode() -> None:
    table = tournament_table({1: 1000, 2: 1000})
    table.set_stakes(Stakes(small_blind=25, big_blind=50, ante=5))
    again = Table.from_json(table.to_json())
    assert again.tournament and again.spec.stakes.ante == 5
    with pytest.raises(TableError, match="cannot sit out of a tournament"):
        again.sit_out("p1")
