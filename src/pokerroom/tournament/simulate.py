"""A whole tournament in process with random-policy bots (issue 14, "Proof"): the tables play
in an interleaved random order, as they would at once on a server, on a simulated clock.

Pure like the coordinator: the seed makes the event, and ``observe`` sees every event (the
property tests check their invariants from it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pokerroom.engine.actions import Action, ActionKind
from pokerroom.engine.hand import Hand
from pokerroom.rng import RandomSource, SeededRandomSource
from pokerroom.rules.house import STANDARD, HouseOptions
from pokerroom.rules.tournament import TournamentStructure
from pokerroom.tournament.coordinator import Tournament
from pokerroom.tournament.events import Eliminated, HandDone, TournamentError

ACTION_SECONDS = 7.0  # simulated time a decision takes at one table (about 60 hands an hour)


def random_action(hand: Hand, rng: RandomSource) -> Action:
    """Fold a fifth of the time when facing a bet, raise about a sixth (any legal size),
    otherwise check or call."""
    legal = hand.legal_actions()
    assert legal is not None
    roll = rng.randbelow(100)
    if roll < 20 and not legal.can_check:
        return Action(ActionKind.FOLD)
    low, high = legal.min_raise_to, legal.max_raise_to
    if roll < 84 or low is None or high is None:
        return Action(ActionKind.CHECK_OR_CALL)
    return Action(ActionKind.BET_OR_RAISE, low + rng.randbelow(high - low + 1))


@dataclass(kw_only=True)
class Options:
    late_entries: int = 0  # entries that arrive during late registration
    rebuy_percent: int = 0  # entrants with auto-rebuy on (rebuy events)
    addon_percent: int = 0  # entries that take the add-on at its break
    reentry_percent: int = 0  # eliminated players who re-enter while they may
    absent_percent: int = 0  # entrants who never act: dealt in and blinded off (TDA 71)
    house: HouseOptions = field(default_factory=lambda: STANDARD)


def simulate(
    structure: TournamentStructure,
    entrants: int,
    seed: int | str,
    *,
    options: Options | None = None,
    observe: Callable[[Tournament, list[Any]], None] | None = None,
    progress: Callable[[Tournament], None] | None = None,
) -> dict[str, Any]:
    """Play a whole event; the result as the CLI's JSON line (see ``result``)."""
    opts = options or Options()
    bots = SeededRandomSource(f"{seed}/bots")
    t = Tournament(
        structure=structure, house=opts.house, rng=SeededRandomSource(seed), name=structure.name
    )
    absent: set[str] = set()

    def emit(events: list[Any]) -> list[Any]:
        if observe is not None:
            observe(t, events)
        return events

    def enter(player: str, now: float) -> None:
        events = t.register(player, now)
        entry = t._current[player]
        if bots.randbelow(100) < opts.rebuy_percent:
            t.auto_rebuy.add(entry)
        if bots.randbelow(100) < opts.absent_percent:
            absent.add(entry)
        emit(events)

    def after(events: list[Any]) -> None:
        emit(events)
        for event in events:
            if isinstance(event, HandDone):
                if late and t.registration_open(now) and bots.randbelow(3) == 0:
                    enter(late.pop(), now)
                    close_when_all_in()
                if progress is not None:
                    progress(t)
            elif isinstance(event, Eliminated) and not t.finished:
                player = t.entries[event.entry].player
                used = t.entries_used(player)
                if (
                    t.registration_open(now)
                    and used <= t.structure.re_entries
                    and bots.randbelow(100) < opts.reentry_percent
                ):
                    enter(player, now)

    first = entrants - opts.late_entries
    for k in range(first):
        enter(f"p{k + 1}", 0.0)
    emit(t.start(0.0))
    late = [f"p{k + 1}" for k in range(first, entrants)]
    now = 0.0
    re_entries = structure.re_entries and opts.reentry_percent

    def close_when_all_in() -> None:
        # Nobody else will come: registration closes (so the bubble is known in time).
        if not late and not re_entries and t.registration_open(now):
            emit(t.close_registration())

    close_when_all_in()
    addon_done = False
    busy: list[int] = []  # tables with a hand in progress
    changed = True  # a hand ended, or time jumped: look for tables that may deal
    while not t.finished:
        if changed:
            changed = False
            for number in t.startable(now):
                after(t.start_hand(number, now))
                if t.tables[number].hand is not None:
                    busy.append(number)
                else:
                    changed = True  # over as it was dealt (all in on the blinds)
            if t.finished:
                break
        if not busy:
            if changed:
                continue
            if late and t.registration_open(now):
                enter(late.pop(), now)
                close_when_all_in()
                changed = True
                continue
            if t.clock.on_break(now):
                if not addon_done and t.structure.addon is not None:
                    addon_done = True
                    for entry in t.remaining():
                        if bots.randbelow(100) < opts.addon_percent and t.can_addon(entry, now):
                            emit(t.addon(entry, now))
                upcoming = t.clock.next_change(now)
                assert upcoming is not None
                now = upcoming
                changed = True
                continue
            raise TournamentError(f"{t.name}: no table can deal at {now:.0f} s (stuck)")
        pick = bots.randbelow(len(busy))
        table = t.tables[busy[pick]]
        hand = table.hand
        seat = table.actor_seat()
        assert hand is not None and seat is not None
        entry = table.seats[seat].player
        action = Action(ActionKind.TIMEOUT) if entry in absent else random_action(hand, bots)
        after(t.act(entry, action, now))
        now += ACTION_SECONDS / len(busy)
        if table.hand is None:  # the hand is over: settled, busts and moves done
            busy[pick] = busy[-1]
            busy.pop()
            changed = True

    return result(t)


def result(t: Tournament) -> dict[str, Any]:
    places = t.places()
    ties = sorted({p.tie for p in places if p.tie is not None})
    return {
        "entrants": len(t.entries),
        "hands": t.hands,
        "tables_max": t.tables_max,
        "levels": t.level_shown,
        "places": [[p.place, p.entry, p.prize] for p in places],
        "prize_pool": t.prize_pool,
        "paid": sum(p.prize for p in places),
        "chips_start": t.chips_issued,
        "chips_end": t.chips_in_play(),
        "max_table_gap": t.max_table_gap,
        "moves": t.moves,
        "ties": [list(tie) for tie in ties],
        "rebuys": t.rebuys,
        "addons": t.addons,
    }
