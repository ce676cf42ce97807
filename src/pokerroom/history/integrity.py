"""The floor's integrity reports, read from stored hands as the room recorded them (every
card). A report shows, it never accuses: each is a ranked list of pairs of accounts, with
the numbers behind the rank and the hands that support it, for a person to look at.

- ``chip_dumping``: chips that go one way between the same two accounts, and strong
  hands folded to that one opponent.
- ``soft_play``: two accounts who, on the streets after the flop they play together, never
  bet or raise against each other, measured against how often the room's pairs do.
- ``shared_connections``: accounts seen from one address or one device who played the
  same hands.

Each report has a ``threshold``: rows at or above it are the ones worth a look (an honest
room's pairs stay below it); the rest are listed too, ranked, for context.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from pokerroom.engine.events import ActionTaken, BoardDealt, Move
from pokerroom.engine.hand import Hand, Phase
from pokerroom.engine.showdown import high_strength
from pokerroom.evaluation.classes import Category, category_of
from pokerroom.rules.game import Variant

# How far a pair's one-way flow stands out from chance (in standard deviations of the
# pair's own hand-by-hand flows), plus one for each strong hand folded to the other.
DUMPING_THRESHOLD: Final = 4.0
# -log10 of the chance that an honest pair bets as seldom as this pair did heads-up.
SOFT_PLAY_THRESHOLD: Final = 6.0
SHARED_THRESHOLD: Final = 1.0  # any hand played together from one address or device


@dataclass(frozen=True, slots=True)
class FloorHand:
    """A stored, complete hand as the floor reads it: the room's record (every card) and
    the account at each position."""

    hand_id: int
    hand: Hand
    accounts: tuple[int, ...]  # by position
    table_id: str


@dataclass(frozen=True, slots=True)
class PairRow:
    """One row of a report: a pair of accounts (for chip-dumping, from the one who gives
    to the one who gets), its score, the numbers behind it and the supporting hands."""

    accounts: tuple[int, int]
    score: float
    numbers: dict[str, float]
    hands: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Report:
    name: str
    threshold: float
    rows: list[PairRow]  # highest score first

    @property
    def flagged(self) -> list[PairRow]:
        """The rows at or above the threshold."""
        return [r for r in self.rows if r.score >= self.threshold]


def _ranked(name: str, threshold: float, rows: Iterable[PairRow]) -> Report:
    return Report(name, threshold, sorted(rows, key=lambda r: (-r.score, r.accounts)))


def _complete(hands: Iterable[FloorHand]) -> list[FloorHand]:
    return [h for h in hands if h.hand.phase is Phase.COMPLETE]


# ------------------------------------------------------------------ chip-dumping


@dataclass(slots=True)
class _Flow:
    chips: float = 0.0
    squares: float = 0.0
    hands: list[int] = field(default_factory=list)
    strong_folds: list[int] = field(default_factory=list)


def transfers(hand: Hand) -> dict[tuple[int, int], float]:
    """Who paid whom in a hand, by position: each loser's loss shared among the winners in
    proportion to what each won (the rake is the difference)."""
    nets = [hand.stacks[i] - hand.starting_stacks[i] for i in range(hand.n)]
    won = sum(n for n in nets if n > 0)
    if won == 0:
        return {}
    return {
        (loser, winner): -nets[loser] * nets[winner] / won
        for loser in range(hand.n)
        if nets[loser] < 0
        for winner in range(hand.n)
        if nets[winner] > 0
    }


def _strong(hand: Hand, position: int, board: Sequence[int]) -> int:
    codes = [c.code for c in hand.hole_cards(position)]
    return high_strength(hand.variant, codes, list(board)[:5])


def strong_folds(hand: Hand) -> list[tuple[int, int]]:
    """(folder, bettor) for each fold, heads-up, to a bet or raise, of a hand that was
    strong and ahead of the bettor's at that moment: after the flop two pair or better
    that beat the bettor's hand on the board dealt; before it (Hold'em) queens or better,
    or ace-king."""
    folds: list[tuple[int, int]] = []
    board: list[int] = []
    folded = [False] * hand.n
    bettor: int | None = None
    for event in hand.events:
        if isinstance(event, BoardDealt):
            board += [c.code for c in event.cards]
            bettor = None
            continue
        if not isinstance(event, ActionTaken):
            continue
        if event.action in (Move.BET, Move.RAISE):
            bettor = event.position
        elif event.action is Move.FOLD:
            alive = [i for i in range(hand.n) if not folded[i]]
            folder = event.position
            heads_up = bettor is not None and len(alive) == 2 and bettor in alive
            if heads_up and bettor is not None and _was_strong(hand, folder, bettor, board):
                folds.append((folder, bettor))
            folded[folder] = True
    return folds


def _was_strong(hand: Hand, folder: int, bettor: int, board: list[int]) -> bool:
    if len(board) >= 3:
        mine = _strong(hand, folder, board)
        return category_of(mine) >= Category.TWO_PAIR and mine > _strong(hand, bettor, board)
    if hand.variant is not Variant.HOLDEM:
        return False
    high, low = sorted((c.rank for c in hand.hole_cards(folder)), reverse=True)
    return (high == low and high >= 10) or (high == 12 and low == 11)  # QQ+, AK


def chip_dumping(hands: Iterable[FloorHand], *, min_hands: int = 5) -> Report:
    """Pairs (giver, getter) ranked by how one-sided the chips between them went: the net
    flow from giver to getter over the square root of the sum of the squares of every
    flow between them (about 1 for chance, the square root of the hands when every hand
    goes one way), plus one for each strong hand the giver folded heads-up to the getter.
    Pairs with fewer than ``min_hands`` hands of chips between them are left out."""
    flows: dict[tuple[int, int], _Flow] = defaultdict(_Flow)
    for floor in _complete(hands):
        names = floor.accounts
        for (loser, winner), chips in transfers(floor.hand).items():
            flow = flows[(names[loser], names[winner])]
            flow.chips += chips
            flow.squares += chips * chips
            flow.hands.append(floor.hand_id)
        for folder, bettor in strong_folds(floor.hand):
            flows[(names[folder], names[bettor])].strong_folds.append(floor.hand_id)
    rows = []
    for (giver, getter), there in flows.items():
        back = flows.get((getter, giver), _Flow())
        net = there.chips - back.chips
        spread = math.sqrt(there.squares + back.squares)
        if net <= 0 or len(there.hands) + len(back.hands) < min_hands or spread == 0:
            continue
        z = net / spread
        folds = len(there.strong_folds)
        rows.append(
            PairRow(
                (giver, getter),
                z + folds,
                {
                    "net": round(net),
                    "gross": round(there.chips + back.chips),
                    "z": round(z, 2),
                    "strong_folds": folds,
                    "hands": len(there.hands) + len(back.hands),
                },
                tuple(sorted({*there.hands, *there.strong_folds})),
            )
        )
    return _ranked("chip_dumping", DUMPING_THRESHOLD, rows)


# ------------------------------------------------------------------ soft-play


def shared_streets(hand: Hand) -> list[tuple[tuple[int, int], tuple[bool, bool]]]:
    """For each street after the flop is dealt, each pair of players (positions, the lower
    first) who both began it in the hand and able to bet, and whether each bet or raised on
    it while the other was still in."""
    out: list[tuple[tuple[int, int], tuple[bool, bool]]] = []
    folded = [False] * hand.n
    all_in = [False] * hand.n
    pairs: dict[tuple[int, int], tuple[bool, bool]] = {}
    for event in hand.events:
        if isinstance(event, BoardDealt):
            out += pairs.items()
            able = [i for i in range(hand.n) if not folded[i] and not all_in[i]]
            pairs = {(a, b): (False, False) for k, a in enumerate(able) for b in able[k + 1 :]}
        elif isinstance(event, ActionTaken):
            who = event.position
            if event.action in (Move.BET, Move.RAISE):
                for (a, b), (by_a, by_b) in pairs.items():
                    if who == a and not folded[b]:
                        pairs[(a, b)] = (True, by_b)
                    elif who == b and not folded[a]:
                        pairs[(a, b)] = (by_a, True)
            folded[who] |= event.action is Move.FOLD
            all_in[who] |= event.all_in
    return out + list(pairs.items())


def _never_as_seldom(n: int, k: int, p: float) -> float:
    """-log10 of the chance of at most ``k`` bets in ``n`` streets that each see one with
    chance ``p``."""
    if n == 0:
        return 0.0
    p = min(max(p, 1e-6), 1 - 1e-6)
    total = sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k + 1))
    return -math.log10(max(total, 1e-300))


def soft_play(hands: Iterable[FloorHand]) -> Report:
    """Pairs ranked by how seldom either bets or raises against the other on the streets
    after the flop they both play, against what their own play elsewhere leads one to
    expect: each player's rate of betting against the others (this partner left out),
    ``a`` and ``b``, make ``1 - (1 - a)(1 - b)`` the chance a street of theirs sees a bet.
    The score is -log10 of the chance of as few bets as they made at that rate (a passive
    player is passive with everyone, and scores low). Supporting hands: their streets
    without a bet."""
    streets: dict[tuple[int, int], list[tuple[int, bool, bool]]] = defaultdict(list)
    for floor in _complete(hands):
        names = floor.accounts
        for (a, b), (by_a, by_b) in shared_streets(floor.hand):
            if names[a] < names[b]:
                streets[(names[a], names[b])].append((floor.hand_id, by_a, by_b))
            elif names[b] < names[a]:
                streets[(names[b], names[a])].append((floor.hand_id, by_b, by_a))
    played: dict[int, list[int]] = defaultdict(lambda: [0, 0])  # account: [streets, bets]
    for (a, b), seen in streets.items():
        for _, by_a, by_b in seen:
            played[a][0] += 1
            played[a][1] += by_a
            played[b][0] += 1
            played[b][1] += by_b
    rows = []
    for (a, b), seen in streets.items():
        n = len(seen)
        k = sum(by_a or by_b for _, by_a, by_b in seen)
        rates = []
        for me, mine in ((a, 1), (b, 2)):
            streets_elsewhere = played[me][0] - n
            bets_elsewhere = played[me][1] - sum(s[mine] for s in seen)
            rates.append(bets_elsewhere / streets_elsewhere if streets_elsewhere else 0.0)
        expected = 1 - (1 - rates[0]) * (1 - rates[1])
        rows.append(
            PairRow(
                (a, b),
                round(_never_as_seldom(n, k, expected), 2),
                {"streets": n, "bets": k, "expected_rate": round(expected, 3)},
                tuple(sorted({h for h, by_a, by_b in seen if not (by_a or by_b)})),
            )
        )
    return _ranked("soft_play", SOFT_PLAY_THRESHOLD, rows)


# ------------------------------------------------------------------ shared connections


@dataclass(frozen=True, slots=True)
class Seen:
    """An account seen from an address and a device (as the store records them)."""

    account: int
    address: str
    device: str


def shared_connections(hands: Iterable[FloorHand], seen: Iterable[Seen]) -> Report:
    """Pairs of accounts seen from one address or one device, ranked by the hands they
    were dealt into together; the supporting hands are those."""
    by_key: dict[tuple[str, str], set[int]] = defaultdict(set)
    for s in seen:
        by_key[("address", s.address)].add(s.account)
        if s.device:
            by_key[("device", s.device)].add(s.account)
    shares: dict[tuple[int, int], set[str]] = defaultdict(set)
    for (kind, _), accounts in by_key.items():
        ordered = sorted(accounts)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1 :]:
                shares[(a, b)].add(kind)
    together: dict[tuple[int, int], list[int]] = defaultdict(list)
    for floor in _complete(hands):
        present = sorted(set(floor.accounts))
        for i, a in enumerate(present):
            for b in present[i + 1 :]:
                if (a, b) in shares:
                    together[(a, b)].append(floor.hand_id)
    rows = [
        PairRow(
            pair,
            float(len(together[pair])),
            {"address": int("address" in kinds), "device": int("device" in kinds)},
            tuple(together[pair]),
        )
        for pair, kinds in shares.items()
    ]
    return _ranked("shared_connections", SHARED_THRESHOLD, rows)
