"""A cash seat sits out for a limited time (the house's ``sit_out_seconds``), then it is
cashed out and freed; sitting in again starts it over; a table restored from its snapshot
(a restart, whose clock is another) limits the seat again from then on."""

from collections.abc import Sequence

from pokerroom.table import Table
from pokerroom.table.events import SeatLeft
from tests.helpers.tables import BB, make_table

STACK = 40 * BB


def limited(seconds: int) -> Table:
    table = make_table("titan", players={1: STACK, 2: STACK})
    table.house = table.house.with_options(sit_out_seconds=seconds)
    return table


def left(events: Sequence[object]) -> list[tuple[int, str, int]]:
    return [(e.seat, e.player, e.stack) for e in events if isinstance(e, SeatLeft)]


def test_a_seat_sitting_out_longer_than_the_house_allows_is_cashed_out_and_freed() -> None:
    table = limited(120)
    table.sit_out("p1")
    assert table.stand_sat_out(1000.0) == []  # its time starts now
    assert table.sit_out_deadline() == 1120.0
    assert table.stand_sat_out(1119.0) == []
    assert left(table.stand_sat_out(1120.0)) == [(1, "p1", STACK)]  # its whole stack
    assert 1 not in table.seats and table.seat_number("p1") is None
    assert table.sit_out_deadline() is None


def test_sitting_in_again_starts_the_time_over() -> None:
    table = limited(120)
    table.sit_out("p1")
    table.stand_sat_out(0.0)
    table.sit_in("p1")
    assert table.stand_sat_out(100.0) == [] and table.sit_out_deadline() is None
    table.sit_out("p1")
    table.stand_sat_out(110.0)
    assert table.stand_sat_out(200.0) == []  # 90 s of its new time
    assert left(table.stand_sat_out(230.0)) == [(1, "p1", STACK)]


def test_after_a_restart_the_seat_is_limited_again_from_then() -> None:
    table = limited(120)
    table.sit_out("p1")
    table.stand_sat_out(5_000.0)
    restored = Table.from_json(table.to_json())
    # A new process's clock may stand below the old one's: the time starts again there.
    assert restored.stand_sat_out(10.0) == []
    assert left(restored.stand_sat_out(130.0)) == [(1, "p1", STACK)]


def test_no_limit_without_the_option_and_none_at_a_tournament_table() -> None:
    table = make_table("titan", players={1: STACK, 2: STACK})
    table.house = table.house.with_options(sit_out_seconds=None)
    table.sit_out("p1")
    assert table.stand_sat_out(0.0) == [] and table.stand_sat_out(10**9) == []
    assert table.sit_out_deadline() is None
