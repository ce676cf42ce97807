"""One player's facts of one hand: what "My results" adds up, read from the hand as that
player may see it (``ViewerHand``: their own cards, and the cards shown at showdown).

Every statistic a player knows is a count of chances and a count of times taken; this
module decides, once, what each counts in one hand (``HandFacts``); ``history.results``
adds hands up and divides, and the store keeps one row of these facts per hand and
player (written when the hand ends) so that adding up 100,000 hands is one query.

Positions are named for the number dealt in (``position_name``). Amounts are the hand's
own units: money at a cash table, tournament chips at a tournament's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Final

import numpy as np

from pokerroom.cards import Card
from pokerroom.engine.events import (
    ActionTaken,
    BoardDealt,
    Event,
    ForcedBet,
    Move,
    PotAwarded,
    UncalledBetReturned,
)
from pokerroom.engine.hand import Phase
from pokerroom.engine.pots import build_pots, take_rake
from pokerroom.evaluation.equity import equity
from pokerroom.evaluation.variant import Variant
from pokerroom.history.viewer import ViewerHand

# Boards sampled for an all-in's equity when there are more completions than this (only
# before the flop): exhaustive on the flop and the turn. Seeded by the hand's deck, so the
# row written at the hand's end and a replay of its record agree to the chip.
ALL_IN_SAMPLES: Final = 5_000

_LATE: Final = ("BTN", "CO", "HJ", "LJ")  # from the button back


def position_name(position: int, players: int) -> str:
    """The name of a position (0 = first left of the button, last = the button) among
    ``players`` dealt in: SB, BB, then UTG, UTG+1.. up to the late positions LJ, HJ, CO, BTN.
    Heads-up the button is the small blind, named BTN, and position 0 is the BB.

    >>> [position_name(p, 6) for p in range(6)]
    ['SB', 'BB', 'UTG', 'HJ', 'CO', 'BTN']
    >>> [position_name(p, 2) for p in range(2)], [position_name(p, 3) for p in range(3)]
    (['BB', 'BTN'], ['SB', 'BB', 'BTN'])
    >>> [position_name(p, 9) for p in range(2, 9)]
    ['UTG', 'UTG+1', 'UTG+2', 'LJ', 'HJ', 'CO', 'BTN']
    """
    if not 0 <= position < players:
        raise ValueError(f"position {position} is not one of {players} players'")
    if players == 2:
        return "BB" if position == 0 else "BTN"
    if position < 2:
        return ("SB", "BB")[position]
    middle = players - 2  # the seats after the blinds, UTG first, the button last
    late = max(1, min(len(_LATE), middle - 1))  # the button, UTG, then the late ones
    from_button = players - 1 - position
    if from_button < late:
        return _LATE[from_button]
    step = position - 2
    return "UTG" if step == 0 else f"UTG+{step}"


@dataclass(frozen=True, slots=True)
class HandFacts:
    """One player's hand: where and what it was, the chances they had and took (0 or 1),
    and its amounts. The counts are summed as they are; ``history.results`` defines each
    statistic from the sums."""

    hand_id: int
    account: int
    at: datetime  # when the hand ended
    table_id: str
    game: str  # the PHH code, e.g. "NT"
    big_blind: int
    tournament: bool
    position: str  # position_name
    players: int  # dealt in
    # The counts (see history.results for what each statistic makes of them).
    preflop_acted: int  # had a pre-flop decision (a walk has none)
    vpip: int  # called or raised pre-flop
    pfr: int  # raised pre-flop
    three_bet_chance: int  # acted pre-flop facing exactly one raise
    three_bet: int  # ...and raised it
    fold_to_three_bet_chance: int  # made the first raise and acted facing the second
    fold_to_three_bet: int  # ...and folded
    cbet_chance: int  # made the last pre-flop raise and was first to bet on the flop
    cbet: int  # ...and bet
    saw_flop: int  # still in when the flop was dealt
    showdown: int  # still in at a showdown
    won_showdown: int  # took chips from a pot at a showdown
    won_without_showdown: int  # took the pot when everyone else folded
    all_in_adjusted: int  # all in before the river with every hand shown (all_in_net)
    # The amounts.
    net: int  # stack after minus stack before
    all_in_net: int  # net, with an all-in before the river counted at its equity
    rake_paid: int  # the player's share of the hand's rake, by what they put in


# The 0-or-1 counts and the amounts of ``HandFacts``, in order: what is summed.
COUNTS: Final = (
    "preflop_acted",
    "vpip",
    "pfr",
    "three_bet_chance",
    "three_bet",
    "fold_to_three_bet_chance",
    "fold_to_three_bet",
    "cbet_chance",
    "cbet",
    "saw_flop",
    "showdown",
    "won_showdown",
    "won_without_showdown",
    "all_in_adjusted",
)
AMOUNTS: Final = ("net", "all_in_net", "rake_paid")


@dataclass(slots=True)
class _Preflop:
    """A player's pre-flop, followed action by action."""

    acted: bool = False
    vpip: bool = False
    pfr: bool = False
    three_bet_chance: bool = False
    three_bet: bool = False
    fold_chance: bool = False
    folded_to_three_bet: bool = False


def hand_facts(
    view: ViewerHand,
    *,
    hand_id: int,
    account: int,
    at: datetime,
    table_id: str,
    tournament: bool,
) -> HandFacts:
    """The facts of a finished, complete hand for its viewer (a position), read from the
    hand's events and only the cards the viewer may see."""
    hand, me = view.hand, view.viewer
    if me is None or not 0 <= me < hand.n:
        raise ValueError("a hand's facts are a player's: the viewer must be a position")
    if hand.phase is not Phase.COMPLETE:
        raise ValueError(f"hand {hand_id} is {hand.phase.value}: only complete hands count")
    events = hand.events
    pre = _Preflop()
    raises = 0  # pre-flop bets and raises so far (the blinds not counted)
    first_raiser: int | None = None
    last_raiser: int | None = None
    boards = 0
    saw_flop = cbet_chance = cbet = False
    flop_bet = False  # someone bet on the flop before the player's first flop action
    flop_acted = False
    folded = [False] * hand.n
    for event in events:
        if isinstance(event, BoardDealt):
            boards += 1
            if boards == 1:
                saw_flop = not folded[me]
            continue
        if not isinstance(event, ActionTaken):
            continue
        who, move = event.position, event.action
        aggressive = move is Move.RAISE or move is Move.BET
        if boards == 0:
            if who == me:
                pre.acted = True
                pre.vpip = pre.vpip or move is Move.CALL or aggressive
                pre.pfr = pre.pfr or aggressive
                if raises == 1 and first_raiser != me and not pre.three_bet_chance:
                    pre.three_bet_chance, pre.three_bet = True, aggressive
                if raises == 2 and first_raiser == me and not pre.fold_chance:
                    pre.fold_chance, pre.folded_to_three_bet = True, move is Move.FOLD
            if aggressive:
                raises += 1
                first_raiser = who if first_raiser is None else first_raiser
                last_raiser = who
        elif boards == 1:
            if who == me and not flop_acted:
                flop_acted = True
                if last_raiser == me and not flop_bet:
                    cbet_chance, cbet = True, move is Move.BET
            flop_bet = flop_bet or aggressive
        if move is Move.FOLD:
            folded[who] = True
    won = any(
        chips > 0 and p == me for e in events if isinstance(e, PotAwarded) for p, chips in e.winners
    )
    at_showdown = sum(1 for f in folded if not f) >= 2
    showdown = at_showdown and not folded[me]
    net = hand.stacks[me] - hand.starting_stacks[me]
    adjusted = _all_in_net(view, events, folded, net) if showdown else None
    return HandFacts(
        hand_id=hand_id,
        account=account,
        at=at,
        table_id=table_id,
        game=hand.spec.phh_code,
        big_blind=hand.big_blind,
        tournament=tournament,
        position=position_name(me, hand.n),
        players=hand.n,
        preflop_acted=int(pre.acted),
        vpip=int(pre.vpip),
        pfr=int(pre.pfr),
        three_bet_chance=int(pre.three_bet_chance),
        three_bet=int(pre.three_bet),
        fold_to_three_bet_chance=int(pre.fold_chance),
        fold_to_three_bet=int(pre.folded_to_three_bet),
        cbet_chance=int(cbet_chance),
        cbet=int(cbet),
        saw_flop=int(saw_flop),
        showdown=int(showdown),
        won_showdown=int(showdown and won),
        won_without_showdown=int(won and not at_showdown),
        all_in_adjusted=int(adjusted is not None),
        net=net,
        all_in_net=net if adjusted is None else adjusted,
        rake_paid=rake_shares(view)[me],
    )


def _contributions(view: ViewerHand) -> tuple[list[int], int]:
    """What each position put towards bets (live, net of any uncalled bet returned), and
    the dead money, from the hand's events."""
    hand = view.hand
    live, dead = [0] * hand.n, 0
    for event in hand.events:
        if isinstance(event, ForcedBet):
            if event.dead:
                dead += event.amount
            else:
                live[event.position] += event.amount
        elif isinstance(event, ActionTaken):
            live[event.position] += event.added
        elif isinstance(event, UncalledBetReturned):
            live[event.position] -= event.amount
    return live, dead


def rake_shares(view: ViewerHand) -> list[int]:
    """Each position's share of the hand's rake, in proportion to what it put in the pot
    ("contributed rake"); the shares add up to the rake exactly (largest remainders, ties to
    the earlier position)."""
    hand = view.hand
    live, dead = _contributions(view)
    put = [live[i] for i in range(hand.n)]
    total = sum(put) + dead
    if hand.rake == 0 or total == 0:
        return [0] * hand.n
    shares = [hand.rake * p // total for p in put]
    left = hand.rake - sum(shares)
    order = sorted(range(hand.n), key=lambda i: (-(hand.rake * put[i] % total), i))
    for i in order[:left]:
        shares[i] += 1
    return shares


@lru_cache(maxsize=64)
def _equities(
    variant: Variant,
    hands: tuple[tuple[Card, ...], ...],
    board: tuple[Card, ...],
    deck: tuple[int, ...],
) -> tuple[float, ...]:
    """Each hand's equity in a pot; the same for every player of the hand, so computed
    once for all of them (the cache), sampled with the hand's deck as the seed."""
    if len(hands) == 1:
        return (1.0,)
    result = equity(
        hands, board=board, game=variant, samples=ALL_IN_SAMPLES, rng=np.random.default_rng(deck)
    )
    return tuple(h.equity for h in result.hands)


def _all_in_net(view: ViewerHand, events: list[Event], folded: list[bool], net: int) -> int | None:
    """The player's result with an all-in before the river counted at its equity: for each
    pot (after the rake) the player's equity among the hands eligible for it, on the board
    as it was when the last action was taken, times the pot; instead of what the run-out
    gave. None when there was no such all-in (the river was dealt before the last action),
    or when a hand in a pot was not shown to the player (nothing to compute it from)."""
    hand, me = view.hand, view.viewer
    assert me is not None
    last = max((k for k, e in enumerate(events) if isinstance(e, ActionTaken)), default=-1)
    board = tuple(card for e in events[: last + 1] if isinstance(e, BoardDealt) for card in e.cards)
    if len(board) >= 5:
        return None
    live, dead = _contributions(view)
    pots = take_rake(build_pots(live, dead, [not f for f in folded]), hand.rake)
    if any(view.cards(i) is None for pot in pots for i in pot.eligible):
        return None
    won = sum(
        chips for e in events if isinstance(e, PotAwarded) for p, chips in e.winners if p == me
    )
    expected = 0.0
    for pot in pots:
        if me not in pot.eligible or pot.amount == 0:
            continue
        hands = tuple(view.cards(i) or () for i in pot.eligible)
        share = _equities(hand.variant, hands, board, tuple(hand.deck))
        expected += share[pot.eligible.index(me)] * pot.amount
    return net - won + round(expected)
