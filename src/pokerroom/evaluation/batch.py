"""Batch evaluation with numpy: many hands per call.

Inputs are integer card codes (0..51) in arrays of shape ``(N, 7)`` for
hold'em, ``(N, 4)`` + ``(N, 5)`` for Omaha. Outputs are strengths on the
1..7462 scale (higher wins) or, for the low, scores where 0 means no low.
Inputs are not validated here (that is the single-hand API's job): each row
must hold distinct codes.
"""

from __future__ import annotations

from collections.abc import Iterator
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
_ROWS: Final = 1 << 13  # hold'em rows per pass: its temporaries (~1 MB) stay in L2
_SUIT_BASE: Final = _BASE << SUIT_SHIFT
_FLUSH_BITS: Final = _FLAGS << SUIT_SHIFT
_FLAG_OF_SUIT = np.array([8 << (SUIT_SHIFT + 4 * s) for s in range(4)], dtype=np.int64)
# [suit * 52 + code]: the card's rank bit when it is of that suit, else 0.
_SUITED_RANK_BIT = np.array(
    [1 << (c >> 2) if c & 3 == s else 0 for s in range(4) for c in range(52)], dtype=np.intp
)
_HASH7_SHIFT: Final = _T.hash7.shift
# Row displacement less the row's own base, so slot = rank_key + _ADJUST7[rank_key >> shift]
# (the same slot as PerfectHash.slots, one operation fewer).
_ADJUST7 = _T.hash7.offsets.astype(np.intp) - (
    np.arange(len(_T.hash7.offsets), dtype=np.intp) << _HASH7_SHIFT
)
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


def _rows(codes: npt.NDArray[np.intp]) -> npt.NDArray[np.void]:
    """Each row of ``codes`` as one opaque element, so copying rows is one memcpy each."""
    return codes.view(np.dtype((np.void, codes.itemsize * codes.shape[1])))[:, 0]


def _packed_blocks(codes: npt.NDArray[np.intp]) -> Iterator[tuple[int, npt.NDArray[np.intp]]]:
    """``(start, rows)`` blocks of at most ``_ROWS`` rows, each C-contiguous.

    A strided input (a column slice of a wider array) is copied block by block
    into one reused buffer: the rows are read from memory once, in order, rather
    than once per column by strided gathers.
    """
    if codes.strides[1] != codes.itemsize:  # e.g. Fortran order: rows are not runs of memory
        codes = np.ascontiguousarray(codes)
    if codes.flags.c_contiguous:
        for start in range(0, len(codes), _ROWS):
            yield start, codes[start : start + _ROWS]
        return
    buffer = np.empty((min(_ROWS, len(codes)), codes.shape[1]), dtype=np.intp)
    for start in range(0, len(codes), _ROWS):
        block = codes[start : start + _ROWS]
        packed = buffer[: len(block)]
        _rows(packed)[:] = _rows(block)
        yield start, packed


def evaluate7_batch(cards: Codes) -> Strengths:
    """Strengths of N seven-card hands: ``(N, 7)`` codes -> ``(N,)`` uint16."""
    codes = _as_codes(cards, 7, "hold'em hands")
    out = np.empty(len(codes), dtype=np.uint16)
    size = min(_ROWS, len(codes))
    key, slot, row = (np.empty(size, dtype=np.intp) for _ in range(3))
    flushed = np.empty(size, dtype=bool)
    for start, block in _packed_blocks(codes):
        n = len(block)
        key, slot, row, flushed = key[:n], slot[:n], row[:n], flushed[:n]
        np.einsum("ij->i", np.take(_W, block), out=key)  # take raises on a code past 51
        # Perfect hash of the rank key: slot = rank_key + row displacement (see _ADJUST).
        np.bitwise_and(key, 0xFFFFFFFF, out=slot)
        np.right_shift(slot, _HASH7_SHIFT, out=row)
        np.take(_ADJUST7, row, out=row, mode="wrap")  # "wrap": unbuffered; rows are in range
        slot += row
        result = out[start : start + n]
        np.take(_T.nonflush7, slot, out=result, mode="wrap")
        key += _SUIT_BASE
        key &= _FLUSH_BITS
        flushes = np.flatnonzero(np.not_equal(key, 0, out=flushed))
        if flushes.size:  # about 3% of random hands
            result[flushes] = _flush_strengths(block.take(flushes, axis=0), key.take(flushes))
    return out


def _flush_strengths(
    hands: npt.NDArray[np.intp], flags: npt.NDArray[np.intp]
) -> npt.NDArray[np.uint16]:
    """Flush strengths of hands with five or more cards of the suit ``flags`` marks."""
    suit = np.searchsorted(_FLAG_OF_SUIT, flags)
    bits = np.take(_SUITED_RANK_BIT, hands + (suit * 52)[:, None])
    # Cards of one suit have distinct ranks, so the sum of their bits is the rank mask.
    flush: npt.NDArray[np.uint16] = np.take(_T.flush_np, np.einsum("ij->i", bits))
    return flush


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
