"""Hold'em equity of 2 to 10 ranges: exact when the deals are few, else Monte Carlo.

Every deal counts alike: each way of giving each player one hand of their range
with no card twice (nor on the board, nor dead), then every completion of the
board. Exact before the flop: each distinct deal of hands is counted by board rank
classes (exact.py), deals alike up to a renaming of suits counted once. Exact with
a board: each hand of a range is evaluated once per completion and the deals read
those rows (numpy). Otherwise ``samples``
deals are drawn from the ``rng`` passed in, and each equity comes with its
standard error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations, product
from math import comb, prod
from typing import Final

import numpy as np
import numpy.typing as npt

from pokerroom.cards import Card, ensure_distinct
from pokerroom.evaluation.batch import evaluate7_batch
from pokerroom.evaluation.equity import EquityError, standard_errors
from pokerroom.evaluation.exact import Tally, combinations_array, holdem_exact, tally
from pokerroom.evaluation.ranges import HandRange, parse_range

# Exact when the players' ranges multiply to at most this many deals of hands.
EXACT_DEALS: Final = 1_000
DEFAULT_SAMPLES: Final = 200_000
_STEP: Final = 1 << 15  # sampled deals per numpy pass
_SUIT_RENAMINGS: Final = tuple(permutations(range(4)))


@dataclass(frozen=True, slots=True)
class RangeShare:
    """One player's range and its results: ``equity`` (share of the pots), ``win`` (pots won
    outright) and ``tie`` (pots split), as fractions of the deals; ``stderr`` is the
    standard error of ``equity`` (0.0 when exact)."""

    range: HandRange
    equity: float
    win: float
    tie: float
    stderr: float


@dataclass(frozen=True, slots=True)
class RangeEquityResult:
    players: tuple[RangeShare, ...]
    exact: bool
    # Exact: deals of hands counted (before the flop, those alike up to suits once);
    # Monte Carlo: the deals sampled.
    deals: int


def _canonical(
    hands: Sequence[Sequence[int]], board: Sequence[int], dead: Sequence[int]
) -> tuple[tuple[int, ...], ...]:
    """The smallest of the deal's suit renamings: deals with one key have one outcome."""
    best: tuple[tuple[int, ...], ...] | None = None
    for rename in _SUIT_RENAMINGS:
        key = tuple(
            tuple(sorted((c & ~3) | rename[c & 3] for c in group))
            for group in (*hands, board, dead)
        )
        if best is None or key < best:
            best = key
    assert best is not None
    return best


def _exact(
    ranges: list[list[tuple[int, int]]], board: list[int], dead: list[int]
) -> tuple[Tally, int, int]:
    """Summed tallies over every valid deal of hands, the deals, and the distinct ones."""
    counts: dict[tuple[tuple[int, ...], ...], int] = {}
    firsts: dict[tuple[tuple[int, ...], ...], list[list[int]]] = {}
    deals = 0
    for hands in product(*ranges):
        cards = [c for h in hands for c in h]
        if len(set(cards)) != len(cards):
            continue
        deals += 1
        key = _canonical(hands, board, dead)
        counts[key] = counts.get(key, 0) + 1
        firsts.setdefault(key, [list(h) for h in hands])
    total: Tally | None = None
    for key, times in counts.items():
        one = holdem_exact(firsts[key], board, dead)
        scaled = Tally(one.wins * times, one.ties * times, one.share * times, one.boards * times)
        total = scaled if total is None else total + scaled
    if total is None:
        raise EquityError("no deal: every choice of hands shares a card (or one with the board)")
    return total, deals, len(counts)


def _exact_on_board(
    ranges: list[list[tuple[int, int]]], board: list[int], dead: list[int]
) -> tuple[Tally, int]:
    """As ``_exact`` when the flop is out: each hand of each range is evaluated once on each
    completion of the board, and each deal of hands reads its players' rows, counting the
    completions that share no card with it."""
    rest = np.array([c for c in range(52) if c not in {*board, *dead}], dtype=np.int64)
    extra = rest[combinations_array(len(rest), 5 - len(board)).astype(np.intp)]
    boards = np.hstack((np.broadcast_to(board, (len(extra), len(board))), extra))
    board_masks = (np.int64(1) << extra).sum(axis=1)
    combos = [np.array(r, dtype=np.int64) for r in ranges]
    rows = []
    for c in combos:
        masks = (np.int64(1) << c[:, 0]) | (np.int64(1) << c[:, 1])
        apart = ((masks[:, None] & board_masks[None, :]) == 0).reshape(-1)  # no card twice
        hands = np.repeat(c, len(boards), axis=0)[apart]
        seven = np.hstack((hands, np.tile(boards, (len(c), 1))[apart]))
        row = np.zeros(len(c) * len(boards), dtype=np.int64)  # read only under weight 0
        row[apart] = evaluate7_batch(seven)
        rows.append(row.reshape(len(c), len(boards)))
    # Every deal of hands with no card twice: (deals, players) indices and their cards.
    deals = np.zeros((1, 0), dtype=np.intp)
    used = np.zeros(1, dtype=np.int64)
    for c in combos:
        masks = (np.int64(1) << c[:, 0]) | (np.int64(1) << c[:, 1])
        fits = (used[:, None] & masks[None, :]) == 0
        deal, pick = np.nonzero(fits)
        deals = np.hstack((deals[deal], pick[:, None]))
        used = used[deal] | masks[pick]
    if not len(deals):
        raise EquityError("no deal: every choice of hands shares a card (or one with the board)")
    strengths = np.stack([r[deals[:, p]] for p, r in enumerate(rows)]).reshape(len(ranges), -1)
    weights = ((used[:, None] & board_masks[None, :]) == 0).astype(np.int64).reshape(-1)
    return tally(strengths, weights), len(deals)


def _sample(
    ranges: list[list[tuple[int, int]]],
    board: list[int],
    dead: list[int],
    samples: int,
    rng: np.random.Generator,
) -> tuple[npt.NDArray[np.float64], ...]:
    """Sums over ``samples`` random deals: wins, ties, shares and squared shares per player."""
    combos = [np.array(r, dtype=np.int64) for r in ranges]
    masks = [(np.int64(1) << c[:, 0]) | (np.int64(1) << c[:, 1]) for c in combos]
    out_mask = np.int64(sum(1 << c for c in (*board, *dead)))
    missing = 5 - len(board)
    players = len(ranges)
    sums = [np.zeros(players) for _ in range(4)]
    done, tries = 0, 0
    while done < samples:
        step = min(_STEP, samples - done)
        used = np.full(step, out_mask, dtype=np.int64)
        ok = np.ones(step, dtype=bool)
        picks = []
        for c, m in zip(combos, masks, strict=True):
            pick = rng.integers(0, len(c), size=step)
            ok &= (used & m[pick]) == 0
            used |= m[pick]
            picks.append(pick)
        extra = rng.integers(0, 52, size=(step, missing))
        for column in extra.T:
            bit = np.int64(1) << column
            ok &= (used & bit) == 0
            used |= bit
        tries += step
        if not ok.any():
            if tries > 100 * samples:
                raise EquityError("the ranges almost never fit together: no deal was found")
            continue
        keep = np.flatnonzero(ok)[: samples - done]
        full_board = np.hstack((np.broadcast_to(board, (len(keep), len(board))), extra[keep]))
        strengths = np.stack(
            [
                evaluate7_batch(np.hstack((c[p[keep]], full_board)))
                for c, p in zip(combos, picks, strict=True)
            ]
        ).astype(np.int64)
        top = strengths == strengths.max(axis=0)
        winners = top.sum(axis=0)
        shares = top / winners
        sums[0] += (top & (winners == 1)).sum(axis=1)
        sums[1] += (top & (winners > 1)).sum(axis=1)
        sums[2] += shares.sum(axis=1)
        sums[3] += np.square(shares).sum(axis=1)
        done += len(keep)
    return tuple(sums)


def range_equity(
    ranges: Sequence[str | HandRange],
    *,
    board: Sequence[Card] = (),
    dead: Sequence[Card] = (),
    samples: int | None = None,
    rng: np.random.Generator | None = None,
    exact_deals: int = EXACT_DEALS,
) -> RangeEquityResult:
    """Each range's hold'em equity against the others.

    Exact when the ranges (less the board and dead cards) multiply to at most
    ``exact_deals`` deals of hands and no ``samples`` is asked for; otherwise Monte
    Carlo over ``samples`` deals (default 200,000) drawn from ``rng``, which is then
    required.

    >>> r = range_equity(["AhKh", "QQ"], board=[])
    >>> r.exact, r.deals, round(r.players[0].equity, 4)
    (True, 2, 0.4605)
    """
    if not 2 <= len(ranges) <= 10:
        raise EquityError(f"equity needs 2 to 10 ranges, got {len(ranges)}")
    if len(board) > 5 or len(board) in (1, 2):
        raise EquityError(f"a board has 0, 3, 4 or 5 cards, got {len(board)}")
    ensure_distinct([*board, *dead])
    parsed = [r if isinstance(r, HandRange) else parse_range(r) for r in ranges]
    out = {*board, *dead}
    left = [r.without(out) for r in parsed]
    for r in left:
        if not r.combos:
            raise EquityError(f"no hand of {r.text!r} is left once the board and dead are out")
    codes = [[(a.code, b.code) for a, b in r.combos] for r in left]
    board_codes, dead_codes = [c.code for c in board], [c.code for c in dead]
    if samples is None and prod(len(r) for r in left) <= exact_deals:
        if board_codes:
            total, distinct = _exact_on_board(codes, board_codes, dead_codes)
        else:
            total, _, distinct = _exact(codes, board_codes, dead_codes)
        shares = tuple(
            RangeShare(
                r, float(s) / total.boards, int(w) / total.boards, int(t) / total.boards, 0.0
            )
            for r, w, t, s in zip(parsed, total.wins, total.ties, total.share, strict=True)
        )
        return RangeEquityResult(players=shares, exact=True, deals=distinct)
    if rng is None:
        raise EquityError("Monte Carlo equity needs an rng (numpy.random.Generator)")
    count = samples if samples is not None else DEFAULT_SAMPLES
    if count <= 0:
        raise EquityError(f"samples must be positive, got {count}")
    known = 2 * len(ranges) + len(board) + len(dead)
    if comb(52 - known, 5 - len(board)) == 0:
        raise EquityError("not enough cards left in the deck to complete the board")
    wins, ties, share, squares = _sample(codes, board_codes, dead_codes, count, rng)
    errors = standard_errors(share, squares, count)
    players = tuple(
        RangeShare(r, s / count, w / count, t / count, float(e))
        for r, w, t, s, e in zip(parsed, wins, ties, share, errors, strict=True)
    )
    return RangeEquityResult(players=players, exact=False, deals=count)
