"""Rebuys and the add-on: through the end of the structure's rebuy level, for a
stack at or below its limit, between the player's hands; one add-on in its break. The price
goes to the prize pool, the chips to the table. A bust in the rebuy period is offered the
rebuy for the player's decision time (``Tournament.offers``): it stands when the level ends
meanwhile. And a late entry taken back when the room could not store it (``withdraw``)."""

from __future__ import annotations

from typing import Any, Protocol

from pokerroom.table import Table
from pokerroom.tournament.balancing import Field, balance
from pokerroom.tournament.clock import LevelClock
from pokerroom.tournament.entries import entry_id
from pokerroom.tournament.events import Rebought, TournamentError


class Buying(Field, Protocol):
    """What rebuys, the add-on and a withdrawn entry read and set of the event
    (``Tournament``, coordinator.py), beyond what balancing does."""

    left: int  # entries still in
    rebuys: int
    addons: int
    chips_issued: int

    @property
    def name(self) -> str: ...

    @property
    def clock(self) -> LevelClock: ...

    @property
    def finished(self) -> bool: ...

    @property
    def auto_rebuy(self) -> set[str]: ...

    # Registration's own books (player -> their entry in play; entries bought), which a
    # withdrawn entry takes back.
    @property
    def _current(self) -> dict[str, str]: ...

    @property
    def _used(self) -> dict[str, int]: ...

    def table_of(self, entry: str) -> Table: ...


def can_rebuy(t: Buying, entry: str, now: float) -> bool:
    rebuy = t.structure.rebuy
    e = t.entries.get(entry)
    if rebuy is None or e is None or e.out or e.rebuys >= rebuy.max or e.table is None:
        return False
    if t.finished:  # its prizes are paid: chips bought now would stay in the pool for good
        return False
    if t.clock.level_number(now) > rebuy.until_level and entry not in t.offers:
        return False
    table = t.tables[e.table]
    seat = table.seat_of(entry)
    return not table.in_hand(seat.number) and seat.stack <= rebuy.at_or_below


def rebuy(t: Buying, entry: str, now: float) -> list[Any]:
    rule = t.structure.rebuy
    if rule is None or not can_rebuy(t, entry, now):
        raise TournamentError(code="tournament.cannot_rebuy", entry=entry, event=t.name)
    t.offers.pop(entry, None)
    return _add(t, entry, rule.chips, rule.price, addon=False)


def can_addon(t: Buying, entry: str, now: float) -> bool:
    rule = t.structure.addon
    e = t.entries.get(entry)
    if rule is None or e is None or e.out or e.addon or e.table is None or t.finished:
        return False  # (the winner of an event over before the add-on's break is not out)
    if not (t.clock.on_break(now) and t.clock.level_number(now) == rule.after_level):
        return False
    table = t.tables[e.table]
    return not table.in_hand(table.seat_of(entry).number)


def addon(t: Buying, entry: str, now: float) -> list[Any]:
    rule = t.structure.addon
    if rule is None or not can_addon(t, entry, now):
        raise TournamentError(code="tournament.cannot_addon", entry=entry, event=t.name)
    return _add(t, entry, rule.chips, rule.price, addon=True)


def _add(t: Buying, entry: str, chips: int, price: int, *, addon: bool) -> list[Any]:
    e = t.entries[entry]
    events: list[Any] = list(t.table_of(entry).add_chips(entry, chips))
    if addon:
        e.addon = True
        t.addons += 1
    else:
        e.rebuys += 1
        t.rebuys += 1
    t.chips_issued += chips
    events.append(Rebought(entry, chips, price, addon))
    return events


def withdraw(t: Buying, entry: str) -> list[Any]:
    """Take back a late entry (or re-entry) whose registration the room could not store, as
    if it had never been made: its seat, chips, place in the pool and count of entries.
    Refused once the entry has played a hand or bought chips (nothing changed then)."""
    e = t.entries.get(entry)
    if e is None or e.out or e.rebuys or e.addon or t._current.get(e.player) != entry:
        raise TournamentError(f"entry {entry} cannot be taken back from {t.name}")
    table = None if e.table is None else t.tables[e.table]
    if table is not None:
        seat = table.seat_of(entry)
        dealt = table.in_hand(seat.number) or not seat.arrived  # (``arrived``: not dealt yet)
        if dealt or seat.stack != t.structure.starting_stack:
            raise TournamentError(f"entry {entry} has played in {t.name}: it stays")
    events: list[Any] = [] if table is None else table.remove(entry, "withdrawn")
    used = t._used[e.player] - 1
    del t.entries[entry]
    if used:
        t._used[e.player] = used
        t._current[e.player] = entry_id(e.player, used)
    else:
        del t._used[e.player], t._current[e.player]
    t.left -= 1
    t.chips_issued -= t.structure.starting_stack
    t.auto_rebuy.discard(entry)
    t.offers.pop(entry, None)
    return events + balance(t)
