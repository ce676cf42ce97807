"""Hold'em starting-hand ranges: ``"QQ+,AKs"``, ``"random"``, ``"AhKh"``, ``"22-55"``.

A range is a comma-separated list of parts, each one of:

- ``random`` (or ``any``): all 1,326 two-card hands;
- an exact hand, ``AhKh``;
- a pair ``QQ``, a pair and every pair above it ``QQ+``, or a span of pairs ``22-55``;
- two ranks, suited ``AKs``, offsuit ``AKo`` or both ``AK``; with ``+`` the second rank
  rises up to just below the first (``A5s+`` is A5s..AKs, ``T9s+`` is T9s alone); a span
  keeps the first rank and runs the second (``A5s-A2s`` is A2s, A3s, A4s, A5s).

Parts may repeat or overlap; a range holds each hand once.

>>> len(parse_range("QQ+,AKs")), len(parse_range("random")), len(parse_range("A5s-A2s"))
(22, 1326, 16)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations

from pokerroom.cards import RANKS, SUITS, Card, CardError, parse_cards

Combo = tuple[Card, Card]  # higher code first


class RangeError(ValueError):
    """Text that is not a hand range; the message names the part at fault."""


_PART = re.compile(r"^([2-9TJQKA])([2-9TJQKA])([so]?)(\+?)$")
_SPAN = re.compile(r"^([2-9TJQKA])([2-9TJQKA])([so]?)-([2-9TJQKA])([2-9TJQKA])([so]?)$")
_EXACT = re.compile(r"^(?:10|[2-9TJQKA])[cdhs](?:10|[2-9TJQKA])[cdhs]$", re.IGNORECASE)
_RANDOM = ("random", "any")


def _combo(a: Card, b: Card) -> Combo:
    return (a, b) if a.code > b.code else (b, a)


def _pairs(rank: int) -> list[Combo]:
    cards = [Card(rank * 4 + s) for s in range(len(SUITS))]
    return [_combo(a, b) for a, b in combinations(cards, 2)]


def _two_ranks(high: int, low: int, kind: str) -> list[Combo]:
    """Hands of ranks ``high`` and ``low`` (distinct): kind "s" suited, "o" offsuit, "" both."""
    out = []
    for sh in range(len(SUITS)):
        for sl in range(len(SUITS)):
            if (kind == "s" and sh != sl) or (kind == "o" and sh == sl):
                continue
            out.append(_combo(Card(high * 4 + sh), Card(low * 4 + sl)))
    return out


def _ranks(first: str, second: str, part: str) -> tuple[int, int]:
    high, low = RANKS.index(first.upper()), RANKS.index(second.upper())
    if low > high:
        raise RangeError(f"{part!r}: write the higher rank first ({second}{first})")
    return high, low


def _part(part: str) -> list[Combo]:
    if part.lower() in _RANDOM:
        return [_combo(a, b) for a, b in combinations([Card(c) for c in range(52)], 2)]
    if _EXACT.match(part):
        try:
            a, b = parse_cards(part)
        except CardError as error:
            raise RangeError(f"{part!r}: {error}") from error
        if a == b:
            raise RangeError(f"{part!r} holds {a} twice")
        return [_combo(a, b)]
    upper = part[:2].upper() + part[2:]
    if match := _PART.match(upper):
        first, second, kind, plus = match.groups()
        high, low = _ranks(first, second, part)
        if high == low:
            if kind:
                raise RangeError(f"{part!r}: a pair is neither suited nor offsuit")
            return [c for r in range(high, len(RANKS)) for c in _pairs(r)] if plus else _pairs(high)
        lows = range(low, high) if plus else range(low, low + 1)
        return [c for r in lows for c in _two_ranks(high, r, kind)]
    if match := _SPAN.match(part.upper().replace("S", "s").replace("O", "o")):
        f1, s1, k1, f2, s2, k2 = match.groups()
        h1, l1 = _ranks(f1, s1, part)
        h2, l2 = _ranks(f2, s2, part)
        if k1 != k2:
            raise RangeError(f"{part!r}: both ends of a span must be alike (suited, offsuit)")
        if h1 == l1 and h2 == l2:
            if k1:
                raise RangeError(f"{part!r}: a pair is neither suited nor offsuit")
            return [c for r in range(min(h1, h2), max(h1, h2) + 1) for c in _pairs(r)]
        if h1 != h2 or h1 == l1 or h2 == l2:
            raise RangeError(f"{part!r}: a span keeps its first rank ({f1}{s1}{k1}-{f1}..{k1})")
        return [c for r in range(min(l1, l2), max(l1, l2) + 1) for c in _two_ranks(h1, r, k1)]
    raise RangeError(
        f"{part!r} is not a range part: try 'random', 'AhKh', 'QQ+', 'AKs', 'T9s+', '22-55'"
    )


@dataclass(frozen=True, slots=True)
class HandRange:
    """The distinct two-card hands a range stands for, in a fixed order, and its text."""

    text: str
    combos: tuple[Combo, ...]

    def __len__(self) -> int:
        return len(self.combos)

    def __str__(self) -> str:
        return self.text

    def without(self, cards: set[Card]) -> HandRange:
        """The hands that hold none of ``cards`` (the board, dead cards)."""
        kept = tuple(c for c in self.combos if c[0] not in cards and c[1] not in cards)
        return HandRange(self.text, kept)


def parse_range(text: str) -> HandRange:
    """The hands of ``text``; raises RangeError naming the first part that is not a range."""
    parts = [p.strip() for p in text.split(",")]
    if not text.strip():
        raise RangeError("an empty range: name at least one hand, e.g. 'AKs' or 'random'")
    seen: dict[tuple[int, int], Combo] = {}
    for part in parts:
        if not part:
            raise RangeError(f"{text!r} has an empty part between commas")
        for combo in _part(part):
            seen.setdefault((combo[0].code, combo[1].code), combo)
    return HandRange(text.strip(), tuple(seen[k] for k in sorted(seen)))
