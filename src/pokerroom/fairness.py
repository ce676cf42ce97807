"""A shuffle every player can verify (the scheme in plain words: docs/fairness.md).

Before a hand the room draws a 32-byte *server seed* and publishes its SHA-256, the *seed
commitment*. Players may then add *client seeds* of their own. The deck is an unbiased
Fisher-Yates shuffle (``rng.shuffled_codes``) driven by a stream keyed by

    key   = HMAC-SHA256(server_seed, "pokerroom shuffle v1" + "\\n" + seed for each client
            seed, sorted)
    block = HMAC-SHA256(key, counter as 8 bytes, big-endian), counter = 0, 1, 2, ...

read as bytes; a draw below ``n`` takes the next ``ceil(bits(n) / 8)`` bytes as a big-endian
integer, keeps its top ``bits(n)`` bits and draws again while it is ``>= n`` (no bias). The
shuffle makes one such draw below 52! and reads it in the factorial number system.

When the hand is dealt the room publishes the *deck commitment* SHA-256(server_seed || the 52
card codes as bytes); when it ends it reveals the server seed, the client seeds and the deck.
Anyone can then recompute all three (``verify``). Pure: no I/O, the seed comes in.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from pokerroom.cards import DECK_SIZE, FULL_DECK, Card
from pokerroom.rng import RandomSource, shuffled_codes

FORMAT: Final = "pokerroom-shuffle-1"  # the verification file's "format"
DOMAIN: Final = b"pokerroom shuffle v1"
SEED_BYTES: Final = 32
CLIENT_SEED: Final = re.compile(r"[0-9a-f]{16,64}")  # 8 to 32 bytes, lowercase hex
_HEX64: Final = re.compile(r"[0-9a-f]{64}")


class ShuffleError(ValueError):
    """A verification that failed, or a file that is not a shuffle reveal: says which part."""


def new_server_seed(source: RandomSource) -> bytes:
    """32 bytes from ``source`` (the table's injected source: the OS CSPRNG at a live table)."""
    return source.randbelow(1 << (8 * SEED_BYTES)).to_bytes(SEED_BYTES, "big")


def seed_commitment(server_seed: bytes) -> str:
    """SHA-256 of the server seed: published before players add their seeds."""
    return hashlib.sha256(server_seed).hexdigest()


def deck_commitment(deck: Sequence[int], salt: bytes) -> str:
    """SHA-256 of a secret (the server seed) and the deck order: published when dealt."""
    return hashlib.sha256(salt + bytes(deck)).hexdigest()


def check_client_seed(seed: str) -> str:
    """A client seed as accepted: 16 to 64 lowercase hex digits (8 to 32 bytes)."""
    if not CLIENT_SEED.fullmatch(seed):
        raise ShuffleError(
            f"a client seed is 16 to 64 lowercase hex digits (8 to 32 bytes), got {seed[:70]!r}"
        )
    return seed


def shuffle_key(server_seed: bytes, client_seeds: Sequence[str]) -> bytes:
    """The key of the stream the deck is shuffled with; the order seeds came in is irrelevant."""
    message = DOMAIN + b"".join(b"\n" + s.encode("ascii") for s in sorted(client_seeds))
    return hmac.new(server_seed, message, hashlib.sha256).digest()


class KeyedStream:
    """A ``RandomSource`` reading an HMAC-SHA256 counter stream: the same draws everywhere
    (web/js/fairness.js computes them with Web Crypto)."""

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0
        self._buffer = b""

    def _take(self, count: int) -> bytes:
        while len(self._buffer) < count:
            block = self._counter.to_bytes(8, "big")
            self._buffer += hmac.new(self._key, block, hashlib.sha256).digest()
            self._counter += 1
        taken, self._buffer = self._buffer[:count], self._buffer[count:]
        return taken

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError(f"randbelow needs a positive bound, got {n}")
        bits = n.bit_length()
        size = (bits + 7) // 8
        while True:
            draw = int.from_bytes(self._take(size), "big") >> (8 * size - bits)
            if draw < n:
                return draw


def seeded_deck(server_seed: bytes, client_seeds: Sequence[str] = ()) -> list[int]:
    """The deck the seeds make: 52 card codes in the order they are dealt."""
    return shuffled_codes(KeyedStream(shuffle_key(server_seed, client_seeds)))


@dataclass(frozen=True, slots=True)
class Shuffle:
    """One hand's shuffle as the room keeps it until the hand ends."""

    server_seed: bytes
    client_seeds: tuple[str, ...]
    deck: tuple[int, ...]

    @staticmethod
    def deal(server_seed: bytes, client_seeds: Sequence[str] = ()) -> Shuffle:
        seeds = tuple(sorted(client_seeds))
        return Shuffle(server_seed, seeds, tuple(seeded_deck(server_seed, seeds)))

    @property
    def seed_commitment(self) -> str:
        return seed_commitment(self.server_seed)

    @property
    def commitment(self) -> str:
        return deck_commitment(self.deck, self.server_seed)

    def reveal(self) -> dict[str, Any]:
        """What is published when the hand ends (never before)."""
        return {
            "format": FORMAT,
            "commitment": self.commitment,
            "seed_commitment": self.seed_commitment,
            "server_seed": self.server_seed.hex(),
            "client_seeds": list(self.client_seeds),
            "deck": list(self.deck),
        }


@dataclass(frozen=True, slots=True)
class Verified:
    """A reveal that checked out: the deck, and the cards of the hand found in it."""

    deck: tuple[Card, ...]
    client_seeds: tuple[str, ...]
    checks: tuple[str, ...]  # what was checked, one line each


def dealt_positions(players: int, hole_cards: int) -> tuple[list[list[int]], list[int]]:
    """Where each position's hole cards and the board sit in the deck: hole cards one at a
    time from position 0 (R-BTN-3), a burn before the flop, the turn and the river (R-DECK-3)."""
    hole = [[k * players + p for k in range(hole_cards)] for p in range(players)]
    first = players * hole_cards
    return hole, [first + 1, first + 2, first + 3, first + 5, first + 7]


def _field(document: Mapping[str, Any], name: str, kind: type) -> Any:
    value = document.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ShuffleError(f"the file has no {name!r} ({kind.__name__}); is it a shuffle reveal?")
    return value


def _hex64(document: Mapping[str, Any], name: str) -> str:
    value = _field(document, name, str)
    if not _HEX64.fullmatch(value):
        raise ShuffleError(f"{name!r} is not 64 lowercase hex digits: {value[:70]!r}")
    return str(value)


def verify(document: Mapping[str, Any], *, my_seed: str | None = None) -> Verified:
    """Recompute a reveal: the seed commitment, the deck the seeds make, the deck commitment
    and (when the file names them) your cards and the board at their places in the deck.
    Raises ``ShuffleError`` naming the first thing that does not match."""
    if document.get("format") != FORMAT:
        raise ShuffleError(f"not a shuffle reveal: 'format' is {document.get('format')!r}")
    commitment = _hex64(document, "commitment")
    committed_seed = _hex64(document, "seed_commitment")
    server_seed = bytes.fromhex(_hex64(document, "server_seed"))
    seeds = _field(document, "client_seeds", list)
    for seed in seeds:
        check_client_seed(seed if isinstance(seed, str) else repr(seed))
    deck = _field(document, "deck", list)
    codes = [c for c in deck if isinstance(c, int) and not isinstance(c, bool)]
    if sorted(codes) != list(range(DECK_SIZE)):
        raise ShuffleError("'deck' is not an order of the 52 card codes 0..51")
    checks = []
    if seed_commitment(server_seed) != committed_seed:
        raise ShuffleError(
            "the server seed does not match the seed commitment published before the hand"
        )
    checks.append(f"SHA-256(server seed) = seed commitment {committed_seed[:16]}...")
    if my_seed is not None and my_seed not in seeds:
        raise ShuffleError(f"your seed {my_seed} is not among the client seeds mixed in")
    made = seeded_deck(server_seed, seeds)
    if made != deck:
        at = next(k for k, (a, b) in enumerate(zip(made, deck, strict=True)) if a != b)
        raise ShuffleError(
            f"the deck is not the one the seeds make: card {at + 1} is "
            f"{FULL_DECK[deck[at]]} in the file, {FULL_DECK[made[at]]} from the seeds"
        )
    checks.append(f"the seeds ({len(seeds)} client seeds) make exactly this deck")
    if deck_commitment(deck, server_seed) != commitment:
        raise ShuffleError("the deck does not match the deck commitment published when dealt")
    checks.append(f"SHA-256(server seed + deck) = deck commitment {commitment[:16]}...")
    checks.extend(_check_hand(document, deck))
    return Verified(tuple(FULL_DECK[c] for c in deck), tuple(seeds), tuple(checks))


def _check_hand(document: Mapping[str, Any], deck: Sequence[int]) -> list[str]:
    """Your cards and the board (when the file names them) at their places in the deck."""
    if "players" not in document:
        return []
    players = _field(document, "players", int)
    hole_count = _field(document, "hole_cards", int)
    if not 2 <= players <= 10 or hole_count not in (2, 4) or players * hole_count + 8 > 52:
        raise ShuffleError(f"{players} players with {hole_count} cards each is not a hand")
    hole, board_at = dealt_positions(players, hole_count)
    checks = []
    position = document.get("position")
    if position is not None:
        if not isinstance(position, int) or not 0 <= position < players:
            raise ShuffleError(f"'position' {position!r} is not a seat of this hand")
        expected = [str(FULL_DECK[deck[k]]) for k in hole[position]]
        if document.get("your_cards") != expected:
            raise ShuffleError(
                f"your cards {document.get('your_cards')} are not the deck's "
                f"{expected} for position {position}"
            )
        checks.append(f"your cards {' '.join(expected)} are dealt from this deck")
    board = _field(document, "board", list)
    expected = [str(FULL_DECK[deck[k]]) for k in board_at[: len(board)]]
    if board != expected:
        raise ShuffleError(f"the board {board} is not the deck's {expected}")
    if board:
        checks.append(f"the board {' '.join(expected)} is dealt from this deck")
    return checks
