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

from pokerroom.evaluation.tables import RANK_KEYS, SUIT_SHIFT, PerfectHash, tables

Codes = npt.NDArray[np.integer]
Strengths = npt.NDArray[np.uint16]

_T = tables()
# Rank key in the low 32 bits, suit counters above: as tables.WEIGHTS without the card count.
_W = np.array(
    [RANK_KEYS[c >> 2] | (1 << (SUIT_SHIFT + 4 * (c & 3))) for c in range(52)], dtype=np.int64
)
# Each suit counter starts so that its top bit (of _FLUSH_BITS) is set at five cards of the
# suit in hold'em, three on an Omaha board, two in an Omaha hand.
_SUIT_BASE: Final = 0x3333 << SUIT_SHIFT
_OMAHA_BOARD_BASE: Final = 0x5555 << SUIT_SHIFT
_OMAHA_HOLE_BASE: Final = 0x6666 << SUIT_SHIFT
_FLUSH_BITS: Final = 0x8888 << SUIT_SHIFT
_FLAG_OF_SUIT = np.array([8 << (SUIT_SHIFT + 4 * s) for s in range(4)], dtype=np.int64)
_CHUNK: Final = 1 << 14  # Omaha rows per pass: keeps temporaries in cache
_ROWS: Final = 1 << 13  # hold'em rows per pass: its temporaries (~1 MB) stay in L2
# [suit * 52 + code]: the card's rank bit when it is of that suit, else 0.
_SUITED_RANK_BIT = np.array(
    [1 << (c >> 2) if c & 3 == s else 0 for s in range(4) for c in range(52)], dtype=np.intp
)


def _adjustment(hashed: PerfectHash) -> npt.NDArray[np.intp]:
    """Each row's displacement less the row's own base: the slot of a key is then
    ``key + adjustment[key >> shift]``, as PerfectHash.slots, one operation fewer."""
    rows = np.arange(len(hashed.offsets), dtype=np.intp)
    return hashed.offsets.astype(np.intp) - (rows << hashed.shift)


_ADJUST7 = _adjustment(_T.hash7)
_ADJUST5 = _adjustment(_T.hash5)
_BOARD5_INDEX = _T.board5_index.astype(np.intp)
# omaha_pairs[(rank_a * 13 + rank_b) * 6175 + board]: each hole card's part of the index.
_BOARDS: Final = 6175  # board rank multisets
_PAIR_FIRST = np.array([(c >> 2) * 13 * _BOARDS for c in range(52)], dtype=np.intp)
_PAIR_SECOND = np.array([(c >> 2) * _BOARDS for c in range(52)], dtype=np.intp)
# The same for omaha_flush, per suit: [suit * 52 + code], rank 13 for a card not of the suit.
_FLUSH_BOARDS: Final = len(_T.omaha_flush) // (14 * 14)
_SUITED_RANK = np.array([c >> 2 if c & 3 == s else 13 for s in range(4) for c in range(52)])
_FLUSH_FIRST = (_SUITED_RANK * 14 * _FLUSH_BOARDS).astype(np.intp)
_FLUSH_SECOND = (_SUITED_RANK * _FLUSH_BOARDS).astype(np.intp)
_LOW_BIT = np.array(
    [1 if c >> 2 == 12 else (1 << ((c >> 2) + 1) if c >> 2 <= 6 else 0) for c in range(52)],
    dtype=np.int64,
)
_PAIRS: Final = tuple(combinations(range(4), 2))


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


def _rank_slots(
    key: npt.NDArray[np.intp],
    adjust: npt.NDArray[np.intp],
    shift: int,
    slot: npt.NDArray[np.intp],
    row: npt.NDArray[np.intp],
) -> None:
    """Perfect-hash slots of the rank keys (``key``'s low 32 bits) into ``slot``."""
    np.bitwise_and(key, 0xFFFFFFFF, out=slot)
    np.right_shift(slot, shift, out=row)
    np.take(adjust, row, out=row, mode="wrap")  # "wrap" is unbuffered; rows are in range
    slot += row


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
        _rank_slots(key, _ADJUST7, _T.hash7.shift, slot, row)
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


def omaha_high_batch(hole: Codes, board: Codes) -> Strengths:
    """Omaha high strengths (exactly 2 hole + 3 board, R-SHOW-3): ``(N, 4)``, ``(N, 5)``."""
    holes, boards = _omaha_inputs(hole, board)
    out = np.empty(len(holes), dtype=np.uint16)
    size = min(_CHUNK, len(holes))
    key, slot, row, index = (np.empty(size, dtype=np.intp) for _ in range(4))
    value = np.empty(size, dtype=np.uint16)
    flagged = np.empty(size, dtype=bool)
    for start in range(0, len(holes), _CHUNK):
        h, b = holes[start : start + _CHUNK], boards[start : start + _CHUNK]
        n = len(h)
        key, slot, row, index = key[:n], slot[:n], row[:n], index[:n]
        value, flagged = value[:n], flagged[:n]
        np.einsum("ij->i", np.take(_W, b), out=key)
        _rank_slots(key, _ADJUST5, _T.hash5.shift, slot, row)
        np.take(_BOARD5_INDEX, slot, out=slot, mode="wrap")  # the board's rank multiset
        # omaha_pairs[(rank_a * 13 + rank_b) * 6175 + board]: the best of each hole pair.
        first = np.take(_PAIR_FIRST, h)
        second = np.take(_PAIR_SECOND, h)
        second += slot[:, None]
        best = out[start : start + n]
        best.fill(0)
        for i, j in _PAIRS:
            np.add(first[:, i], second[:, j], out=index)
            np.take(_T.omaha_pairs, index, out=value, mode="wrap")
            np.maximum(best, value, out=best)
        # A flush needs three board cards and two hole cards of one suit.
        key += _OMAHA_BOARD_BASE
        hole_key = np.einsum("ij->i", np.take(_W, h))
        hole_key += _OMAHA_HOLE_BASE
        key &= hole_key
        key &= _FLUSH_BITS
        maybe = np.flatnonzero(np.not_equal(key, 0, out=flagged))
        if maybe.size:  # about 7% of random hands
            flush = _omaha_flush(h.take(maybe, axis=0), b.take(maybe, axis=0), key.take(maybe))
            best[maybe] = np.maximum(best[maybe], flush)
    return out


def _omaha_flush(
    hole: npt.NDArray[np.intp], board: npt.NDArray[np.intp], flags: npt.NDArray[np.intp]
) -> npt.NDArray[np.uint16]:
    """Best flush of exactly 2 hole + 3 board cards of the suit ``flags`` marks, 0 where none."""
    suit = (np.searchsorted(_FLAG_OF_SUIT, flags) * 52)[:, None]
    board_mask = np.einsum("ij->i", np.take(_SUITED_RANK_BIT, board + suit))
    board_index = np.take(_T.omaha_flush_boards, board_mask).astype(np.intp)
    first = np.take(_FLUSH_FIRST, hole + suit)
    second = np.take(_FLUSH_SECOND, hole + suit)
    second += board_index[:, None]
    best = np.zeros(len(hole), dtype=np.uint16)
    for i, j in _PAIRS:
        np.maximum(best, np.take(_T.omaha_flush, first[:, i] + second[:, j]), out=best)
    return best


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
