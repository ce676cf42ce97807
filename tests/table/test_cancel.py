"""R-DECK-5 at the table: a cancelled hand is as if it had never been dealt."""

import copy
import json

from pokerroom.engine import Action, ActionKind
from pokerroom.engine.events import Event, ForcedBet
from pokerroom.table import Table
from pokerroom.table.events import BlindMissed, ButtonDrawn, HandStarting, TimeBankUsed
from tests.helpers.tables import BB, finish_hand, make_table, play

STACK = 40 * BB


def state(table: Table) -> dict[str, object]:
    """The table as JSON, but for the hand counter (a cancelled hand keeps its number) and the
    first player of a cancelled first hand (kept, so that it is not drawn for again)."""
    data = json.loads(table.to_json())
    del data["hand_number"], data["first_again"]
    return data


def deal_summary(events: list[Event]) -> tuple[object, ...]:
    """Who is dealt in, where the button and blinds are, who posts what, who misses what."""
    started = next(e for e in events if isinstance(e, HandStarting))
    return (
        started.button_seat,
        started.small_blind_seat,
        started.big_blind_seat,
        started.seats,
        [(e.seat, e.what, e.amount, e.dead) for e in events if isinstance(e, ForcedBet)],
        [(e.seat, e.blind) for e in events if isinstance(e, BlindMissed)],
    )


def cancel_and_compare(table: Table, now: float) -> tuple[object, ...]:
    """Deal a hand, act once, cancel it: the table is as before, and its next hand is the one
    a twin table that never dealt the cancelled hand deals. Returns the cancelled deal."""
    before = state(table)
    twin = Table.from_json(table.to_json(), rng=copy.deepcopy(table.rng))
    cancelled = deal_summary(table.start_hand(now))
    actor = table.actor_seat()
    assert actor is not None
    table.act(table.seats[actor].player, Action(ActionKind.CHECK_OR_CALL), now)
    table.cancel_hand("server fault")
    assert state(table) == before
    again = deal_summary(table.start_hand(now + 1))
    assert again == deal_summary(twin.start_hand(now + 1)) == cancelled
    finish_hand(table, now + 1)
    finish_hand(twin, now + 1)  # the cards differ (a new shuffle); the positions do not
    assert state(table)["previous"] == state(twin)["previous"]
    return cancelled


def test_R_DECK_5_a_cancel_gives_back_a_new_players_post_and_a_dead_small_blind() -> None:
    table = make_table(seats=9, players=dict.fromkeys(range(1, 6), STACK))
    assert play(table) is not None  # button 1, blinds 2 and 3
    table.sit_out("p3")  # due the small blind: it is dead, and p3 gets MS
    table.sit("p6", 6, STACK, post_now=True)  # left of the blinds: posts at once
    button, small, big, _, posted, missed = cancel_and_compare(table, 1.0)
    assert (button, small, big) == (2, None, 4)
    assert (6, "live_post", BB, False) in posted and missed == [(3, "small")]
    assert table.seats[3].missed_small  # marked once, by the hand dealt again
    # The button and the blinds move on from the replayed hand, not from the cancelled one.
    started = play(table, 3.0)
    assert started is not None and (started.button_seat, started.big_blind_seat) == (3, 5)


def test_R_DECK_5_a_cancel_gives_back_a_returning_players_ML_posts() -> None:
    table = make_table(players=dict.fromkeys(range(1, 7), STACK))
    play(table)
    table.sit_out("p4")  # due the big blind next hand: ML
    play(table, 1.0)
    assert table.seats[4].missed_big
    table.sit_in("p4", post_now=True)
    for k in range(6):
        twin = Table.from_json(table.to_json(), rng=copy.deepcopy(table.rng))
        events = twin.start_hand(2.0 + k)
        if 4 in next(e for e in events if isinstance(e, HandStarting)).seats:
            break
        play(table, 2.0 + k)
    else:
        raise AssertionError("p4 never came back")
    posted = cancel_and_compare(table, 10.0)[4]
    assert (4, "live_post", BB, False) in posted and (4, "dead_post", BB // 2, True) in posted


def test_R_DECK_5_a_cancelled_first_hand_deals_the_same_first_hand_again() -> None:
    table = make_table(players={2: STACK, 4: STACK, 6: STACK})
    assert cancel_and_compare(table, 0.0)[:3] == (2, 4, 6)


def test_R_DECK_5_a_hand_cancelled_after_a_restart_gives_everything_back_too() -> None:
    table = make_table(seats=9, players=dict.fromkeys(range(1, 6), STACK))
    play(table)
    table.sit_out("p3")
    table.sit("p6", 6, STACK, post_now=True)
    before = state(table)
    table.start_hand(1.0)
    restored = Table.from_json(table.to_json())  # the server restarts mid-hand ...
    restored.cancel_hand("server restart")  # ... and cancels the interrupted hand
    assert state(restored) == before


def test_R_DECK_5_R_BTN_2_a_cancelled_first_hand_is_not_drawn_for_again() -> None:
    table = make_table("casino", seats=10, players=dict.fromkeys((1, 4, 7, 9), 100 * BB))
    drawn = table.start_hand(0.0)
    assert any(isinstance(e, ButtonDrawn) for e in drawn)
    table.cancel_hand("server fault")
    restored = Table.from_json(table.to_json())  # also across a restart
    for again in (table.start_hand(1.0), restored.start_hand(1.0)):
        assert deal_summary(again) == deal_summary(drawn)
        assert not any(isinstance(e, ButtonDrawn) for e in again)


def test_R_DECK_5_R_TIME_2_a_cancel_gives_back_the_time_bank_used_in_the_hand() -> None:
    table = make_table("titan", players={1: STACK, 2: STACK, 3: STACK})
    play(table)
    before = state(table)
    table.start_hand(100.0)
    actor = table.actor_seat()
    assert actor is not None
    full = table.seats[actor].time_bank
    assert full > 0
    used = table.tick(100.0 + 31.0)  # past the decision time: the bank is spent ...
    assert [e.seat for e in used if isinstance(e, TimeBankUsed)] == [actor]
    assert table.seats[actor].time_bank == 0.0
    table.tick(100.0 + 31.0 + full)  # ... and the turn times out (check/fold)
    assert table.seats[actor].timeouts == 1
    table.cancel_hand("server fault")
    assert table.seats[actor].time_bank == full  # the hand never happened: nor did its time
    assert table.seats[actor].timeouts == 0
    assert state(table) == before


def test_R_DECK_5_R_TIME_2_after_a_restart_too_and_a_refill_due_at_the_hand_stays() -> None:
    table = make_table("titan", players={1: STACK, 2: STACK, 3: STACK})
    for seat in table.seats.values():
        seat.time_bank = 1.0
    while table.hand_number % 10 != 9:  # the next hand is one that refills the banks
        play(table, float(table.hand_number))
    table.start_hand(100.0)
    actor = table.actor_seat()
    assert actor is not None and table.seats[actor].time_bank == 6.0  # 1 + 5 refilled
    table.tick(131.0)
    assert table.seats[actor].time_bank == 0.0
    restored = Table.from_json(table.to_json())  # the server restarts mid-hand ...
    restored.cancel_hand("server restart")  # ... and cancels the interrupted hand
    assert restored.seats[actor].time_bank == 6.0  # as dealt: the refill was this hand's
