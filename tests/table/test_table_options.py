"""The table layer's side of the options beyond the seeds: who straddles (R-STRADDLE-1), the
run-it-twice prompt and seat setting (R-RIT-1), the host's bomb pot (R-BOMB-1)."""

from __future__ import annotations

import pytest

from pokerroom.engine import Action, ActionKind, Phase
from pokerroom.engine.events import BombPot, ForcedBet, RunoutAnswered
from pokerroom.table import Table
from pokerroom.table.errors import TableError
from tests.helpers.tables import BB, finish_hand, make_table

STACKS = {1: 100 * BB, 2: 100 * BB, 3: 100 * BB, 4: 100 * BB, 5: 100 * BB}


def table_with(**options: bool) -> Table:
    table = make_table(players=STACKS)
    table.house = table.house.with_options(**options)
    return table


def straddles(events: list[object]) -> list[tuple[int, int]]:
    return [(e.seat, e.amount) for e in events if isinstance(e, ForcedBet) and e.what == "straddle"]


def test_R_STRADDLE_1_the_seat_left_of_the_big_blind_straddles_when_it_chose_to() -> None:
    table = table_with(straddle=True)
    for seat in STACKS:
        table.set_options(f"p{seat}", straddle=True)
    events = table.start_hand(0.0)
    assert table.hand is not None
    big = table.hand_seats[1]
    left_of_big = table.hand_seats[2]
    assert big != left_of_big and straddles(events) == [(left_of_big, 2 * BB)]
    finish_hand(table)


def test_R_STRADDLE_1_never_by_a_player_with_missed_blinds_or_when_off() -> None:
    table = table_with(straddle=True)
    table.set_options("p4", straddle=True)
    table.seats[4].missed_big = True  # an ML marker: no straddle
    assert table.straddler(table._plan([])) is None  # type: ignore[arg-type]
    off = make_table(players=STACKS)
    with pytest.raises(TableError, match="no straddle"):
        off.set_options("p1", straddle=True)


def test_R_RIT_1_a_seat_that_agreed_answers_yes_and_a_silent_one_no() -> None:
    table = table_with(run_it_twice=True)
    for seat in (1, 2, 3):
        table.sit_out(f"p{seat}")
    table.set_options("p5", run_it_twice=True)  # the big blind, asked first heads-up
    table.start_hand(0.0)
    hand = table.hand
    assert hand is not None
    while hand.phase is Phase.BETTING:
        legal = hand.legal_actions()
        assert legal is not None
        seat = table.hand_seats[legal.position]
        kind = ActionKind.BET_OR_RAISE if legal.max_raise_to else ActionKind.CHECK_OR_CALL
        table.act(f"p{seat}", Action(kind, legal.max_raise_to or 0), 0.0)
    assert hand.phase is Phase.RUNOUT and table.actor_seat() == 4  # p5 said yes already
    timeouts = table.seats[4].timeouts
    table.tick(10_000.0)  # no answer is no, and not a time-out that sits the player out
    answers = [(e.seat, e.agreed) for e in hand.events if isinstance(e, RunoutAnswered)]
    assert answers == [(5, True), (4, False)] and hand.runs == 1
    assert table.seats[4].timeouts == timeouts and table.hand is None


def test_R_BOMB_1_the_hosts_mark_makes_the_next_hand_a_bomb_pot_once() -> None:
    table = table_with(bomb_pot=True)
    with pytest.raises(TableError, match="allows 1"):
        table.mark_bomb_pot(21)
    table.mark_bomb_pot(3)
    events = table.start_hand(0.0)
    assert [e for e in events if isinstance(e, BombPot)] == [BombPot(3, 3 * BB)]
    assert table.hand is not None and table.hand.street == 1  # on the flop
    total = sum(s.stack for s in table.seats.values())  # the seats' stacks settle at the end
    restored = Table.from_json(table.to_json())  # a snapshot keeps the bomb pot
    assert restored.hand is not None and restored.hand.bomb_pot == 3
    table.cancel_hand()  # R-DECK-5: dealt again the same way
    assert table.bomb_pot_next == 3
    table.start_hand(0.0)
    finish_hand(table)
    assert sum(s.stack for s in table.seats.values()) + table.rake_total == total
    events = table.start_hand(0.0)
    assert not [e for e in events if isinstance(e, BombPot)]  # the mark was for one hand
    off = make_table(players=STACKS)
    with pytest.raises(TableError, match="does not offer"):
        off.mark_bomb_pot(2)
