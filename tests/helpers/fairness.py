"""A known shuffle: the server's and clients' seeds, the deck they make, and its verification
file."""

from __future__ import annotations

from typing import Any

from pokerroom.cards import FULL_DECK
from pokerroom.fairness import (
    Shuffle,
    dealt_positions,
)

SERVER_SEED = bytes(range(32))


CLIENT_SEEDS = ["00112233445566778899aabbccddeeff", "0123456789abcdef"]


# The known answer: web/js/fairness.js must compute the same (tests/browser/test_fairness.py).
KNOWN_DECK = [
    44, 8, 34, 49, 10, 28, 3, 42, 45, 37, 1, 20, 21, 11, 32, 5, 23, 27, 22, 39, 43, 13, 0, 33,
    19, 47, 46, 12, 15, 16, 14, 7, 35, 36, 25, 30, 51, 24, 9, 31, 40, 6, 26, 29, 50, 17, 18, 41,
    38, 48, 2, 4,
]  # fmt: skip


def document() -> dict[str, Any]:
    """A reveal as the room exports it for the player in position 1 of a 3-handed hand."""
    deck = KNOWN_DECK
    hole, board = dealt_positions(3, 2)
    return {
        **Shuffle.deal(SERVER_SEED, CLIENT_SEEDS).reveal(),
        "table": "nlhe-1-2",
        "hand": 17,
        "players": 3,
        "hole_cards": 2,
        "position": 1,
        "your_cards": [str(FULL_DECK[deck[k]]) for k in hole[1]],
        "board": [str(FULL_DECK[deck[k]]) for k in board[:4]],
    }
