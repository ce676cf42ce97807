"""My results: a player's hands added up. Each statistic is defined here once, from the
sums of ``history.stats.HandFacts``; whoever adds the facts up (this module over facts in
memory, or the store over its rows in one query) builds a ``Totals`` and reads the
statistics off it, so both give the same page.

Cash and tournament hands are kept apart (money and tournament chips are not added
together); ``Filters`` choose the game, the stakes, the dates and the position.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Final

from pokerroom.history.stats import AMOUNTS, COUNTS, HandFacts

SERIES_POINTS: Final = 200  # points of the profit-over-hands line


def _rate(taken: int, chances: int) -> float | None:
    """A share in percent, None when there was no chance."""
    return None if chances == 0 else 100.0 * taken / chances


@dataclass(slots=True)
class Totals:
    """The sums of a set of hands' facts: ``hands``, every count of ``COUNTS``, every amount
    of ``AMOUNTS`` and the showdown split of the net (``net_showdown``), with the big
    blinds' total (``big_blinds``, for win rates across stakes)."""

    hands: int = 0
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTS, 0))
    amounts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(AMOUNTS, 0))
    net_showdown: int = 0
    big_blinds: int = 0

    def add(self, facts: HandFacts) -> None:
        self.hands += 1
        for name in COUNTS:
            self.counts[name] += getattr(facts, name)
        for name in AMOUNTS:
            self.amounts[name] += getattr(facts, name)
        self.net_showdown += facts.net if facts.showdown else 0
        self.big_blinds += facts.big_blind

    def merge(self, other: Totals) -> None:
        self.hands += other.hands
        for name in COUNTS:
            self.counts[name] += other.counts[name]
        for name in AMOUNTS:
            self.amounts[name] += other.amounts[name]
        self.net_showdown += other.net_showdown
        self.big_blinds += other.big_blinds


@dataclass(frozen=True, slots=True)
class Results:
    """The statistics of a set of hands, each defined once (percentages; None without a
    chance)."""

    totals: Totals

    @property
    def hands(self) -> int:
        """Hands dealt in and completed (cancelled hands are not played hands)."""
        return self.totals.hands

    @property
    def vpip(self) -> float | None:
        """Voluntarily put money in pot: the share of hands with a pre-flop decision in which
        the player called or raised before the flop (blinds and posts are not voluntary; a
        walk, with no decision, is not counted)."""
        c = self.totals.counts
        return _rate(c["vpip"], c["preflop_acted"])

    @property
    def pfr(self) -> float | None:
        """Pre-flop raise: the share of hands with a pre-flop decision in which the player
        bet or raised before the flop."""
        c = self.totals.counts
        return _rate(c["pfr"], c["preflop_acted"])

    @property
    def three_bet(self) -> float | None:
        """3-bet: of the times the player acted before the flop facing exactly one raise
        (the big blind not counted as one), the share they re-raised."""
        c = self.totals.counts
        return _rate(c["three_bet"], c["three_bet_chance"])

    @property
    def fold_to_three_bet(self) -> float | None:
        """Fold to 3-bet: of the times the player made the first pre-flop raise and then
        acted facing a re-raise (and no more), the share they folded."""
        c = self.totals.counts
        return _rate(c["fold_to_three_bet"], c["fold_to_three_bet_chance"])

    @property
    def cbet(self) -> float | None:
        """Continuation bet: of the times the player made the last pre-flop raise and had
        the flop's first bet to make (nobody had bet before their first flop action), the
        share they bet."""
        c = self.totals.counts
        return _rate(c["cbet"], c["cbet_chance"])

    @property
    def wtsd(self) -> float | None:
        """Went to showdown: of the hands in which the player saw the flop, the share in
        which they were still in at a showdown."""
        c = self.totals.counts
        return _rate(c["showdown"], c["saw_flop"])

    @property
    def wsd(self) -> float | None:
        """Won at showdown (W$SD): of the showdowns the player went to, the share in which
        they took chips from a pot (a split pot counts)."""
        c = self.totals.counts
        return _rate(c["won_showdown"], c["showdown"])

    @property
    def won_without_showdown(self) -> float | None:
        """Won without showdown: the share of hands in which everyone else folded to the
        player."""
        return _rate(self.totals.counts["won_without_showdown"], self.hands)

    @property
    def net(self) -> int:
        """Profit: the sum of stacks after the hand minus stacks before it (after rake)."""
        return self.totals.amounts["net"]

    @property
    def net_showdown(self) -> int:
        """Profit of the hands that went to a showdown with the player in them."""
        return self.totals.net_showdown

    @property
    def net_without_showdown(self) -> int:
        """Profit of the other hands (won or lost without a showdown)."""
        return self.net - self.net_showdown

    @property
    def all_in_net(self) -> int:
        """The all-in adjusted profit: as ``net``, but a hand all in before the river with
        every hand in its pots shown counts the player's equity at that moment times each
        pot (after rake) instead of what the run-out gave."""
        return self.totals.amounts["all_in_net"]

    @property
    def all_in_hands(self) -> int:
        """Hands counted at their equity in ``all_in_net``."""
        return self.totals.counts["all_in_adjusted"]

    @property
    def rake_paid(self) -> int:
        """Rake paid: in each hand, the hand's rake times the player's share of the chips
        put in the pot (shares that add up to the hand's rake)."""
        return self.totals.amounts["rake_paid"]

    @property
    def bb_per_100(self) -> float | None:
        """Win rate: profit in big blinds (each hand's own) per 100 hands, from the average
        big blind of the hands counted."""
        if self.hands == 0 or self.totals.big_blinds == 0:
            return None
        return 100.0 * self.net / (self.totals.big_blinds / self.hands) / self.hands

    def as_json(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in SHOWN}


SHOWN: Final = (
    "hands",
    "vpip",
    "pfr",
    "three_bet",
    "fold_to_three_bet",
    "cbet",
    "wtsd",
    "wsd",
    "won_without_showdown",
    "net",
    "net_showdown",
    "net_without_showdown",
    "all_in_net",
    "all_in_hands",
    "rake_paid",
    "bb_per_100",
)


@dataclass(frozen=True, slots=True)
class Filters:
    """Which hands count: a game (PHH code), a big blind, a date range (ends included, by
    the hand's end) and a position name; None is any."""

    game: str | None = None
    big_blind: int | None = None
    since: date | None = None
    until: date | None = None
    position: str | None = None

    def admit(self, facts: HandFacts) -> bool:
        day = facts.at.date()
        return (
            (self.game is None or facts.game == self.game)
            and (self.big_blind is None or facts.big_blind == self.big_blind)
            and (self.since is None or day >= self.since)
            and (self.until is None or day <= self.until)
            and (self.position is None or facts.position == self.position)
        )


EVERY_HAND: Final = Filters()


@dataclass(frozen=True, slots=True)
class Point:
    """A point of a profit line: hands (or the day) so far and the running sums."""

    hands: int
    net: int
    all_in_net: int
    net_showdown: int
    day: date | None = None
    hand: int | None = None  # the last hand of the point's run (or day), for the replayer
    table: str | None = None  # and its table


@dataclass(frozen=True, slots=True)
class KindResults:
    """Cash or tournament hands: the whole, each position's, and the profit lines."""

    overall: Results
    by_position: dict[str, Results]
    by_hands: list[Point]
    by_day: list[Point]

    def as_json(self) -> dict[str, object]:
        return {
            "overall": self.overall.as_json(),
            "by_position": {p: r.as_json() for p, r in self.by_position.items()},
            "by_hands": [_point_json(p) for p in self.by_hands],
            "by_day": [_point_json(p) for p in self.by_day],
        }


def _point_json(point: Point) -> dict[str, object]:
    shown: dict[str, object] = {
        "hands": point.hands,
        "net": point.net,
        "all_in_net": point.all_in_net,
        "net_showdown": point.net_showdown,
    }
    if point.day is not None:
        shown["day"] = point.day.isoformat()
    if point.hand is not None:
        shown["hand"], shown["table"] = point.hand, point.table
    return shown


@dataclass(frozen=True, slots=True)
class ResultsPage:
    """The "My results" page's data: cash and tournament hands apart."""

    cash: KindResults
    tournament: KindResults

    def as_json(self) -> dict[str, object]:
        return {"cash": self.cash.as_json(), "tournament": self.tournament.as_json()}


@dataclass(frozen=True, slots=True)
class Step:
    """A run of consecutive hands (or one day's) added up: what a profit line is made of,
    with its last hand (the highest id) and that hand's table."""

    hands: int
    net: int
    all_in_net: int
    net_showdown: int
    day: date | None = None
    hand: int | None = None
    table: str | None = None


def bucket_size(hands: int, points: int = SERIES_POINTS) -> int:
    """How many consecutive hands make one point of the profit-over-hands line."""
    return max(1, -(-hands // points))


def running(steps: Iterable[Step]) -> list[Point]:
    """The profit line through ``steps`` in order: the sums so far at the end of each."""
    points, hands, net, adjusted, showdown = [], 0, 0, 0, 0
    for step in steps:
        hands += step.hands
        net += step.net
        adjusted += step.all_in_net
        showdown += step.net_showdown
        points.append(Point(hands, net, adjusted, showdown, step.day, step.hand, step.table))
    return points


def kind_results(
    by_position: dict[str, Totals], by_hands: Sequence[Step], by_day: Sequence[Step]
) -> KindResults:
    """One kind's results from its totals per position and its steps (hand-ordered runs and
    days): the one assembly both the store's query and ``results_page`` use."""
    overall = Totals()
    for totals in by_position.values():
        overall.merge(totals)
    return KindResults(
        overall=Results(overall),
        by_position={p: Results(t) for p, t in sorted(by_position.items())},
        by_hands=running(by_hands),
        by_day=running(by_day),
    )


def results_page(
    facts: Iterable[HandFacts], filters: Filters = EVERY_HAND, points: int = SERIES_POINTS
) -> ResultsPage:
    """The page from facts in memory (a replay of records, or tests): hands in the order
    given (oldest first), those ``filters`` admit."""
    kinds: dict[bool, list[HandFacts]] = {False: [], True: []}
    for f in facts:
        if filters.admit(f):
            kinds[f.tournament].append(f)
    built = {}
    for tournament, chosen in kinds.items():
        positions: dict[str, Totals] = {}
        for f in chosen:
            positions.setdefault(f.position, Totals()).add(f)
        size = bucket_size(len(chosen), points)
        runs = [_step(chosen[k : k + size]) for k in range(0, len(chosen), size)]
        days: dict[date, list[HandFacts]] = {}
        for f in chosen:
            days.setdefault(f.at.date(), []).append(f)
        daily = [_step(days[d], d) for d in sorted(days)]
        built[tournament] = kind_results(positions, runs, daily)
    return ResultsPage(cash=built[False], tournament=built[True])


def _step(facts: Sequence[HandFacts], day: date | None = None) -> Step:
    last = max(facts, key=lambda f: f.hand_id)
    return Step(
        hands=len(facts),
        net=sum(f.net for f in facts),
        all_in_net=sum(f.all_in_net for f in facts),
        net_showdown=sum(f.net for f in facts if f.showdown),
        day=day,
        hand=last.hand_id,
        table=last.table_id,
    )


def day_of(value: datetime | date | str) -> date:
    """A day as a database gives it back (a date, a datetime, or SQLite's text)."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])
