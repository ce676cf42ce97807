"""The numpy batch evaluators against the one-at-a-time ones, on the paths a batch can take:
block boundaries, input layouts and dtypes, and flushes (about 3% of random hands, so
they are drawn on purpose here)."""

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.evaluation import batch, evaluate7, evaluate7_batch

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


def _laid_out(hands: list[list[int]], layout: str) -> npt.NDArray[np.integer]:
    codes = np.array(hands, dtype=np.int64).reshape(-1, 7)
    if layout == "column slice":  # as argsort(...)[:, :7]: rows are not adjacent in memory
        wide = np.full((len(codes), 11), -1, dtype=np.int64)
        wide[:, 2:9] = codes
        return wide[:, 2:9]
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
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(batch, "_ROWS", rows)  # many blocks and a short last one
        strengths = evaluate7_batch(_laid_out(hands, layout))
    assert strengths.dtype == np.uint16
    assert strengths.tolist() == expected


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


def test_a_code_past_51_is_refused() -> None:
    hands = np.array([[0, 1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4, 5, 52]])
    with pytest.raises(IndexError):
        evaluate7_batch(hands)
