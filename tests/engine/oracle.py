"""An independent pot oracle: what a finished hand must pay, rebuilt from its events alone.

It shares no code with the engine's pots, showdown or award: it reads each player's
contributions, folds, mucks and shown cards from the events, layers the pots itself,
evaluates the shown hands with ``pokerroom.evaluation``, takes the rake by the house's
schedule data and splits every pot (and every hi-lo half) by R-SHOW-6 and R-HILO-6.
A test compares its payouts with the engine's ``PotAwarded`` events chip for chip.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pokerroom.cards import Card
from pokerroom.engine.events import (
    ActionTaken,
    BoardDealt,
    CardsShown,
    Event,
    ForcedBet,
    HandEnded,
    HandMucked,
    HandStarted,
    PotAwarded,
    RakeTaken,
    UncalledBetReturned,
)
from pokerroom.evaluation import best_hand, omaha_best_hand, omaha_low
from pokerroom.rules.game import GameSpec, Variant
from pokerroom.rules.house import HouseOptions

#: One payout: (pot index, amount, share, ((position, chips), ...)), as PotAwarded has it.
Payout = tuple[int, int, str, tuple[tuple[int, int], ...]]


@dataclass
class Ledger:
    """What the events say each player put in and how the hand stood at its end."""

    n: int = 0
    start: tuple[int, ...] = ()
    live: list[int] = field(default_factory=list)
    dead: list[int] = field(default_factory=list)
    folded: set[int] = field(default_factory=set)
    mucked: set[int] = field(default_factory=set)
    shown: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    board: list[Card] = field(default_factory=list)


def read_events(events: list[Event]) -> Ledger:
    ledger = Ledger()
    for event in events:
        if isinstance(event, HandStarted):
            ledger.n = len(event.seats)
            ledger.start = event.stacks
            ledger.live = [0] * ledger.n
            ledger.dead = [0] * ledger.n
        elif isinstance(event, ForcedBet):
            if event.dead:
                ledger.dead[event.position] += event.amount
            else:
                ledger.live[event.position] += event.amount
        elif isinstance(event, ActionTaken):
            ledger.live[event.position] += event.added
            if event.action == "fold":
                ledger.folded.add(event.position)
        elif isinstance(event, UncalledBetReturned):
            ledger.live[event.position] -= event.amount
        elif isinstance(event, BoardDealt):
            ledger.board.extend(event.cards)
        elif isinstance(event, CardsShown):
            ledger.shown[event.position] = event.cards
        elif isinstance(event, HandMucked):
            ledger.mucked.add(event.position)
    return ledger


def layered_pots(ledger: Ledger) -> list[tuple[int, list[int]]]:
    """(amount, eligible positions) main pot first: one layer per contribution level of
    the players with a claim; chips beyond the top level belong to the top layer, dead
    money to the main pot (R-POT-1, R-POT-2)."""
    claim = [i for i in range(ledger.n) if i not in ledger.folded and i not in ledger.mucked]
    levels = sorted({ledger.live[i] for i in claim if ledger.live[i] > 0})
    pots: list[tuple[int, list[int]]] = []
    below = 0
    for k, level in enumerate(levels):
        top = level if k + 1 < len(levels) else max(ledger.live)
        amount = sum(max(0, min(c, top) - below) for c in ledger.live)
        pots.append((amount, [i for i in claim if ledger.live[i] >= level]))
        below = top
    if not pots:
        pots.append((sum(ledger.live), claim))
    pots[0] = (pots[0][0] + sum(ledger.dead), pots[0][1])
    return pots


def schedule_rake(house: HouseOptions, spec: GameSpec, players: int, total: int, flop: bool) -> int:
    """The rake by the schedule's own rows (R-RAKE-1 .. R-RAKE-4)."""
    schedule = house.rake_schedule()
    if schedule is None or total == 0 or (house.no_flop_no_drop and not flop):
        return 0
    band = next(b for b in schedule.bands if b.covers(spec.structure, spec.stakes.big_blind))
    rows = [r for r in band.rows if r.min_players <= players <= r.max_players]
    row = rows[0] if rows else band.rows[-1]  # R-RAKE-5: past the last row, the last row
    if row.thresholds:
        value = max([amount for threshold, amount in row.thresholds if total >= threshold] or [0])
    else:
        value = total // row.step * row.per_step
    value = min(value, row.cap)
    floor = band.min_rake if house.min_rake is None else house.min_rake
    return value if value >= floor else 0


def share_out(amount: int, winners: list[int], n: int) -> tuple[tuple[int, int], ...]:
    """Equal shares; the odd chips one at a time to the winners in turn from the first seat
    left of the button (position 0) clockwise (R-SHOW-6)."""
    chips = dict.fromkeys(winners, amount // len(winners))
    odd = amount - sum(chips.values())
    for position in range(n):  # clockwise from the first seat left of the button
        if odd and position in chips:
            chips[position] += 1
            odd -= 1
    return tuple(sorted(chips.items()))


def _high(spec: GameSpec, hole: tuple[Card, ...], board: list[Card]) -> int:
    if spec.variant is Variant.HOLDEM:
        return best_hand([*hole, *board]).strength
    return omaha_best_hand(hole, board).strength


@dataclass
class Outcome:
    rake: int
    payouts: list[Payout]
    stacks: tuple[int, ...]


def expected_outcome(spec: GameSpec, house: HouseOptions, events: list[Event]) -> Outcome:
    ledger = read_events(events)
    pots = layered_pots(ledger)
    total = sum(amount for amount, _ in pots)
    rake = schedule_rake(house, spec, ledger.n, total, bool(ledger.board))
    left = rake
    raked = []
    for amount, eligible in pots:  # R-RAKE-5: from the main pot first
        taken = min(left, amount)
        left -= taken
        raked.append((amount - taken, eligible))
    payouts: list[Payout] = []
    for index in range(len(raked) - 1, -1, -1):  # R-POT-3: the last side pot first
        amount, eligible = raked[index]
        if amount == 0:
            continue
        if len(eligible) == 1:
            payouts.append((index, amount, "whole", ((eligible[0], amount),)))
            continue
        missing = [i for i in eligible if i not in ledger.shown]
        assert not missing, f"pot {index} is contested but {missing} never showed"
        assert len(ledger.board) == 5, f"pot {index} is contested on a board of {ledger.board}"
        high = {i: _high(spec, ledger.shown[i], ledger.board) for i in eligible}
        low = dict.fromkeys(eligible, 0)
        if spec.hi_lo:
            for i in eligible:
                value = omaha_low(ledger.shown[i], ledger.board)
                low[i] = value.score if value is not None else 0
        high_winners = [i for i in eligible if high[i] == max(high.values())]
        if max(low.values()) > 0:  # R-HILO-1; R-HILO-6: the odd chip between halves goes high
            low_winners = [i for i in eligible if low[i] == max(low.values())]
            low_half = amount // 2
            payouts.append(
                (
                    index,
                    amount - low_half,
                    "high",
                    share_out(amount - low_half, high_winners, ledger.n),
                )
            )
            payouts.append((index, low_half, "low", share_out(low_half, low_winners, ledger.n)))
        else:
            payouts.append((index, amount, "whole", share_out(amount, high_winners, ledger.n)))
    won = [0] * ledger.n
    for _, _, _, shares in payouts:
        for position, chips in shares:
            won[position] += chips
    stacks = tuple(
        ledger.start[i] - ledger.live[i] - ledger.dead[i] + won[i] for i in range(ledger.n)
    )
    return Outcome(rake, payouts, stacks)


def engine_outcome(events: list[Event]) -> Outcome:
    rake = sum(e.amount for e in events if isinstance(e, RakeTaken))
    payouts = [(e.pot, e.amount, e.share, e.winners) for e in events if isinstance(e, PotAwarded)]
    ended = [e for e in events if isinstance(e, HandEnded)]
    assert len(ended) == 1, "a finished hand ends once"
    return Outcome(rake, payouts, ended[0].stacks)
