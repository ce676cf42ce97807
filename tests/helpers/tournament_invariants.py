"""An observer that checks a tournament's invariants from its event stream:
nobody is dealt at two tables, moves happen between hands at both tables, nobody posts the
big blind twice in a row because of a move, tables stay within one player after every
balancing step, hand-for-hand rounds are synchronized, nobody is sat out, and a player who
arrives at a table (a late entry, a move, a redraw) is never dealt in between the button and
the small blind there (TDA 8A, 10A: they wait one hand for the button, never more); and from the
coordinator's state after each change between hands: every chip issued is on a table
(stacks and pots, rebuys and add-ons included), every entry still in sits at exactly one
table (its own) and every eliminated one at none. ``Settled`` checks that a place the room
pays as final (``settled_places``) is the place and prize the event ends with."""

from __future__ import annotations

from typing import Any

from pokerroom.table.blinds import between
from pokerroom.table.events import HandStarting
from pokerroom.tournament import Tournament
from pokerroom.tournament.events import (
    Balanced,
    Eliminated,
    HandDealt,
    HandDone,
    HandForHand,
    Moved,
    Rebought,
    Registered,
    Seated,
)
from pokerroom.tournament.results import groups_settled
from pokerroom.tournament.simulate import HandPlayed

_BETWEEN_HANDS = (HandDone, Moved, Rebought, Registered, Seated)


class Invariants:
    def __init__(self) -> None:
        self.open: dict[int, tuple[str, ...]] = {}  # table -> entries in its hand in progress
        self.big_last: dict[str, bool] = {}
        self.moved: set[str] = set()
        self.problems: list[str] = []
        self.moves = self.balanced = self.h4h_hands = self.unavoidable = 0
        self.round_tables: dict[int, set[int]] = {}
        self.round_open: int | None = None
        self.table_round: dict[int, int] = {}  # table -> the round of its hand in progress
        self.done_round: int | None = None  # the round of the hand that just ended
        self.round_groups: dict[int, set[int]] = {}  # round -> elimination groups
        self.h4h_seen = False
        self.busts: dict[str, tuple[int, int]] = {}  # entry -> (group, chips at its start)
        self.state_checks = 0
        self.arrived: dict[str, tuple[int, int, bool]] = {}  # entry -> table, seat, waited
        self.waited = 0  # arrivals not dealt their first hand there (between button and SB)
        self.starting: HandStarting | None = None  # the table event of the hand being dealt

    def __call__(self, t: Tournament, events: list[Any]) -> None:
        if t.started and any(isinstance(event, _BETWEEN_HANDS) for event in events):
            self._state(t)
        for event in events:
            match event:
                case HandStarting():
                    self.starting = event
                case Seated(entry, table, seat, _):
                    self.arrived[entry] = (table, seat, False)
                case HandDealt(table, _, entries, big, round_):
                    waiting = self._arrivals(t, table, entries)
                    self._dealt(t, table, entries, big, round_, waiting)
                case HandDone(table, _, _):
                    self.open.pop(table, None)
                    self.done_round = self.table_round.pop(table, None)
                case Moved(entry, source, target, seat, _, again):
                    self.moves += 1
                    self.arrived[entry] = (target, seat, False)
                    for busy in (source, target):
                        if busy in self.open:
                            self.problems.append(f"{entry} moved while table {busy} dealt")
                    if again:  # the one case no seat can help (the event says so)
                        self.unavoidable += 1
                    else:
                        self.moved.add(entry)
                case Balanced(sizes):
                    self.balanced += 1
                    if max(sizes) - min(sizes) > 1:
                        self.problems.append(f"tables out of balance: {sizes}")
                case HandForHand(on):
                    self.h4h_seen |= on
                case Eliminated(entry, group, chips):
                    self.busts[entry] = (group, chips)
                    if self.done_round is not None:
                        # Busts in one hand-for-hand round are simultaneous: one group.
                        groups = self.round_groups.setdefault(self.done_round, set())
                        groups.add(group)
                        if len(groups) > 1:
                            self.problems.append(f"round {self.done_round} split into {groups}")
                case _:
                    pass

    def _state(self, t: Tournament) -> None:
        self.state_checks += 1
        if t.chips_in_play() != t.chips_issued:
            self.problems.append(f"{t.chips_in_play()} chips in play, {t.chips_issued} issued")
        where: dict[str, list[int]] = {}
        for number, table in t.tables.items():
            for seat in table.seats.values():
                where.setdefault(seat.player, []).append(number)
        for entry in t.entries.values():
            tables = where.get(entry.id, [])
            if entry.out and tables:
                self.problems.append(f"{entry.id} is out but seated at {tables}")
            elif not entry.out and tables != [entry.table]:
                self.problems.append(f"{entry.id} of table {entry.table} seated at {tables}")

    def check_ties(self, result: dict[str, Any]) -> None:
        """Tied places went to players out in the same hand with the same chips at its start."""
        for first, last in result["ties"]:
            tied = {self.busts[p[1]] for p in result["places"] if first <= p[0] <= last}
            if len(tied) != 1:
                self.problems.append(f"places {first}-{last} tied from {tied}")

    def _arrivals(self, t: Tournament, table: int, entries: tuple[str, ...]) -> set[str]:
        """TDA 8A, 10A: an arrival's first hand at a table: dealt in, but not between the button
        and the small blind; or not dealt that one hand (the button then passes them)."""
        start, size = self.starting, t.structure.table_size
        assert start is not None
        first = start.small_blind_seat or start.big_blind_seat  # the first blind, posted or not
        waiting: set[str] = set()
        for entry, (at, seat, waited) in list(self.arrived.items()):
            if at != table:
                continue
            if entry in entries:
                del self.arrived[entry]
                if len(start.seats) > 2 and between(seat, start.button_seat, first, size):
                    self.problems.append(
                        f"{entry} arrived at table {table} seat {seat} and was dealt in between"
                        f" the button {start.button_seat} and the small blind {first}"
                    )
            elif waited:
                self.problems.append(f"{entry} at table {table} waited a second hand")
            elif t.entries[entry].table == table:
                self.arrived[entry] = (at, seat, True)
                self.waited += 1
                waiting.add(entry)
        return waiting

    def _dealt(
        self,
        t: Tournament,
        table: int,
        entries: tuple[str, ...],
        big: str | None,
        r: int | None,
        waiting: set[str],
    ) -> None:
        for other, dealt in self.open.items():
            twice = set(dealt) & set(entries)
            if twice:
                self.problems.append(f"{sorted(twice)} dealt at tables {other} and {table}")
        self.open[table] = entries
        for entry in entries:
            is_big = entry == big
            if entry in self.moved and is_big and self.big_last.get(entry, False):
                self.problems.append(f"{entry} posted the big blind twice because of a move")
            self.big_last[entry] = is_big
            self.moved.discard(entry)
        if r is not None:
            self.table_round[table] = r
            self.h4h_hands += 1
            tables = self.round_tables.setdefault(r, set())
            if table in tables:
                self.problems.append(f"table {table} dealt twice in hand-for-hand round {r}")
            tables.add(table)
            if any(earlier > r for earlier in self.round_tables):
                self.problems.append(f"round {r} dealt after a later round")
            if r - 1 in self.round_tables and any(
                n in self.open and n != table for n in self.round_tables[r - 1] - tables
            ):
                self.problems.append(f"round {r} began before round {r - 1} was over")
        # Nobody sat out (TDA 71): everyone seated with chips at the table is dealt in.
        seated = t.tables.get(table)
        if seated is not None and seated.hand is not None:
            with_chips = {s.player for s in seated.seats.values() if s.stack > 0} - waiting
            if with_chips != set(entries):
                self.problems.append(f"table {table} dealt {entries}, seated {with_chips}")


def check_result(result: dict[str, Any]) -> None:
    """The CLI's line: money and chips conserved, every place once, tables within one."""
    assert result["paid"] == result["prize_pool"]
    assert result["chips_end"] == result["chips_start"]
    assert sorted(p[0] for p in result["places"]) == list(range(1, result["entrants"] + 1))
    assert len({p[1] for p in result["places"]}) == result["entrants"]
    assert result["max_table_gap"] <= 1
    for first, last in result["ties"]:
        shares = [p[2] for p in result["places"] if first <= p[0] <= last]
        assert max(shares) - min(shares) <= 1  # split, the odd chips one each


class Settled:
    """``Simulation.on_hand``: the places final after each hand (``settled_places``) must be
    the places and prizes the event ends with (the room pays each as it is settled)."""

    def __init__(self) -> None:
        self.paid: dict[str, tuple[int, int]] = {}  # entry -> (place, prize) when settled
        self.early = 0  # places settled before the end
        self.groups = -1  # elimination groups settled at the last look

    def __call__(self, t: Tournament, played: HandPlayed) -> None:
        groups = groups_settled(t, played.ended)
        newly = t.groups[max(self.groups, 0) : groups]
        if groups == self.groups or (not any(newly) and self.groups >= 0):
            return  # no place newly settled (those that were are checked at the end)
        self.groups = groups
        for p in t.settled_places(played.ended):
            if p.entry not in self.paid:
                self.paid[p.entry] = (p.place, p.prize)
                self.early += not t.finished
            elif self.paid[p.entry] != (p.place, p.prize):
                raise AssertionError(f"{p.entry} settled at {self.paid[p.entry]}, now {p}")

    def check(self, t: Tournament) -> None:
        final = {p.entry: (p.place, p.prize) for p in t.places()}
        assert self.paid == final
