"""A whole tournament in process with random-policy bots: the tables play
in an interleaved random order, as they would at once on a server, on a simulated clock.

Pure like the coordinator: the seed makes the event, ``observe`` sees every event (the
property tests check their invariants from it), and ``on_hand`` every hand once it is over
(the histories are written from it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pokerroom.engine.actions import Action, ActionKind
from pokerroom.engine.hand import Hand
from pokerroom.rng import RandomSource, SeededRandomSource
from pokerroom.rules.house import STANDARD, HouseOptions
from pokerroom.rules.tournament import TournamentStructure
from pokerroom.table import Table
from pokerroom.tournament.coordinator import Tournament
from pokerroom.tournament.events import Eliminated, HandDealt, HandDone, TournamentError

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


@dataclass(frozen=True, slots=True, kw_only=True)
class HandPlayed:
    """A tournament hand that is over, with what its histories say besides the hand."""

    table: int
    number: int  # the tournament's count of hands: this hand's number in the event
    level: int  # from 1, the level it was dealt at (TDA 23)
    at: float  # when it was dealt, seconds from the start
    ended: float  # when it ended
    hand: Hand
    events: list[Any]  # the coordinator's events of the step that ended it (busts, places)


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
    on_hand: Callable[[Tournament, HandPlayed], None] | None = None,
) -> dict[str, Any]:
    """Play a whole event; the result as the CLI's JSON line (see ``result``)."""
    run = Simulation(structure, entrants, seed, options=options, observe=observe)
    run.progress = progress
    run.on_hand = on_hand
    run.play()
    return result(run.t)


class Simulation:
    """One event being played: ``play`` goes on to the end, or stops after some hands (and
    ``t`` may then be swapped for a restored copy; ``resume`` picks the run up again)."""

    def __init__(
        self,
        structure: TournamentStructure,
        entrants: int,
        seed: int | str,
        *,
        options: Options | None = None,
        observe: Callable[[Tournament, list[Any]], None] | None = None,
    ) -> None:
        self.opts = opts = options or Options()
        self.bots = SeededRandomSource(f"{seed}/bots")
        self.t = Tournament(structure=structure, house=opts.house, rng=SeededRandomSource(seed))
        self.observe = observe
        self.progress: Callable[[Tournament], None] | None = None
        self.on_hand: Callable[[Tournament, HandPlayed], None] | None = None
        self.dealt: dict[int, tuple[HandDealt, int, float, Table]] = {}  # for on_hand
        self.absent: set[str] = set()
        self.now = 0.0
        self.addon_done = False
        self.busy: list[int] = []  # tables with a hand in progress
        self.changed = True  # a hand ended, or time jumped: look for tables that may deal
        first = entrants - opts.late_entries
        for k in range(first):
            self.enter(f"p{k + 1}")
        self.emit(self.t.start(0.0))
        self.late = [f"p{k + 1}" for k in range(first, entrants)]
        self.re_entries = bool(structure.re_entries and opts.reentry_percent)
        self.close_when_all_in()

    def emit(self, events: list[Any]) -> None:
        if self.observe is not None:
            self.observe(self.t, events)

    def enter(self, player: str) -> None:
        t, bots = self.t, self.bots
        events = t.register(player, self.now)
        entry = t._current[player]
        if bots.randbelow(100) < self.opts.rebuy_percent:
            t.auto_rebuy.add(entry)
        if bots.randbelow(100) < self.opts.absent_percent:
            self.absent.add(entry)
        self.emit(events)

    def close_when_all_in(self) -> None:
        # Nobody else will come: registration closes (so the bubble is known in time).
        if not self.late and not self.re_entries and self.t.registration_open(self.now):
            self.emit(self.t.close_registration())

    def after(self, events: list[Any]) -> None:
        t, bots = self.t, self.bots
        self.emit(events)
        for event in events:
            if isinstance(event, HandDone):
                if self.late and t.registration_open(self.now) and bots.randbelow(3) == 0:
                    self.enter(self.late.pop())
                    self.close_when_all_in()
                if self.progress is not None:
                    self.progress(t)
            elif isinstance(event, Eliminated) and not t.finished:
                player = t.entries[event.entry].player
                if (
                    t.registration_open(self.now)
                    and t.entries_used(player) <= t.structure.re_entries
                    and bots.randbelow(100) < self.opts.reentry_percent
                ):
                    self.enter(player)

    def resume(self, t: Tournament) -> None:
        """Go on with ``t`` (a restored copy, its hands in progress cancelled)."""
        self.t = t
        self.busy = [n for n, table in t.tables.items() if table.hand is not None]
        self.changed = True

    def play(
        self, *, hands: int | None = None, until: Callable[[Tournament], bool] | None = None
    ) -> None:
        """Play to the end, or until the tournament has dealt ``hands`` hands, or until
        ``until`` holds at a moment a hand may start."""
        t, bots = self.t, self.bots
        while not t.finished and (hands is None or t.hands < hands):
            if until is not None and self.changed and until(t):
                return
            if self.changed:
                self.changed = False
                for number in t.startable(self.now):
                    if not t.can_start(number, self.now):
                        continue  # a hand over as it was dealt moved players since
                    table = t.tables[number]
                    events = t.start_hand(number, self.now)
                    if self.on_hand is not None:
                        dealt = next(e for e in events if isinstance(e, HandDealt))
                        level = t.clock.level_number(self.now)
                        self.dealt[number] = (dealt, level, self.now, table)
                    self.after(events)
                    if table.hand is not None:
                        self.busy.append(number)
                    else:
                        self.changed = True  # over as it was dealt (all in on the blinds)
                        self.hand_over(number, events)
                if t.finished:
                    break
            if not self.busy:
                self._idle()
                continue
            pick = bots.randbelow(len(self.busy))
            table = t.tables[self.busy[pick]]
            hand = table.hand
            seat = table.actor_seat()
            assert hand is not None and seat is not None
            entry = table.seats[seat].player
            if entry in self.absent:
                action = Action(ActionKind.TIMEOUT)
            else:
                action = random_action(hand, bots)
            events = t.act(entry, action, self.now)
            self.after(events)
            self.now += ACTION_SECONDS / len(self.busy)
            if table.hand is None:  # the hand is over: settled, busts and moves done
                self.hand_over(self.busy[pick], events)
                self.busy[pick] = self.busy[-1]
                self.busy.pop()
                self.changed = True

    def hand_over(self, number: int, events: list[Any]) -> None:
        if self.on_hand is None:
            return
        dealt, level, at, table = self.dealt.pop(number)
        hand = table.last_hand
        assert hand is not None
        played = HandPlayed(
            table=number,
            number=dealt.number,
            level=level,
            at=at,
            ended=self.now,
            hand=hand,
            events=events,
        )
        self.on_hand(self.t, played)

    def _idle(self) -> None:
        """No table is in a hand: a late entry, the break (and its add-ons), or a bug."""
        t = self.t
        if self.changed:
            return
        if self.late and t.registration_open(self.now):
            self.enter(self.late.pop())
            self.close_when_all_in()
            self.changed = True
            return
        if not t.clock.on_break(self.now):
            raise TournamentError(f"{t.name}: no table can deal at {self.now:.0f} s (stuck)")
        if not self.addon_done and t.structure.addon is not None:
            self.addon_done = True
            for entry in t.remaining():
                if self.bots.randbelow(100) < self.opts.addon_percent and t.can_addon(
                    entry, self.now
                ):
                    self.emit(t.addon(entry, self.now))
        upcoming = t.clock.next_change(self.now)
        assert upcoming is not None
        self.now = upcoming
        self.changed = True


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
