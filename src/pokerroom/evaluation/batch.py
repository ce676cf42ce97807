"""Batch evaluation with numpy: many hands per call.

Inputs are integer card codes (0..51) in arrays of shape ``(N, 7)`` for
hold'em, ``(N, 4)`` + ``(N, 5)`` for Omaha. Outputs are strengths on the
1..7462 scale (higher wins) or, for the low, scores where 0 means no low.
Inputs are not validated here (that is the single-hand API's job): each row
must hold distinct codes.
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

import numpy as np
import numpy.typing as npt

from pokerroom.evaluation.tables import RANK_KEYS, SUIT_SHIFT, tables

Codes = npt.NDArray[np.integer]
Strengths = npt.NDArray[np.uint16]

_T = tables()
_RANK_OF = np.arange(52, dtype=np.int64) >> 2
_SUIT_OF = np.arange(52, dtype=np.int64) & 3
# Rank key in the low 32 bits, suit counters above: as tables.WEIGHTS without the card count.
_W = np.array(
    [RANK_KEYS[c >> 2] | (1 << (SUIT_SHIFT + 4 * (c & 3))) for c in range(52)], dtype=np.int64
)
_BASE: Final = 0x3333
_FLAGS: Final = 0x8888
_CHUNK: Final = 1 << 14  # rows per pass: keeps temporaries in cache
_RANK_BIT = (1 << _RANK_OF).astype(np.int64)
_LOW_BIT = np.array(
    [1 if c >> 2 == 12 else (1 << ((c >> 2) + 1) if c >> 2 <= 6 else 0) for c in range(52)],
    dtype=np.int64,
)
_RANK_KEY = np.array([RANK_KEYS[c >> 2] for c in range(52)], dtype=np.int64)
_PAIRS: Final = tuple(combinations(range(4), 2))
_TRIPLES: Final = tuple(combinations(range(5), 3))


def _as_codes(cards: Codes, width: int, what: str) -> npt.NDArray[np.intp]:
    array = np.asarray(cards)
    if array.ndim != 2 or array.shape[1] != width:
        raise ValueError(f"{what} must have shape (N, {width}), got {array.shape}")
    return array.astype(np.intp, copy=False)


def _omaha_inputs(hole: Codes, board: Codes) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    holes = _as_codes(hole, 4, "Omaha hands")
    boards = _as_codes(board, 5, "Omaha boards")
    if len(holes) != len(boards):
        raise ValueError(f"{len(holes)} Omaha hands but {len(boards)} boards")
    return holes, boards


def _flush_strengths(
    cols: list[npt.NDArray[np.intp]], flags: npt.NDArray[np.int64]
) -> npt.NDArray[np.uint16]:
    suit = (np.log2(flags).astype(np.int64) - 3) >> 2  # the one flagged nibble
    mask = np.zeros(len(flags), dtype=np.int64)
    for col in cols:
        mask |= np.where(_SUIT_OF[col] == suit, _RANK_BIT[col], 0)
    flush: npt.NDArray[np.uint16] = _T.flush_np[mask]
    return flush


def evaluate7_batch(cards: Codes) -> Strengths:
    """Strengths of N seven-card hands: ``(N, 7)`` codes -> ``(N,)`` uint16."""
    codes = _as_codes(cards, 7, "hold'em hands")
    out = np.empty(len(codes), dtype=np.uint16)
    offsets, shift, values = _T.hash7.offsets, _T.hash7.shift, _T.nonflush7
    col_mask = (1 << shift) - 1
    for start in range(0, len(codes), _CHUNK):
        block = codes[start : start + _CHUNK].T
        key = _W[block[0]]
        for i in range(1, 7):
            key += _W[block[i]]
        rank_key = key & 0xFFFFFFFF
        flags = ((key >> SUIT_SHIFT) + _BASE) & _FLAGS
        result = values[(rank_key & col_mask) + offsets[rank_key >> shift]]
        flushed = np.flatnonzero(flags)
        if flushed.size:
            result[flushed] = _flush_strengths([c[flushed] for c in block], flags[flushed])
        out[start : start + _CHUNK] = result
    return out


def _omaha_flush(hole: npt.NDArray[np.intp], board: npt.NDArray[np.intp]) -> npt.NDArray[np.uint16]:
    """Best flush or straight flush of exactly 2 hole + 3 board cards, 0 where none."""
    best = np.zeros(len(hole), dtype=np.uint16)
    hole_suit, board_suit = _SUIT_OF[hole], _SUIT_OF[board]
    hole_bit, board_bit = _RANK_BIT[hole], _RANK_BIT[board]
    for a, b in _PAIRS:
        pair_ok = hole_suit[:, a] == hole_suit[:, b]
        pair_mask = hole_bit[:, a] | hole_bit[:, b]
        for x, y, z in _TRIPLES:
            suit = board_suit[:, x]
            ok = pair_ok & (hole_suit[:, a] == suit) & (board_suit[:, y] == suit)
            ok &= board_suit[:, z] == suit
            mask = np.where(ok, pair_mask | board_bit[:, x] | board_bit[:, y] | board_bit[:, z], 0)
            np.maximum(best, _T.flush_np[mask], out=best)
    return best


def omaha_high_batch(hole: Codes, board: Codes) -> Strengths:
    """Omaha high strengths (exactly 2 hole + 3 board, R-SHOW-3): ``(N, 4)``, ``(N, 5)``."""
    holes, boards = _omaha_inputs(hole, board)
    out = np.empty(len(holes), dtype=np.uint16)
    h5, pairs = _T.hash5, _T.omaha_pairs
    n_boards = 6175
    for start in range(0, len(holes), _CHUNK):
        h = holes[start : start + _CHUNK]
        b = boards[start : start + _CHUNK]
        board_key = _RANK_KEY[b].sum(axis=1)
        board_index = _T.board5_index[h5.slots(board_key)].astype(np.int64)
        ranks = _RANK_OF[h]
        best = np.zeros(len(h), dtype=np.uint16)
        for i, j in _PAIRS:
            row = (ranks[:, i] * 13 + ranks[:, j]) * n_boards + board_index
            np.maximum(best, pairs[row], out=best)
        # A flush needs three board cards of one suit; test only those rows.
        suit_counts = (1 << (4 * _SUIT_OF[b])).sum(axis=1) + 0x5555
        maybe = np.flatnonzero(suit_counts & 0x8888)
        if maybe.size:
            best[maybe] = np.maximum(best[maybe], _omaha_flush(h[maybe], b[maybe]))
        out[start : start + _CHUNK] = best
    return out


def omaha_low_batch(hole: Codes, board: Codes) -> Strengths:
    """Eight-or-better low scores (0 = no low) of Omaha hands: ``(N, 4)``, ``(N, 5)``."""
    holes, boards = _omaha_inputs(hole, board)
    out = np.empty(len(holes), dtype=np.uint16)
    for start in range(0, len(holes), _CHUNK):
        h = _LOW_BIT[holes[start : start + _CHUNK]]
        b = _LOW_BIT[boards[start : start + _CHUNK]]
        hole_mask = h[:, 0] | h[:, 1] | h[:, 2] | h[:, 3]
        board_mask = b[:, 0] | b[:, 1] | b[:, 2] | b[:, 3] | b[:, 4]
        out[start : start + _CHUNK] = _T.low_table[(hole_mask << 8) | board_mask]
    return out
