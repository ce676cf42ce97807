"""Lookup tables behind every evaluator, built once and cached on disk.

Each card has a packed integer *weight*: a rank key in the low bits, a card
count at bit 24 and a suit counter nibble at bit 32 + 4 * suit. Adding the
weights of a hand gives, in one integer, a key that is unique for the
hand's rank multiset (the rank keys are chosen so that sums of up to seven of
them, at most four alike, never collide) and four suit counters. Each counter
starts at 3, so its top bit is set exactly when the suit has five or more
cards: a flush test is one AND.

The non-flush strength of every rank multiset of 5 to 7 cards lives in a dict
(pure Python) and, for 7 cards, in a compact array behind a row-displacement
perfect hash (numpy). Flushes are read from a 13-bit rank-mask table.
Omaha high uses a table of (hole rank pair x board rank multiset), and for
flushes one of (suited hole rank pair x the board's suited rank mask); the
eight-or-better low a table of (hole low ranks x board low ranks).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from pokerroom.evaluation.classes import (
    flush_signature,
    nonflush_signature,
    strength_of_signature,
)

# Rank keys whose sums over multisets of up to 7 ranks (each at most 4 times) are
# distinct; verified when the tables are built.
RANK_KEYS: Final = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
COUNT_SHIFT: Final = 24
SUIT_SHIFT: Final = 32
RANK_MASK: Final = (1 << SUIT_SHIFT) - 1
SUIT_BASE: Final = 0x3333 << SUIT_SHIFT  # every suit counter starts at 3
FLUSH_BITS: Final = 0x8888 << SUIT_SHIFT  # counter reached 8: five or more of a suit

#: The packed weight of each card code.
WEIGHTS: Final = tuple(
    RANK_KEYS[code >> 2] | (1 << COUNT_SHIFT) | (1 << (SUIT_SHIFT + 4 * (code & 3)))
    for code in range(52)
)

LOW_RANKS: Final = 8  # ace, 2, ..., 8 (R-HILO-2)
TABLE_VERSION: Final = "2"


def rank_multisets(size: int) -> list[tuple[int, ...]]:
    """Every rank-count vector of ``size`` cards with at most four of a rank."""
    out: list[tuple[int, ...]] = []
    counts = [0] * 13

    def place(rank: int, left: int) -> None:
        if rank == 12:
            if left <= 4:
                counts[12] = left
                out.append(tuple(counts))
                counts[12] = 0
            return
        for n in range(min(4, left) + 1):
            counts[rank] = n
            place(rank + 1, left - n)
        counts[rank] = 0

    place(0, size)
    return out


def _rank_key(counts: tuple[int, ...]) -> int:
    return sum(k * n for k, n in zip(RANK_KEYS, counts, strict=True))


@dataclass(frozen=True)
class PerfectHash:
    """Row-displacement perfect hash: ``slot = (key & col_mask) + offsets[key >> shift]``."""

    shift: int
    offsets: npt.NDArray[np.int32]
    size: int

    def slots(self, keys: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        slots: npt.NDArray[np.int64] = (keys & ((1 << self.shift) - 1)) + self.offsets[
            keys >> self.shift
        ]
        return slots


def build_perfect_hash(keys: npt.NDArray[np.int64], shift: int) -> PerfectHash:
    """Place each row of keys at the first offset where none of its columns collide."""
    keys = np.sort(keys)  # columns ascending within each row
    rows = keys >> shift
    cols = keys & ((1 << shift) - 1)
    n_rows = int(rows.max()) + 1
    order = np.argsort(rows, kind="stable")
    rows, cols = rows[order], cols[order]
    starts = np.searchsorted(rows, np.arange(n_rows + 1))
    occupied = np.zeros(len(keys) * 4 + (1 << shift) * 4, dtype=bool)
    offsets = np.zeros(n_rows, dtype=np.int32)
    sizes = np.diff(starts)
    window = np.arange(1024)
    first_free = 0
    for row in np.argsort(-sizes, kind="stable"):
        if sizes[row] == 0:
            break
        row_cols = cols[starts[row] : starts[row + 1]]
        while occupied[first_free]:
            first_free += 1
        # No smaller offset can put the row's first column on a free slot.
        base = max(0, first_free - int(row_cols[0]))
        while True:
            taken = occupied[row_cols[:, None] + (base + window)[None, :]].any(axis=0)
            free = np.flatnonzero(~taken)
            if free.size:
                offset = base + int(free[0])
                break
            base += window.size
        offsets[row] = offset
        occupied[row_cols + offset] = True
    size = int(np.flatnonzero(occupied)[-1]) + 1
    return PerfectHash(shift=shift, offsets=offsets, size=size)


@dataclass(frozen=True)
class Tables:
    """Everything the evaluators read. Built by ``build_tables``; see ``tables()``."""

    nonflush: dict[int, int]  # rank key | count << 24  ->  strength, for 5..7 cards
    flush: list[int]  # 13-bit rank mask -> best flush / straight flush strength (0: < 5 cards)
    hash7: PerfectHash  # 7-card rank key -> slot
    nonflush7: npt.NDArray[np.uint16]  # slot -> strength
    flush_np: npt.NDArray[np.uint16]
    hash5: PerfectHash  # 5-card rank key -> slot
    board5_index: npt.NDArray[np.uint16]  # slot -> board rank-multiset index (0..6174)
    omaha_pairs: npt.NDArray[np.uint16]  # (rank_a * 13 + rank_b) * 6175 + board index -> best
    low_table: npt.NDArray[np.uint16]  # hole low mask * 256 + board low mask -> low score
    omaha_flush_boards: npt.NDArray[np.uint16]  # 13-bit mask of 3..5 ranks -> its index
    # (rank_a * 14 + rank_b) * boards + board index -> best flush; rank 13 = not of the suit
    omaha_flush: npt.NDArray[np.uint16]

    @property
    def nbytes(self) -> int:
        arrays = (
            self.hash7.offsets,
            self.nonflush7,
            self.flush_np,
            self.hash5.offsets,
            self.board5_index,
            self.omaha_pairs,
            self.low_table,
            self.omaha_flush_boards,
            self.omaha_flush,
        )
        return sum(a.nbytes for a in arrays)


def _low_table() -> npt.NDArray[np.uint16]:
    """Best eight-or-better low from 2 hole ranks + 3 board ranks (R-HILO-2..4, R-HILO-8).

    Indexed by ``hole_mask * 256 + board_mask``, the distinct low ranks held
    (ace = bit 0 ... eight = bit 7). A five-rank low compares from its highest
    card down, so a smaller mask is a better low; the score is ``256 - mask``:
    higher is better and 0 means no qualifying low.
    """
    hole = np.arange(256)[:, None]
    board = np.arange(256)[None, :]
    best = np.zeros((256, 256), dtype=np.uint16)
    for ranks in combinations(range(LOW_RANKS), 5):
        mask = sum(1 << r for r in ranks)
        for a, b in combinations(ranks, 2):
            two = 1 << a | 1 << b
            three = mask ^ two
            ok = ((hole & two) == two) & ((board & three) == three)
            best = np.where(ok, np.maximum(best, 256 - mask), best)
    return best.reshape(-1).astype(np.uint16)


def build_tables() -> Tables:
    strengths = strength_of_signature()
    nonflush: dict[int, int] = {}
    keys7: list[int] = []
    values7: list[int] = []
    for size in (5, 6, 7):
        for counts in rank_multisets(size):
            key = _rank_key(counts) | size << COUNT_SHIFT
            if key in nonflush:  # pragma: no cover - guards the RANK_KEYS claim
                raise AssertionError(f"rank key collision for {counts}")
            value = strengths[nonflush_signature(list(counts))]
            nonflush[key] = value
            if size == 7:
                keys7.append(key & ((1 << COUNT_SHIFT) - 1))
                values7.append(value)
    flush = [0] * 8192
    for mask in range(8192):
        if mask.bit_count() >= 5:
            flush[mask] = strengths[flush_signature(mask)]

    key7 = np.array(keys7, dtype=np.int64)
    hash7 = build_perfect_hash(key7, shift=9)
    nonflush7 = np.zeros(hash7.size, dtype=np.uint16)
    nonflush7[hash7.slots(key7)] = values7

    boards = rank_multisets(5)
    key5 = np.array([_rank_key(c) for c in boards], dtype=np.int64)
    hash5 = build_perfect_hash(key5, shift=9)
    board5_index = np.zeros(hash5.size, dtype=np.uint16)
    board5_index[hash5.slots(key5)] = np.arange(len(boards))
    omaha_pairs = _build_omaha_pairs(boards, nonflush)

    low_table = _low_table()
    flush_np = np.array(flush, dtype=np.uint16)
    omaha_flush_boards, omaha_flush = _build_omaha_flush(flush_np)
    return Tables(
        nonflush=nonflush,
        flush=flush,
        hash7=hash7,
        nonflush7=nonflush7,
        flush_np=flush_np,
        hash5=hash5,
        board5_index=board5_index,
        omaha_pairs=omaha_pairs,
        low_table=low_table,
        omaha_flush_boards=omaha_flush_boards,
        omaha_flush=omaha_flush,
    )


def _build_omaha_flush(
    flush_np: npt.NDArray[np.uint16],
) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.uint16]]:
    """Best flush from two hole cards of a suit plus three of the board's cards of it (R-SHOW-3).

    Rows are the two hole ranks, 13 standing for a card not of the suit (no flush);
    columns are the board's rank masks in that suit with 3 to 5 ranks.
    """
    masks = np.array([m for m in range(8192) if 3 <= m.bit_count() <= 5])
    index = np.zeros(8192, dtype=np.uint16)
    index[masks] = np.arange(len(masks))
    bit = np.array([1 << r for r in range(13)] + [0])
    pair = bit[:, None] | bit[None, :]
    suited = (bit[:, None] != bit[None, :]) & (bit[:, None] > 0) & (bit[None, :] > 0)
    best = np.zeros((14, 14, len(masks)), dtype=np.uint16)
    for three in combinations(range(13), 3):
        triple = sum(1 << r for r in three)
        boards = np.flatnonzero((masks & triple) == triple)
        values = np.where(suited, flush_np[pair | triple], 0).astype(np.uint16)
        best[:, :, boards] = np.maximum(best[:, :, boards], values[:, :, None])
    return index, best.reshape(-1)


def _build_omaha_pairs(
    boards: list[tuple[int, ...]], nonflush: dict[int, int]
) -> npt.NDArray[np.uint16]:
    """Best non-flush hand from a hole rank pair plus any three board ranks (R-SHOW-3)."""
    five = 5 << COUNT_SHIFT
    out = np.zeros((13, 13, len(boards)), dtype=np.uint16)
    triples_of: list[list[int]] = []
    for counts in boards:
        ranks = [r for r in range(13) for _ in range(counts[r])]
        triples_of.append(
            sorted(
                {RANK_KEYS[a] + RANK_KEYS[b] + RANK_KEYS[c] for a, b, c in combinations(ranks, 3)}
            )
        )
    for ra in range(13):
        for rb in range(ra, 13):
            pair = RANK_KEYS[ra] + RANK_KEYS[rb] + five
            column = out[ra, rb]
            for index, triples in enumerate(triples_of):
                # A multiset with five of a rank cannot occur; .get skips it.
                column[index] = max(nonflush.get(pair + t, 0) for t in triples)
            out[rb, ra] = column
    return out.reshape(-1)


def _cache_dir() -> Path:
    root = os.environ.get("POKERROOM_CACHE") or os.environ.get("XDG_CACHE_HOME")
    return Path(root) / "pokerroom" if root else Path.home() / ".cache" / "pokerroom"


def _cache_path() -> Path:
    digest = hashlib.sha256(repr((TABLE_VERSION, RANK_KEYS, np.__version__)).encode()).hexdigest()[
        :16
    ]
    return _cache_dir() / f"tables-{digest}.npz"


def _save(tables: Tables, path: Path) -> None:
    nf_keys = np.fromiter(tables.nonflush.keys(), dtype=np.int64)
    nf_values = np.fromiter(tables.nonflush.values(), dtype=np.uint16)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
    np.savez(
        tmp,
        nf_keys=nf_keys,
        nf_values=nf_values,
        flush_np=tables.flush_np,
        hash7_offsets=tables.hash7.offsets,
        hash7_meta=np.array([tables.hash7.shift, tables.hash7.size]),
        nonflush7=tables.nonflush7,
        hash5_offsets=tables.hash5.offsets,
        hash5_meta=np.array([tables.hash5.shift, tables.hash5.size]),
        board5_index=tables.board5_index,
        omaha_pairs=tables.omaha_pairs,
        low_table=tables.low_table,
        omaha_flush_boards=tables.omaha_flush_boards,
        omaha_flush=tables.omaha_flush,
    )
    os.replace(tmp, path)  # atomic: a concurrent reader never sees half a file


def _load(path: Path) -> Tables:
    with np.load(path) as data:
        h7, h5 = data["hash7_meta"], data["hash5_meta"]
        flush_np = data["flush_np"]
        return Tables(
            nonflush=dict(zip(data["nf_keys"].tolist(), data["nf_values"].tolist(), strict=True)),
            flush=flush_np.tolist(),
            hash7=PerfectHash(int(h7[0]), data["hash7_offsets"], int(h7[1])),
            nonflush7=data["nonflush7"],
            flush_np=flush_np,
            hash5=PerfectHash(int(h5[0]), data["hash5_offsets"], int(h5[1])),
            board5_index=data["board5_index"],
            omaha_pairs=data["omaha_pairs"],
            low_table=data["low_table"],
            omaha_flush_boards=data["omaha_flush_boards"],
            omaha_flush=data["omaha_flush"],
        )


@cache
def tables() -> Tables:
    """The tables, from the disk cache when present, else built (and cached if possible)."""
    path = _cache_path()
    try:
        return _load(path)
    except (OSError, KeyError, ValueError):
        pass
    built = build_tables()
    with contextlib.suppress(OSError):  # a read-only home only costs a rebuild next time
        _save(built, path)
    return built
