"""The showdown: hand values (high: Hold'em any five, Omaha two plus three; the low), and
the rules of who shows in what order, who must show, who can still win, and what an
automatic showdown does with each hand."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from pokerroom.engine.events import CardsShown, HandMucked
from pokerroom.engine.pots import build_pots
from pokerroom.engine.state import HandState, Phase
from pokerroom.evaluation.classes import describe
from pokerroom.evaluation.high import evaluate_codes
from pokerroom.evaluation.low import LOW_CHARS
from pokerroom.evaluation.tables import tables
from pokerroom.rules.game import Variant

_PAIRS4 = tuple(combinations(range(4), 2))
_LOW_BIT = tuple(
    1 if code >> 2 == 12 else (1 << ((code >> 2) + 1) if code >> 2 <= 6 else 0)
    for code in range(52)
)


@cache
def _low_table() -> list[int]:
    return [int(v) for v in tables().low_table]


def high_strength(variant: Variant, hole: Sequence[int], board: Sequence[int]) -> int:
    """Strength (higher wins) by the variant's rule (R-SHOW-2, R-SHOW-3)."""
    return best_high(variant.two_plus_three, hole, board)


def best_high(two_plus_three: bool, hole: Sequence[int], board: Sequence[int]) -> int:
    """Strength of any five cards, or (``two_plus_three``) of exactly two hole and three board
    cards: ``high_strength`` with the variant's rule already looked up."""
    if not two_plus_three:
        return evaluate_codes([*hole, *board])
    best = 0
    triples = list(combinations(board, 3))
    for a, b in _PAIRS4:
        pair = (hole[a], hole[b])
        for triple in triples:
            value = evaluate_codes((*pair, *triple))
            if value > best:
                best = value
    return best


def low_score(hole: Sequence[int], board: Sequence[int]) -> int:
    """Eight-or-better low score, 0 for none (R-HILO-2 .. R-HILO-4, R-HILO-8)."""
    hole_mask = 0
    for code in hole:
        hole_mask |= _LOW_BIT[code]
    board_mask = 0
    for code in board:
        board_mask |= _LOW_BIT[code]
    return _low_table()[hole_mask << 8 | board_mask]


# Names are asked for at every showdown: each is built once (7,462 high, 256 low at most).
_HIGH_NAMES: dict[int, str] = {}
_LOW_NAMES: dict[int, str] = {}


def describe_low(score: int) -> str:
    name = _LOW_NAMES.get(score)
    if name is None:
        mask = 256 - score
        name = "-".join(LOW_CHARS[r] for r in range(7, -1, -1) if mask >> r & 1) if score else ""
        _LOW_NAMES[score] = name
    return name


def describe_high(strength: int) -> str:
    name = _HIGH_NAMES.get(strength)
    if name is None:
        name = _HIGH_NAMES[strength] = describe(strength)
    return name


# ----------------------------------------------------------------- the showdown of a hand


def start_showdown(h: HandState) -> None:
    """R-SHOW-4: the last aggressor of the last betting round shows first, else the first
    player left of the button; then clockwise."""
    h._set_phase(Phase.SHOWDOWN)
    in_hand = [not f for f in h.folded]
    h._showdown_pots = build_pots(h.live, sum(h.dead), in_hand)
    alive = [i for i in range(h.n) if not h.folded[i]]
    first = h.aggressor if h.aggressor is not None and not h.folded[h.aggressor] else alive[0]
    # Clockwise from ``first``: the positions from it on, then those before it.
    h.showdown_order = [i for i in alive if i >= first] + [i for i in alive if i < first]
    h.actor = None


def must_show_reason(h: HandState, i: int) -> str | None:
    """Why player i may not muck, or None when they may."""
    if h._show_policy == "all_show":
        return "the house shows every hand at showdown"
    if h.all_in[i] or h.protected[i]:
        return "an all-in hand is always shown"
    if len(h.board) < 5:
        return "hands are shown before an all-in run-out"
    if h._show_policy == "last_aggressor_must_show" and i == h.aggressor:
        return "the last bettor on the river must show"
    if _contested_pots(h, i)[1]:
        return "no other hand is left to contest the pot"
    return None


def may_muck(h: HandState, i: int) -> bool:
    return must_show_reason(h, i) is None


def shows_automatically(h: HandState, i: int) -> bool:
    """The automatic decision: show a hand that must be shown or can still win, else muck."""
    return not may_muck(h, i) or can_win(h, i)


def uncontested(h: HandState, i: int) -> bool:
    """No other hand left in any pot of i's: i wins those without showing (R-POT-5)."""
    return not _contested_pots(h, i)[0]


def _contested_pots(h: HandState, i: int) -> tuple[bool, bool]:
    """(in some pot of i's another hand is live, in some pot of i's none is: i is the sole
    claimant once every other live hand there has been mucked)."""
    mucked = h.mucked
    some_contested = some_alone = False
    for pot in h._showdown_pots or ():
        if i in pot.eligible:
            if any(j != i and not mucked[j] for j in pot.eligible):
                some_contested = True
            else:
                some_alone = True
    return some_contested, some_alone


def hand_value(h: HandState, i: int) -> tuple[int, int]:
    """(high strength, low score) of a hand on the complete board, computed once."""
    value = h._values.get(i)
    if value is None:
        high = best_high(h._two_plus_three, h.hole[i], h.board)
        low = low_score(h.hole[i], h.board) if h._hi_lo else 0
        value = h._values[i] = (high, low)
    return value


def board_value(h: HandState, i: int, board: Sequence[int]) -> tuple[int, int]:
    """(high strength, low score) of a hand on another board (R-RIT-1's second run)."""
    high = best_high(h._two_plus_three, h.hole[i], board)
    return high, low_score(h.hole[i], board) if h._hi_lo else 0


def can_win(h: HandState, i: int) -> bool:
    """Could this hand win or tie any part of a pot against the hands shown so far?"""
    if len(h.board) < 5:
        return True
    mine_high, mine_low = hand_value(h, i)
    shown = h.shown
    for pot in h._showdown_pots or ():
        if i not in pot.eligible:
            continue
        rivals = [hand_value(h, j) for j in pot.eligible if shown[j]]
        if not rivals:
            return True
        if mine_high >= max(v[0] for v in rivals):
            return True
        if mine_low and mine_low >= max(v[1] for v in rivals):
            return True
    return False


def show(h: HandState, i: int) -> None:
    if h.showdown_order and h.showdown_order[0] == i:
        h.showdown_order.pop(0)
    h.shown[i] = True
    high = low = ""
    if len(h.board) == 5:
        strength, score = hand_value(h, i)
        high = describe_high(strength)
        low = describe_low(score)
    h._emit(CardsShown(position=i, seat=h.seats[i], cards=h.hole_cards(i), high=high, low=low))


def muck(h: HandState, i: int) -> None:
    if h.showdown_order and h.showdown_order[0] == i:
        h.showdown_order.pop(0)
    h.mucked[i] = True  # R-SHOW-9: a mucked hand gives up every claim
    h._emit(HandMucked(position=i, seat=h.seats[i]))


def shown_hand_name(h: HandState, i: int) -> str:
    strength, score = hand_value(h, i)
    name, low = describe_high(strength), describe_low(score)
    return f"{name}; {low} low" if low else name
