"""The numpy batch evaluators against the one-at-a-time ones, on the paths a batch can take:
block boundaries, input layouts and dtypes, and flushes (rare in random hands, so they are
drawn on purpose here)."""

from itertools import combinations

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.evaluation import batch, evaluate7, evaluate7_batch, evaluate_codes, omaha_high_batch

LAYOUTS = ["contiguous", "column slice", "fortran", "reversed", "int16", "uint8"]


@st.composite
def seven_cards(draw: st.DrawFn) -> list[int]:
    """Seven distinct codes; half the time four to seven of them share a suit."""
    if draw(st.booleans()):
        return draw(st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True))
    suit = draw(st.integers(0, 3))
    count = draw(st.integers(4, 7))
    ranks = draw(st.lists(st.integers(0, 12), min_size=count, max_size=count, unique=True))
    suited = [rank * 4 + suit for rank in ranks]
    others = st.integers(0, 51).filter(lambda code: code not in suited)
    rest = draw(st.lists(others, min_size=7 - count, max_size=7 - count, unique=True))
    return draw(st.permutations(suited + rest))


@st.composite
def omaha_deals(draw: st.DrawFn) -> tuple[list[int], list[int]]:
    """Four hole codes and five board codes, all distinct; half the time one suit has one to
    four hole cards and two to five board cards (a flush needs two and three)."""
    if draw(st.booleans()):
        nine = draw(st.lists(st.integers(0, 51), min_size=9, max_size=9, unique=True))
        return nine[:4], nine[4:]
    suit = draw(st.integers(0, 3))
    in_hole, on_board = draw(st.integers(1, 4)), draw(st.integers(2, 5))
    count = in_hole + on_board
    ranks = draw(st.lists(st.integers(0, 12), min_size=count, max_size=count, unique=True))
    suited = [rank * 4 + suit for rank in ranks]
    others = st.integers(0, 51).filter(lambda code: code not in suited)
    rest = draw(st.lists(others, min_size=9 - count, max_size=9 - count, unique=True))
    hole = suited[:in_hole] + rest[: 4 - in_hole]
    board = suited[in_hole:] + rest[4 - in_hole :]
    return draw(st.permutations(hole)), draw(st.permutations(board))


def _omaha_reference(hole: list[int], board: list[int]) -> int:
    """Exactly two hole cards and three board cards (R-SHOW-3): the best of the 60 fives."""
    return max(
        evaluate_codes([*two, *three])
        for two in combinations(hole, 2)
        for three in combinations(board, 3)
    )


def _laid_out(hands: list[list[int]], layout: str) -> npt.NDArray[np.integer]:
    width = len(hands[0]) if hands else 7
    codes = np.array(hands, dtype=np.int64).reshape(-1, width)
    if layout == "column slice":  # as argsort(...)[:, :7]: rows are not adjacent in memory
        wide = np.full((len(codes), width + 4), -1, dtype=np.int64)
        wide[:, 2 : 2 + width] = codes
        return wide[:, 2 : 2 + width]
    if layout == "fortran":
        return np.asfortranarray(codes)
    if layout == "reversed":
        return codes[::-1].copy()[::-1]
    if layout in ("int16", "uint8"):
        return codes.astype(layout)
    return codes


@given(
    hands=st.lists(seven_cards(), max_size=40),
    rows=st.integers(1, 9),
    layout=st.sampled_from(LAYOUTS),
)
def test_batch_equals_one_at_a_time_across_blocks_layouts_and_flushes(
    hands: list[list[int]], rows: int, layout: str
) -> None:
    expected = [evaluate7(*hand) for hand in hands]
    codes = _laid_out(hands, layout)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(batch, "_ROWS", rows)  # many blocks and a short last one
        strengths = evaluate7_batch(codes)
    assert strengths.dtype == np.uint16
    assert strengths.tolist() == expected
    assert codes.tolist() == hands  # the caller's array is left as it was


def test_every_flush_of_every_suit_through_the_batch() -> None:
    """Each suit's flush and straight flush masks at a block's first, middle and last rows."""
    rng = np.random.default_rng(21)
    hands = []
    for suit in range(4):
        straights = [[12, 0, 1, 2, 3]] + [list(range(top - 4, top + 1)) for top in range(4, 13)]
        picks = [np.array(s) for s in straights]
        picks += [rng.choice(13, size=rng.integers(5, 8), replace=False) for _ in range(300)]
        for ranks in picks:
            suited = ranks * 4 + suit
            others = rng.choice(np.setdiff1d(np.arange(52), suited), 7 - len(suited), False)
            hands.append(rng.permutation(np.concatenate((suited, others))).tolist())
    expected = [evaluate7(*hand) for hand in hands]
    assert evaluate7_batch(_laid_out(hands, "column slice")).tolist() == expected
    assert evaluate7_batch(np.array(hands)).tolist() == expected


@given(
    deals=st.lists(omaha_deals(), max_size=30),
    rows=st.integers(1, 9),
    hole_layout=st.sampled_from(LAYOUTS),
    board_layout=st.sampled_from(LAYOUTS),
)
def test_omaha_batch_equals_the_best_of_sixty_across_blocks_layouts_and_flushes(
    deals: list[tuple[list[int], list[int]]], rows: int, hole_layout: str, board_layout: str
) -> None:
    expected = [_omaha_reference(hole, board) for hole, board in deals]
    holes = _laid_out([hole for hole, _ in deals], hole_layout).reshape(-1, 4)
    boards = _laid_out([board for _, board in deals], board_layout).reshape(-1, 5)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(batch, "_CHUNK", rows)
        strengths = omaha_high_batch(holes, boards)
    assert strengths.tolist() == expected
    assert list(zip(holes.tolist(), boards.tolist(), strict=True)) == deals


def test_omaha_batch_with_one_hand_against_many_boards() -> None:
    """As equity() calls it: the hand broadcast (every row the same memory) over the boards."""
    rng = np.random.default_rng(22)
    hole = [50, 46, 42, 7]  # Ah Qh Jh 3s
    rest = np.setdiff1d(np.arange(52), hole)
    boards = np.array([rng.choice(rest, 5, replace=False) for _ in range(2_000)])
    strengths = omaha_high_batch(np.broadcast_to(np.array(hole), (len(boards), 4)), boards)
    assert strengths.tolist() == [_omaha_reference(hole, b) for b in boards.tolist()]


def test_a_code_past_51_is_refused() -> None:
    hands = np.array([[0, 1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4, 5, 52]])
    with pytest.raises(IndexError):
        evaluate7_batch(hands)
    with pytest.raises(IndexError):
        omaha_high_batch(hands[:, :4], hands[:, 2:])
