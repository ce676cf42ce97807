"""The award: the rake, then every pot paid to its winners (side pots first)."""

from __future__ import annotations

from pokerroom.engine.events import HandEnded, PotAwarded, PotShare, RakeTaken
from pokerroom.engine.pots import split, take_rake
from pokerroom.engine.showdown import (
    board_value,
    describe_high,
    describe_low,
    hand_value,
    shown_hand_name,
)
from pokerroom.engine.state import HandState, Phase


def rake_for(h: HandState, total: int) -> int:
    schedule = h._rake_schedule
    if schedule is None or total == 0:
        return 0
    if h.house.no_flop_no_drop and not h.board:
        return 0  # R-RAKE-1
    return schedule.rake(
        total,
        players=h.n,
        structure=h.structure,
        big_blind=h.big_blind,
        min_rake=h.house.min_rake,
    )


def award(h: HandState) -> None:
    """Take the rake and pay every pot; the hand is complete."""
    h._set_phase(Phase.COMPLETE)
    h.actor = None
    pots = h.pots()
    total = sum(p.amount for p in pots)
    h.rake = rake_for(h, total)
    if h.rake:
        h._emit(RakeTaken(amount=h.rake, pot=total))
        pots = take_rake(pots, h.rake)
    strengths: dict[int, tuple[int, int]] = {}
    second: dict[int, tuple[int, int]] = {}  # R-RIT-1: the hands on the second board
    # R-POT-3: side pots first, from the last created to the main pot.
    for index in range(len(pots) - 1, -1, -1):
        pot = pots[index]
        if pot.amount == 0:
            continue
        contenders = [i for i in pot.eligible if h.in_hand(i)]
        if len(contenders) == 1:
            winner = contenders[0]
            name = shown_hand_name(h, winner) if h.shown[winner] else ""
            _pay(h, index, pot.amount, PotShare.WHOLE, [winner], name, 0)
            continue
        for i in contenders:
            if i not in strengths:
                strengths[i] = hand_value(h, i)
        if h.runs == 1:
            _share(h, index, pot.amount, contenders, strengths, 0)
            continue
        # R-RIT-1: half the pot to each board, the odd chip to the first run's half.
        for i in contenders:
            if i not in second:
                second[i] = board_value(h, i, h.second_board)
        half = pot.amount // 2
        _share(h, index, pot.amount - half, contenders, strengths, 1)
        _share(h, index, half, contenders, second, 2)
    for i in range(h.n):
        h.live[i] = 0
        h.dead[i] = 0
    h._in_pot = 0
    h._emit(HandEnded(stacks=tuple(h.stacks)))


def _share(
    h: HandState,
    index: int,
    amount: int,
    contenders: list[int],
    strengths: dict[int, tuple[int, int]],
    run: int,
) -> None:
    """Pay ``amount`` of pot ``index`` by the hands' (high, low) values on one board."""
    best_high = max(strengths[i][0] for i in contenders)
    high_winners = [i for i in contenders if strengths[i][0] == best_high]
    best_low = max(strengths[i][1] for i in contenders)
    if best_low:  # R-HILO-1; R-HILO-6: the odd chip between halves goes high
        low_winners = [i for i in contenders if strengths[i][1] == best_low]
        low_half = amount // 2
        high = describe_high(best_high)
        _pay(h, index, amount - low_half, PotShare.HIGH, high_winners, high, run)
        _pay(h, index, low_half, PotShare.LOW, low_winners, describe_low(best_low), run)
    else:  # R-HILO-5, or a high-only game
        _pay(h, index, amount, PotShare.WHOLE, high_winners, describe_high(best_high), run)


def _pay(
    h: HandState,
    index: int,
    amount: int,
    share: PotShare,
    winners: list[int],
    hand: str,
    run: int,
) -> None:
    shares = split(amount, winners)
    for i, chips in shares:
        h.stacks[i] += chips
        h.winnings[i] += chips
    h._emit(
        PotAwarded(pot=index, amount=amount, share=share, winners=tuple(shares), hand=hand, run=run)
    )
