"""Auto-muck, a seat option the account's preference sets: at a showdown a hand
that must be shown or can still win is shown (R-SHOW-4); a losing hand that may be mucked is
mucked for a seat with auto-muck on and shown for a seat with it off. Mucking a losing hand
changes no chip (R-SHOW-9: it had no claim left)."""

from __future__ import annotations

from pokerroom.engine import Action, ActionKind
from pokerroom.engine.events import CardsShown, Event, HandMucked
from pokerroom.engine.hand import Hand
from pokerroom.table import Table
from pokerroom.table.events import HandStarting
from tests.helpers.tables import BB, finish_hand, make_table

PLAYERS = {1: 100 * BB, 2: 100 * BB, 3: 100 * BB}


def hands(table: Table, count: int) -> list[list[Event]]:
    """The events of ``count`` hands, each checked down (or folded to a bet)."""
    played = []
    for n in range(count):
        events = table.start_hand(float(n))
        assert any(isinstance(e, HandStarting) for e in events)
        events += finish_hand(table, float(n))
        played.append(events)
    return played


def test_R_SHOW_4_auto_muck_mucks_a_losing_hand_and_off_it_is_shown() -> None:
    mucking = make_table(players=PLAYERS, seed=11)
    showing = make_table(players=PLAYERS, seed=11)  # the same cards, hand after hand
    for player in ("p1", "p2", "p3"):
        showing.set_options(player, auto_muck=False)
    muck_hands, show_hands = hands(mucking, 12), hands(showing, 12)
    mucked_any = False
    for mucked, shown in zip(muck_hands, show_hands, strict=True):
        gave_up = {e.seat for e in mucked if isinstance(e, HandMucked)}
        mucked_any |= bool(gave_up)
        # Off: no hand is ever mucked, each mucked one elsewhere is shown instead.
        assert not any(isinstance(e, HandMucked) for e in shown)
        showed = {e.seat for e in shown if isinstance(e, CardsShown)}
        assert showed == {e.seat for e in mucked if isinstance(e, CardsShown)} | gave_up
    assert mucked_any, "no hand of the seed reached a showdown with a losing hand to muck"
    # Showing a losing hand wins nothing: the same chips either way.
    assert {n: s.stack for n, s in mucking.seats.items()} == {
        n: s.stack for n, s in showing.seats.items()
    }
    # The table's choices are in the hand's log: it replays to the same events.
    last = showing.last_hand
    assert last is not None
    assert Hand.replay(last.setup, last.log).events == last.events


def test_auto_muck_per_seat_and_kept_by_a_snapshot() -> None:
    table = make_table(players=PLAYERS, seed=11)
    table.set_options("p2", auto_muck=False)
    assert [table.seats[n].auto_muck for n in (1, 2, 3)] == [True, False, True]
    restored = Table.from_json(table.to_json())
    assert [restored.seats[n].auto_muck for n in (1, 2, 3)] == [True, False, True]
    played = hands(table, 12)
    # Seat 2 never mucks; the others still may.
    assert not any(isinstance(e, HandMucked) and e.seat == 2 for h in played for e in h)
    assert any(isinstance(e, HandMucked) and e.seat != 2 for h in played for e in h)


def test_a_hand_that_must_be_shown_is_shown_with_auto_muck_on() -> None:
    """All-in hands are always shown (R-SHOW-4), whatever the seat's option."""
    table = make_table(players={1: 100 * BB, 2: 100 * BB}, seed=3)
    table.start_hand(0.0)
    events: list[Event] = []
    while table.hand is not None:
        seat = table.actor_seat()
        assert seat is not None
        legal = table.hand.legal_actions()
        assert legal is not None
        player = table.seats[seat].player
        if legal.max_raise_to is not None and legal.call_amount < table.seats[seat].stack:
            events += table.act(player, Action(ActionKind.BET_OR_RAISE, legal.max_raise_to), 1)
        else:
            events += table.act(player, Action(ActionKind.CHECK_OR_CALL), 1)
    assert {e.seat for e in events if isinstance(e, CardsShown)} == {1, 2}
    assert not any(isinstance(e, HandMucked) for e in events)
