"""Exact hold'em equity by board rank classes: every board counted, few evaluated.

A hold'em hand's strength on a board depends on the board's ranks alone unless a
player makes a flush. So the completions of a board are taken by *rank multiset*,
each weighted by the number of ways to deal those ranks from the cards left, and
evaluated once per multiset. Then the boards on which some player can make a flush
(at most one suit can have three or more board cards) are enumerated as (that
suit's new cards, the other new cards' ranks), and their outcome is corrected from
the rank-only one to the true one. AhKh against QsQd before the flop: 6,175 rank
classes and about 36,000 flush classes stand for the 1,712,304 boards, and the
counts (wins, ties, shares) are exactly those of dealing every board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from pokerroom.evaluation.tables import RANK_KEYS, rank_multisets, tables

Ints = npt.NDArray[np.int64]

_RANK_KEY = np.array(RANK_KEYS, dtype=np.int64)
_RANK_BIT = np.array([1 << r for r in range(13)], dtype=np.int64)
# _CHOOSE[n, k]: ways to pick k of the n cards of one rank still in the deck (n, k <= 4).
_CHOOSE = np.array(
    [
        [0 if k > n else _c for k, _c in enumerate(row)]
        for n, row in enumerate(
            [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 2, 1, 0, 0], [1, 3, 3, 1, 0], [1, 4, 6, 4, 1]]
        )
    ],
    dtype=np.int64,
)


@dataclass(frozen=True, slots=True)
class Tally:
    """Per hand: boards won outright, boards split, and pots won (in whole pots)."""

    wins: Ints
    ties: Ints
    share: npt.NDArray[np.float64]
    boards: int

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.wins + other.wins,
            self.ties + other.ties,
            self.share + other.share,
            self.boards + other.boards,
        )

    def __sub__(self, other: Tally) -> Tally:
        return Tally(
            self.wins - other.wins,
            self.ties - other.ties,
            self.share - other.share,
            self.boards - other.boards,
        )


@cache
def combinations_array(n: int, k: int) -> npt.NDArray[np.uint8]:
    """All k-subsets of range(n) as rows, in lexicographic order (built with numpy)."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.uint8)
    if k == 1:
        return np.arange(n, dtype=np.uint8)[:, None]
    parts = []
    for first in range(n - k + 1):
        rest = combinations_array(n - first - 1, k - 1) + np.uint8(first + 1)
        head = np.full((len(rest), 1), first, dtype=np.uint8)
        parts.append(np.hstack((head, rest)))
    if not parts:
        return np.zeros((0, k), dtype=np.uint8)
    return np.vstack(parts)


@cache
def _rank_multisets(size: int) -> tuple[Ints, Ints]:
    """Every multiset of ``size`` ranks (at most four alike): counts (M, 13) and rank keys."""
    counts = np.array(rank_multisets(size), dtype=np.int64).reshape(-1, 13)
    return counts, counts @ _RANK_KEY


@cache
def _hash7() -> tuple[int, Ints, npt.NDArray[np.uint16]]:
    t = tables()
    rows = np.arange(len(t.hash7.offsets), dtype=np.int64)
    adjust = t.hash7.offsets.astype(np.int64) - (rows << t.hash7.shift)
    return t.hash7.shift, adjust, t.nonflush7


def _nonflush7(keys: Ints) -> Ints:
    """Non-flush strengths of seven-card rank keys (any shape)."""
    shift, adjust, values = _hash7()
    strengths: Ints = values[keys + adjust[keys >> shift]].astype(np.int64)
    return strengths


def _ways(available: Ints, counts: Ints) -> Ints:
    """Boards dealing each row of rank ``counts`` from ``available`` cards per rank."""
    ways: Ints = np.prod(_CHOOSE[available[None, :], counts], axis=1)
    return ways


def tally(strengths: Ints, weights: Ints) -> Tally:
    """The outcome of boards (columns of ``strengths``, hands x boards), each counted
    ``weights`` times: outright wins, split pots and pots won per hand."""
    top = strengths == strengths.max(axis=0)
    winners = top.sum(axis=0)
    alone = top & (winners == 1)
    return Tally(
        wins=alone.astype(np.int64) @ weights,
        ties=(top & ~alone).astype(np.int64) @ weights,
        share=(top / winners) @ weights.astype(np.float64),
        boards=int(weights.sum()),
    )


def holdem_exact(
    hands: Sequence[Sequence[int]], board: Sequence[int], dead: Sequence[int]
) -> Tally:
    """Each hand's result over every completion of ``board`` (codes), exactly."""
    left = np.ones((4, 13), dtype=bool)  # [suit, rank]: still in the deck
    for code in [*(c for h in hands for c in h), *board, *dead]:
        left[code & 3, code >> 2] = False
    per_rank = left.sum(axis=0).astype(np.int64)
    missing = 5 - len(board)
    board_key = sum(RANK_KEYS[c >> 2] for c in board)
    hole_keys = np.array(
        [sum(RANK_KEYS[c >> 2] for c in hand) + board_key for hand in hands], dtype=np.int64
    )[:, None]

    counts, keys = _rank_multisets(missing)
    weights = _ways(per_rank, counts)
    dealt = weights > 0
    # Columns to tally: the rank classes, then each flush class twice, its true outcome
    # counted in and its rank-only outcome (already in its rank class) counted out.
    columns = [_nonflush7(hole_keys + keys[dealt])]
    counted = [weights[dealt]]

    flush = tables().flush_np
    for suit in range(4):
        board_mask = sum(1 << (c >> 2) for c in board if c & 3 == suit)
        on_board = board_mask.bit_count()
        hole_masks = np.array(
            [sum(1 << (c >> 2) for c in hand if c & 3 == suit) for hand in hands], dtype=np.int64
        )[:, None]
        most_held = max(int(m).bit_count() for m in hole_masks[:, 0])
        suited = np.flatnonzero(left[suit])  # this suit's ranks still in the deck
        others = per_rank - left[suit]
        # A flush needs five of the suit among two hole cards and the board.
        for new in range(max(0, 5 - on_board - most_held), min(missing, len(suited)) + 1):
            picks = suited[combinations_array(len(suited), new).astype(np.intp)]
            suit_keys = _RANK_KEY[picks].sum(axis=1)
            suit_masks = _RANK_BIT[picks].sum(axis=1) | board_mask
            rest_counts, rest_keys = _rank_multisets(missing - new)
            rest_weights = _ways(others, rest_counts)
            kept = rest_weights > 0
            rest_keys, rest_weights = rest_keys[kept], rest_weights[kept]
            # Boards are (suited picks) x (other ranks), flattened picks-major.
            boards = len(picks) * len(rest_keys)
            ranks_only = _nonflush7(
                (hole_keys + suit_keys[None, :])[:, :, None] + rest_keys[None, None, :]
            ).reshape(-1, boards)
            flushes = flush[hole_masks | suit_masks[None, :]].astype(np.int64)
            true = np.maximum(
                ranks_only,
                np.repeat(flushes, len(rest_keys), axis=1),
                out=np.empty_like(ranks_only),
            )
            changed = (true != ranks_only).any(axis=0)
            w = np.tile(rest_weights, len(picks))[changed]
            columns += [true[:, changed], ranks_only[:, changed]]
            counted += [w, -w]
    return tally(np.hstack(columns), np.concatenate(counted))
