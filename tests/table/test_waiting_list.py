"""The waiting list: a freed seat is held for the first in line for a clocked
time, then passed on; nobody else takes a held seat; hostile sequences change nothing."""

import pytest

from pokerroom.rules import load_preset
from pokerroom.rules.game import Structure, Variant
from pokerroom.table import Table, TableError
from pokerroom.table.events import PassedOver, SeatOffered, WaitingListChanged
from pokerroom.table.waiting import OFFER_SECONDS
from tests.helpers.tables import BB, make_table


def offers(events: list[object]) -> list[tuple[int, str]]:
    return [(e.seat, e.player) for e in events if isinstance(e, SeatOffered)]


def full_table() -> Table:
    return make_table(seats=2, players={1: 40 * BB, 2: 40 * BB})


def test_a_freed_seat_is_held_for_the_first_in_line_and_only_for_them() -> None:
    table = full_table()
    table.join_waiting_list("ann", 0.0, name="Ann")
    table.join_waiting_list("bob", 1.0)
    assert table.waiting.position("ann") == 1 and table.waiting.position("bob") == 2
    table.leave("p2", 2.0)
    assert offers(table.offer_seats(2.0)) == [(2, "ann")]
    with pytest.raises(TableError, match="seat 2 is held for the first on the waiting list"):
        table.sit("bob", 2, 40 * BB)
    with pytest.raises(TableError, match="seat 2 is held"):
        table.sit("stranger", 2, 40 * BB)
    events = table.sit("ann", 2, 40 * BB)
    assert any(isinstance(e, WaitingListChanged) and e.players == ("bob",) for e in events)
    assert table.waiting.players == ["bob"] and table.waiting.offers == {}


def test_an_offer_not_taken_in_time_passes_to_the_next_in_line() -> None:
    table = full_table()
    table.join_waiting_list("ann", 0.0)
    table.join_waiting_list("bob", 0.0)
    table.leave("p2", 10.0)
    table.offer_seats(10.0)
    assert table.waiting.next_deadline() == 10.0 + OFFER_SECONDS
    assert table.offer_seats(10.0 + OFFER_SECONDS - 0.1) == []  # still held for ann
    events = table.offer_seats(10.0 + OFFER_SECONDS)
    assert [(e.player, e.seat) for e in events if isinstance(e, PassedOver)] == [("ann", 2)]
    assert offers(events) == [(2, "bob")]
    assert table.waiting.players == ["bob"]


def test_hostile_sequences_are_refused_and_change_nothing() -> None:
    table = full_table()
    table.join_waiting_list("ann", 0.0)
    with pytest.raises(TableError, match="already on the waiting list"):
        table.join_waiting_list("ann", 0.0)  # join twice
    with pytest.raises(TableError, match="already has a seat"):
        table.join_waiting_list("p1", 0.0)  # join while seated
    assert table.waiting.players == ["ann"]
    table.join_waiting_list("bob", 0.0)
    table.leave_waiting_list("ann", 0.0)  # join, leave, join: to the back of the line
    table.join_waiting_list("ann", 0.0)
    assert table.waiting.players == ["bob", "ann"]
    with pytest.raises(TableError, match="not on this table's waiting list"):
        table.leave_waiting_list("carl", 0.0)
    house = load_preset("titan")
    spec = house.game(Variant.HOLDEM, Structure.NO_LIMIT, BB)
    tournament = Table(spec=spec, house=house, seats=2, tournament=True)
    with pytest.raises(TableError, match="no waiting list"):
        tournament.join_waiting_list("ann", 0.0)


def test_someone_not_on_the_list_may_not_jump_the_line() -> None:
    table = make_table(seats=3, players={1: 40 * BB, 2: 40 * BB, 3: 40 * BB})
    table.join_waiting_list("ann", 0.0)
    table.leave("p3", 0.0)
    table.leave("p2", 0.0)
    table.offer_seats(0.0)  # seat 2 held for ann; seat 3 free for anyone
    held = next(iter(table.waiting.offers.values())).seat
    free = ({2, 3} - {held}).pop()
    table.sit("stranger", free, 40 * BB)
    assert table.seats[free].player == "stranger"


def test_passed_over_for_no_chips_the_seat_goes_on_and_leaving_the_list_too() -> None:
    table = full_table()
    table.join_waiting_list("ann", 0.0)
    table.join_waiting_list("bob", 0.0)
    table.join_waiting_list("carl", 0.0)
    table.leave("p2", 0.0)
    table.offer_seats(0.0)
    events = table.pass_over("ann", "no chips", 1.0)
    assert [(e.player, e.reason) for e in events if isinstance(e, PassedOver)] == [
        ("ann", "no chips")
    ]
    assert offers(events) == [(2, "bob")]
    assert offers(table.leave_waiting_list("bob", 2.0)) == [(2, "carl")]
    assert table.pass_over("nobody", "no chips", 3.0) == []


def test_the_list_and_its_offers_survive_a_snapshot() -> None:
    table = full_table()
    table.join_waiting_list("ann", 0.0, name="Ann")
    table.join_waiting_list("bob", 0.0)
    table.leave("p2", 5.0)
    table.offer_seats(5.0)
    restored = Table.from_json(table.to_json())
    assert restored.waiting.players == ["ann", "bob"]
    assert restored.waiting.entries[0].name == "Ann"
    assert restored.waiting.reserved_for(2) == "ann"
    assert restored.waiting.next_deadline() == 5.0 + OFFER_SECONDS
