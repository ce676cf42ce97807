"""All-in equity for Hold'em, Omaha and Omaha Hi-Lo, 2 to 10 hands.

Exhaustive over every board completion when there are few enough, Monte Carlo
otherwise (with each equity's standard error). Hold'em's exhaustive count goes by
board rank classes (exact.py): every board counted, a few thousand evaluated.
For hi-lo each board's pot is split as the room would split it (R-HILO-1,
R-HILO-3, R-HILO-5): a *win* is a scoop of the whole pot, a *tie* any board
where the hand takes part of it, and *equity* the expected share.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import comb
from typing import Final

import numpy as np
import numpy.typing as npt

from pokerroom.cards import DECK_SIZE, Card, ensure_distinct
from pokerroom.evaluation.batch import evaluate7_batch, omaha_high_batch, omaha_low_batch
from pokerroom.evaluation.exact import combinations_array, holdem_exact
from pokerroom.evaluation.variant import Variant

EXHAUSTIVE_LIMIT: Final = 2_000_000  # boards; above this, Monte Carlo
DEFAULT_SAMPLES: Final = 100_000
_BOARDS_PER_STEP: Final = 1 << 17

Progress = Callable[[int, int], None]  # (boards done, boards in all)


class EquityError(ValueError):
    """An equity question that has no answer: too few hands, wrong card counts..."""


@dataclass(frozen=True, slots=True)
class HandEquity:
    """One hand's result over ``boards`` boards: wins (scoops), ties, and share of the pots.

    ``stderr`` is the standard error of ``equity`` when the boards were sampled, 0.0 when
    every board was dealt."""

    hand: tuple[Card, ...]
    wins: int
    ties: int
    boards: int
    share: float  # pots won, in whole pots
    stderr: float = 0.0

    @property
    def equity(self) -> float:
        return self.share / self.boards

    @property
    def losses(self) -> int:
        return self.boards - self.wins - self.ties


@dataclass(frozen=True, slots=True)
class EquityResult:
    hands: tuple[HandEquity, ...]
    boards: int
    exhaustive: bool


def _random_subsets(n: int, k: int, count: int, rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """``count`` uniform k-subsets of range(n), by rejecting draws with a repeat."""
    out = np.empty((count, k), dtype=np.uint8)
    todo = np.arange(count)
    while todo.size:
        draw = rng.integers(0, n, size=(todo.size, k), dtype=np.uint8)
        seen = np.zeros(todo.size, dtype=np.uint64)
        for column in draw.T:
            seen |= np.left_shift(np.uint64(1), column.astype(np.uint64))
        ok = np.bitwise_count(seen) == k  # n <= 52: one bit per card fits
        out[todo[ok]] = draw[ok]
        todo = todo[~ok]
    return out


def standard_errors(
    total: npt.NDArray[np.float64], squares: npt.NDArray[np.float64], count: int
) -> npt.NDArray[np.float64]:
    """Standard errors of the means of ``count`` samples, from their sums and sums of squares."""
    mean = total / count
    variance = np.maximum(squares / count - mean * mean, 0.0) * count / max(count - 1, 1)
    errors: npt.NDArray[np.float64] = np.sqrt(variance / count)
    return errors


def _validate(
    hands: Sequence[Sequence[Card]], board: Sequence[Card], dead: Sequence[Card], game: Variant
) -> None:
    if not 2 <= len(hands) <= 10:
        raise EquityError(f"equity needs 2 to 10 hands, got {len(hands)}")
    for hand in hands:
        if len(hand) != game.hole_cards:
            shown = "".join(str(c) for c in hand)
            raise EquityError(
                f"{game.label} hands have {game.hole_cards} cards, {shown!r} has {len(hand)}"
            )
    if len(board) > 5 or len(board) in (1, 2):
        raise EquityError(f"a board has 0, 3, 4 or 5 cards, got {len(board)}")
    ensure_distinct([*(c for h in hands for c in h), *board, *dead])
    known = sum(len(h) for h in hands) + len(board) + len(dead)
    if DECK_SIZE - known < 5 - len(board):
        raise EquityError("not enough cards left in the deck to complete the board")


def _strengths(
    game: Variant, hands: list[list[int]], boards: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64] | None]:
    """High strengths (hands x boards) and, for hi-lo, low scores."""
    n = len(boards)
    high = np.empty((len(hands), n), dtype=np.int64)
    low = np.empty((len(hands), n), dtype=np.int64) if game.hi_lo else None
    for i, hand in enumerate(hands):
        hole = np.broadcast_to(np.array(hand, dtype=np.int64), (n, len(hand)))
        if not game.two_plus_three:
            high[i] = evaluate7_batch(np.hstack((hole, boards)))
        else:
            high[i] = omaha_high_batch(hole, boards)
            if low is not None:
                low[i] = omaha_low_batch(hole, boards)
    return high, low


def _shares(
    high: npt.NDArray[np.int64], low: npt.NDArray[np.int64] | None
) -> npt.NDArray[np.float64]:
    """Each hand's share of each board's pot (hands x boards)."""
    high_win = high == high.max(axis=0)
    high_share: npt.NDArray[np.float64] = high_win / high_win.sum(axis=0)
    if low is None:
        return high_share
    best_low = low.max(axis=0)
    low_win = (low == best_low) & (best_low > 0)
    split = best_low > 0  # R-HILO-5: no low, the high takes all
    low_share = low_win / np.maximum(low_win.sum(axis=0), 1)
    shares: npt.NDArray[np.float64] = np.where(
        split, 0.5 * high_share + 0.5 * low_share, high_share
    )
    return shares


def equity(
    hands: Sequence[Sequence[Card]],
    *,
    board: Sequence[Card] = (),
    dead: Sequence[Card] = (),
    game: Variant | str = Variant.HOLDEM,
    samples: int | None = None,
    rng: np.random.Generator | None = None,
    progress: Progress | None = None,
) -> EquityResult:
    """Each hand's wins, ties and equity over the boards that complete ``board``.

    Exhaustive when the completions number at most ``EXHAUSTIVE_LIMIT`` (or
    ``samples``), Monte Carlo with ``samples`` boards (default 100,000) otherwise.

    >>> from pokerroom.cards import parse_cards
    >>> r = equity([parse_cards("AhKh"), parse_cards("QsQd")], board=parse_cards("Ks7d2c"))
    >>> r.exhaustive, r.boards, r.hands[0].wins
    (True, 990, 903)
    """
    game = Variant(game)
    _validate(hands, board, dead, game)
    known = {c.code for h in hands for c in h} | {c.code for c in (*board, *dead)}
    remaining = np.array([c for c in range(DECK_SIZE) if c not in known], dtype=np.int64)
    missing = 5 - len(board)
    total = comb(len(remaining), missing)
    limit = EXHAUSTIVE_LIMIT if samples is None else samples
    exhaustive = total <= limit
    count = total if exhaustive else (samples or DEFAULT_SAMPLES)
    if samples is not None and samples <= 0:
        raise EquityError(f"samples must be positive, got {samples}")
    hand_codes = [[c.code for c in h] for h in hands]
    if exhaustive and game is Variant.HOLDEM:
        exact = holdem_exact(hand_codes, [c.code for c in board], [c.code for c in dead])
        if progress is not None:
            progress(total, total)
        return EquityResult(
            hands=tuple(
                HandEquity(hand=tuple(h), wins=int(w), ties=int(t), boards=total, share=float(x))
                for h, w, t, x in zip(hands, exact.wins, exact.ties, exact.share, strict=True)
            ),
            boards=total,
            exhaustive=True,
        )
    generator = rng if rng is not None else np.random.default_rng()
    subsets = combinations_array(len(remaining), missing) if exhaustive else None
    fixed = np.array([c.code for c in board], dtype=np.int64)

    wins = np.zeros(len(hands), dtype=np.int64)
    ties = np.zeros(len(hands), dtype=np.int64)
    share = np.zeros(len(hands), dtype=np.float64)
    squares = np.zeros(len(hands), dtype=np.float64)  # for the standard error of a sample
    done = 0
    while done < count:
        step = min(_BOARDS_PER_STEP, count - done)
        if subsets is not None:
            picks = subsets[done : done + step]
        else:
            picks = _random_subsets(len(remaining), missing, step, generator)
        drawn = remaining[picks.astype(np.intp)]
        boards = np.hstack((np.broadcast_to(fixed, (step, len(fixed))), drawn))
        high, low = _strengths(game, hand_codes, boards)
        shares = _shares(high, low)
        whole = shares == 1.0
        wins += whole.sum(axis=1)
        ties += ((shares > 0) & ~whole).sum(axis=1)
        share += shares.sum(axis=1)
        squares += np.square(shares).sum(axis=1)
        done += step
        if progress is not None:
            progress(done, count)

    errors = np.zeros(len(hands)) if exhaustive else standard_errors(share, squares, count)
    results = tuple(
        HandEquity(
            hand=tuple(hand),
            wins=int(w),
            ties=int(t),
            boards=count,
            share=float(s),
            stderr=float(e),
        )
        for hand, w, t, s, e in zip(hands, wins, ties, share, errors, strict=True)
    )
    return EquityResult(hands=results, boards=count, exhaustive=exhaustive)
