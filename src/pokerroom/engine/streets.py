"""The flow of a hand: the posts and the deal, whose turn it is, the end of a betting
round, the streets, and the turns at showdown until the award."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from pokerroom.cards import FULL_DECK
from pokerroom.engine.award import award
from pokerroom.engine.events import (
    BoardDealt,
    ForcedBet,
    ForcedBetKind,
    HoleCardsDealt,
    UncalledBetReturned,
)
from pokerroom.engine.runout import deal_second_board, offer_runout
from pokerroom.engine.showdown import muck, show, shows_automatically, start_showdown, uncontested
from pokerroom.engine.state import BOARD_SIZES, STREETS, HandState

# The forced-bet kinds as compiled constants: read on every post of every hand.
_ANTE: Final = ForcedBetKind.ANTE
_BIG_BLIND_ANTE: Final = ForcedBetKind.BIG_BLIND_ANTE
_SMALL_BLIND: Final = ForcedBetKind.SMALL_BLIND
_BIG_BLIND: Final = ForcedBetKind.BIG_BLIND
_STRADDLE: Final = ForcedBetKind.STRADDLE


def post_forced(h: HandState, i: int, amount: int, what: ForcedBetKind, *, dead: bool) -> None:
    paid = min(amount, h.stacks[i])  # R-BLIND-7: post what you have, all-in
    h.stacks[i] -= paid
    h._in_pot += paid
    if dead:
        h.dead[i] += paid
    else:
        h.live[i] += paid
        if what is not _ANTE and what is not _BIG_BLIND_ANTE:  # in the pot, not the bet
            # (a bomb pot is posted as a live ante, R-BOMB-1)
            h.bets[i] += paid
    if h.stacks[i] == 0:
        h.all_in[i] = True
        h.out[i] = True
    h._emit(
        ForcedBet(
            position=i,
            seat=h.seats[i],
            what=what,
            amount=paid,
            dead=dead,
            all_in=h.all_in[i],
        )
    )


def deal_hole_cards(h: HandState) -> None:
    # R-BTN-3: one card at a time, starting left of the button, the button last.
    for _ in range(h.spec.hole_cards):
        for i in range(h.n):
            h.hole[i].append(h._draw())
    for i in range(h.n):
        h._emit(HoleCardsDealt(position=i, seat=h.seats[i], cards=h.hole_cards(i)))


def needs_action(h: HandState, i: int) -> bool:
    if h.out[i]:
        return False
    if h.bets[i] < h.current_bet and (not h._short_blind or h._owed(i) > 0):
        return True
    return not h.acted[i] and h._others_can_act(i)


def start_round(h: HandState, first: int) -> None:
    h.actor = None
    for k in range(h.n):
        i = (first + k) % h.n
        if needs_action(h, i):
            h.actor = i
            return
    end_round(h)


def advance(h: HandState, last: int) -> None:
    if h._remaining == 1:
        end_round(h)
        return
    n, out, bets, acted, bet = h.n, h.out, h.bets, h.acted, h.current_bet
    for k in range(1, n + 1):
        i = (last + k) % n
        if out[i]:
            continue
        if (bets[i] < bet and (not h._short_blind or h._owed(i) > 0)) or (
            not acted[i] and h._others_can_act(i)
        ):
            h.actor = i
            return
    end_round(h)


def return_uncalled(h: HandState) -> None:
    """R-POT-4: the uncalled part of the largest bet goes back before anything else."""
    bets = h.bets
    top, second = 0, 0  # the largest bet (first such position) and the next largest
    for j in range(1, h.n):
        if bets[j] > bets[top]:
            top = j
    for j in range(h.n):
        if j != top and bets[j] > second:
            second = bets[j]
    excess = bets[top] - second
    if excess > 0:
        h.bets[top] -= excess
        h.live[top] -= excess
        h._in_pot -= excess
        h.stacks[top] += excess
        if h.stacks[top] > 0 and h.all_in[top]:
            h.all_in[top] = False
            h.out[top] = h.folded[top] or h.protected[top]
        h._emit(UncalledBetReturned(position=top, seat=h.seats[top], amount=excess))


def end_round(h: HandState) -> None:
    h.actor = None
    return_uncalled(h)
    h.bets = [0] * h.n
    alive = [i for i in range(h.n) if not h.folded[i]]
    if len(alive) == 1:
        award(h)
        return
    able = 0
    for i in alive:
        if not h.out[i]:
            able += 1
    if h.street == 3 or able < 2:
        start_showdown(h)
        next_shower(h)
        return
    deal_street(h)
    h.current_bet = 0
    h.last_raise = h._limit_size() if h._fixed_limit else h.big_blind
    h.full_level = 0
    h._short_blind = False
    h.raises = 0
    h.aggressor = None
    h.acted = [False] * h.n
    h.matched_at = [0] * h.n
    start_round(h, 0)


def deal_street(h: HandState) -> None:
    h.street += 1
    h._draw()  # R-DECK-3: burn one before the flop, the turn and the river
    new = [h._draw() for _ in range(BOARD_SIZES[h.street] - len(h.board))]
    h.board.extend(new)
    h._emit(BoardDealt(street=STREETS[h.street], cards=tuple([FULL_DECK[c] for c in new])))


def next_shower(h: HandState) -> None:
    while h.showdown_order:
        i = h.showdown_order[0]
        if uncontested(h, i):  # R-POT-5: nobody left to show against
            h.showdown_order.pop(0)
            continue
        if h.auto_showdown:
            h.showdown_order.pop(0)
            if shows_automatically(h, i):
                show(h, i)
            else:
                muck(h, i)
            continue
        h.actor = i
        return
    h.actor = None
    if len(h.board) < 5 and offer_runout(h):  # R-RIT-1: the players still in decide
        return
    run_out(h)


def run_out(h: HandState) -> None:
    """Deal the rest of the board (twice when the players agreed, R-RIT-1) and award."""
    shared, street = len(h.board), h.street
    while len(h.board) < 5:
        deal_street(h)
    if h.runs == 2:
        deal_second_board(h, shared, street)
    award(h)


def blind_names(blinds: Sequence[int]) -> list[ForcedBetKind | None]:
    """Name each position's blind: small, big, then straddles (heads-up: reversed)."""
    names: list[ForcedBetKind | None] = [None] * len(blinds)
    posters = [i for i, b in enumerate(blinds) if b]
    if len(blinds) == 2 and len(posters) == 2:
        names[0], names[1] = _BIG_BLIND, _SMALL_BLIND
        return names
    labels = [_SMALL_BLIND, _BIG_BLIND] if len(posters) >= 2 else [_BIG_BLIND]
    for n, i in enumerate(posters):
        names[i] = labels[n] if n < len(labels) else _STRADDLE
    return names


def counts_as_bet(name: ForcedBetKind | None) -> bool:
    """R-LIM-2: pre-flop the big blind counts as the bet (a straddle as a raise)."""
    return name is _BIG_BLIND or name is _STRADDLE
