"""Cards: an immutable ``Card`` type, parsing and printing, and integer codes.

A card's integer code is ``rank * 4 + suit`` with deuce = 0 .. ace = 12 and
clubs, diamonds, hearts, spades = 0..3, so codes run 0..51. The fast paths
(evaluation, shuffling) work on codes; everything else on ``Card``.

>>> parse_cards("AsKd7c")
(Card('As'), Card('Kd'), Card('7c'))
>>> Card.parse("10d").code
35
>>> str(Card.from_code(51))
'As'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"
RANK_NAMES: Final = (
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
DECK_SIZE: Final = 52


class CardError(ValueError):
    """Base class of every card error."""


class MalformedCardError(CardError):
    """Text that is not a card, such as ``"1x"`` or ``"A"``."""


class DuplicateCardError(CardError):
    """The same card appears twice where every card must be distinct."""


class Card:
    """One playing card. Instances are interned: there are exactly 52."""

    __slots__ = ("code", "rank", "suit")

    code: int
    rank: int
    suit: int

    def __new__(cls, code: int) -> Card:
        if not isinstance(code, int) or not 0 <= code < DECK_SIZE:
            raise MalformedCardError(f"card code {code!r} is not in 0..51")
        return _ALL[code] if _ALL else super().__new__(cls)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    @classmethod
    def _make(cls, code: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "code", code)
        object.__setattr__(card, "rank", code >> 2)
        object.__setattr__(card, "suit", code & 3)
        return card

    @staticmethod
    def from_code(code: int) -> Card:
        """The card with integer code ``code`` (0..51)."""
        if not 0 <= code < DECK_SIZE:
            raise MalformedCardError(f"card code {code!r} is not in 0..51")
        return _ALL[code]

    @staticmethod
    def parse(text: str) -> Card:
        """Parse ``As``, ``td``, ``10d``; anything else raises MalformedCardError."""
        card = _BY_TEXT.get(text.strip()) if isinstance(text, str) else None
        if card is None:
            raise MalformedCardError(f"{text!r} is not a card (expected rank and suit, e.g. 'As')")
        return card

    @property
    def rank_char(self) -> str:
        return RANKS[self.rank]

    @property
    def suit_char(self) -> str:
        return SUITS[self.suit]

    def __str__(self) -> str:
        return RANKS[self.rank] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __hash__(self) -> int:
        return self.code

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        return self.code < other.code

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_code, (self.code,))


_ALL: tuple[Card, ...] = ()
_ALL = tuple(Card._make(code) for code in range(DECK_SIZE))


def _text_table() -> dict[str, Card]:
    table: dict[str, Card] = {}
    for card in _ALL:
        for rank_text in (card.rank_char, card.rank_char.lower()):
            for suit_text in (card.suit_char, card.suit_char.upper()):
                table[rank_text + suit_text] = card
        if card.rank_char == "T":
            table["10" + card.suit_char] = card
            table["10" + card.suit_char.upper()] = card
    return table


_BY_TEXT: Final = _text_table()
FULL_DECK: Final[tuple[Card, ...]] = _ALL


def _split(text: str) -> Iterator[str]:
    """Split concatenated or space-separated card text into two-/three-char tokens."""
    compact = "".join(text.split())
    i = 0
    while i < len(compact):
        size = 3 if compact.startswith("10", i) else 2
        token = compact[i : i + size]
        if len(token) < size:
            raise MalformedCardError(f"{token!r} in {text!r} is not a card (incomplete)")
        yield token
        i += size


def parse_cards(text: str | Iterable[str], *, allow_duplicates: bool = False) -> tuple[Card, ...]:
    """Parse many cards: ``"AsKd7c"``, ``"As Kd 7c"`` or ``["As", "Kd"]``.

    Raises MalformedCardError for a bad card and DuplicateCardError when a card
    repeats (unless ``allow_duplicates``).
    """
    tokens = list(_split(text)) if isinstance(text, str) else list(text)
    cards = tuple(Card.parse(token) for token in tokens)
    if not allow_duplicates:
        ensure_distinct(cards)
    return cards


def ensure_distinct(cards: Iterable[Card]) -> None:
    """Raise DuplicateCardError naming the first card that appears twice."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise DuplicateCardError(f"card {card} appears more than once")
        seen.add(card)


def format_cards(cards: Iterable[Card]) -> str:
    """``"AsKd7c"``: the compact notation PHH uses."""
    return "".join(str(card) for card in cards)


def codes(cards: Iterable[Card]) -> list[int]:
    """Integer codes of ``cards``, for the fast paths."""
    return [card.code for card in cards]
