"""A shuffle every player can verify (docs/fairness.md): the seeded deck, its
commitments and the check that a reveal is what was committed (R-DECK-2, S-RNG-1)."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from pokerroom.cards import FULL_DECK
from pokerroom.engine import Hand, Player
from pokerroom.fairness import (
    FORMAT,
    KeyedStream,
    Shuffle,
    ShuffleError,
    check_client_seed,
    dealt_positions,
    new_server_seed,
    seeded_deck,
    verify,
)
from pokerroom.rng import SeededRandomSource
from tests.helpers.chi_square import DEGREES, card_position_chi_square, chi_square_critical
from tests.helpers.fairness import CLIENT_SEEDS, KNOWN_DECK, SERVER_SEED, document
from tests.helpers.hands import checks_down, spec

KNOWN_COMMITMENT = "843a43407cab6c00e4269f127a89755d828454c5c5d8e9e1c1d9e9e9200c0483"


def spec_deck(server_seed: bytes, client_seeds: list[str]) -> list[int]:
    """The construction read straight from docs/fairness.md, independently of the package:
    one draw below 52! from the HMAC stream, then Fisher-Yates from the last position."""
    message = b"pokerroom shuffle v1" + b"".join(b"\n" + s.encode() for s in sorted(client_seeds))
    key = hmac.new(server_seed, message, hashlib.sha256).digest()
    stream = b"".join(
        hmac.new(key, k.to_bytes(8, "big"), hashlib.sha256).digest() for k in range(8)
    )
    n = math.factorial(52)
    bits, size = n.bit_length(), (n.bit_length() + 7) // 8
    offset = 0
    while True:
        draw = int.from_bytes(stream[offset : offset + size], "big") >> (8 * size - bits)
        offset += size
        if draw < n:
            break
    deck = list(range(52))
    for i in range(51, 0, -1):
        draw, j = divmod(draw, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_the_seeded_deck_is_the_documented_construction() -> None:
    shuffle = Shuffle.deal(SERVER_SEED, CLIENT_SEEDS)
    assert list(shuffle.deck) == KNOWN_DECK == spec_deck(SERVER_SEED, CLIENT_SEEDS)
    assert shuffle.commitment == KNOWN_COMMITMENT
    assert shuffle.commitment == hashlib.sha256(SERVER_SEED + bytes(KNOWN_DECK)).hexdigest()
    assert shuffle.seed_commitment == hashlib.sha256(SERVER_SEED).hexdigest()
    for k in range(20):  # and for other seeds, with and without client seeds
        seed = hashlib.sha256(bytes([k])).digest()
        seeds = [f"{k:016x}"] * (k % 3)
        assert seeded_deck(seed, seeds) == spec_deck(seed, seeds)


def test_every_seed_changes_the_deck_and_their_order_does_not() -> None:
    alone = seeded_deck(SERVER_SEED)
    assert seeded_deck(SERVER_SEED, CLIENT_SEEDS) != alone
    assert seeded_deck(SERVER_SEED, CLIENT_SEEDS[::-1]) == seeded_deck(SERVER_SEED, CLIENT_SEEDS)
    assert seeded_deck(SERVER_SEED, CLIENT_SEEDS[:1]) != seeded_deck(SERVER_SEED, CLIENT_SEEDS)
    other = bytes(31) + b"\x01"
    assert seeded_deck(other, CLIENT_SEEDS) != seeded_deck(SERVER_SEED, CLIENT_SEEDS)


def test_S_RNG_1_the_server_seed_comes_from_the_injected_source() -> None:
    assert new_server_seed(SeededRandomSource(7)) == new_server_seed(SeededRandomSource(7))
    assert len(new_server_seed(SeededRandomSource(7))) == 32
    assert new_server_seed(SeededRandomSource(7)) != new_server_seed(SeededRandomSource(8))


def test_R_DECK_2_seeded_decks_pass_the_card_by_position_chi_square() -> None:
    counter = iter(range(10**9))

    def shuffle() -> list[int]:
        return seeded_deck(next(counter).to_bytes(32, "big"))

    assert card_position_chi_square(shuffle, 40_000) < chi_square_critical(DEGREES)


def test_the_keyed_stream_draws_below_any_bound_without_bias() -> None:
    stream = KeyedStream(b"k" * 32)
    draws = [stream.randbelow(3) for _ in range(3_000)]
    assert set(draws) == {0, 1, 2}
    assert all(800 < draws.count(v) < 1_200 for v in (0, 1, 2))
    with pytest.raises(ValueError, match="positive bound"):
        stream.randbelow(0)


def test_R_BTN_3_R_DECK_3_the_deck_places_are_where_the_engine_deals_from() -> None:
    deck = seeded_deck(SERVER_SEED, CLIENT_SEEDS)
    for variant, players in (("holdem", 2), ("holdem", 6), ("omaha", 3)):
        game = spec(variant)
        hand = Hand(
            spec=game,
            players=[Player(seat=i + 1, stack=1_000) for i in range(players)],
            deck=deck,
        )
        checks_down(hand)
        hole, board = dealt_positions(players, game.hole_cards)
        for position in range(players):
            assert list(hand.hole_cards(position)) == [FULL_DECK[deck[k]] for k in hole[position]]
        assert list(hand.board_cards()) == [FULL_DECK[deck[k]] for k in board]


def test_a_true_reveal_verifies_with_every_check_named() -> None:
    verified = verify(document(), my_seed=CLIENT_SEEDS[1])
    assert [c.code for c in verified.deck] == KNOWN_DECK
    assert len(verified.checks) == 5
    assert any("your cards" in line for line in verified.checks)
    assert any("the board" in line for line in verified.checks)
    assert document()["format"] == FORMAT


def swap_two_cards(doc: dict[str, Any]) -> None:
    doc["deck"][0], doc["deck"][1] = doc["deck"][1], doc["deck"][0]


TAMPERED = {
    "another server seed": (
        lambda d: d.update(server_seed="00" * 32),
        "server seed does not match the seed commitment",
    ),
    "two cards swapped": (swap_two_cards, "card 1 is"),
    "a client seed dropped": (lambda d: d["client_seeds"].pop(), "not the one the seeds make"),
    "another deck commitment": (
        lambda d: d.update(commitment="ab" * 32),
        "does not match the deck commitment",
    ),
    "other hole cards": (lambda d: d.update(your_cards=["As", "Ks"]), "your cards"),
    "another board": (lambda d: d["board"].reverse(), "the board"),
    "a card twice": (lambda d: d["deck"].__setitem__(5, d["deck"][6]), "order of the 52"),
    "a card as true": (lambda d: d["deck"].__setitem__(d["deck"].index(1), True), "order of"),
    "not a reveal": (lambda d: d.update(format="x"), "not a shuffle reveal"),
    "a bad client seed": (lambda d: d["client_seeds"].append("XYZ"), "16 to 64 lowercase hex"),
    "no server seed": (lambda d: d.pop("server_seed"), "no 'server_seed'"),
}


@pytest.mark.parametrize("change", sorted(TAMPERED))
def test_a_tampered_reveal_is_refused_saying_what_differs(change: str) -> None:
    tamper, message = TAMPERED[change]
    doc = copy.deepcopy(document())
    tamper(doc)
    with pytest.raises(ShuffleError, match=message):
        verify(doc)


def test_your_own_seed_must_be_among_those_mixed_in() -> None:
    with pytest.raises(ShuffleError, match="is not among the client seeds"):
        verify(document(), my_seed="ffffffffffffffff")


def test_a_client_seed_is_16_to_64_lowercase_hex_digits() -> None:
    assert check_client_seed("0" * 16) == "0" * 16
    for bad in ("0" * 15, "0" * 65, "G" * 16, "ABCDEF0123456789"):
        with pytest.raises(ShuffleError):
            check_client_seed(bad)


def test_the_documented_reveal_verifies() -> None:
    """docs/protocol.md's deck_reveal example is a true one (the known answer above)."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text()
    (example,) = re.findall(r'```json\n(\{"type": "deck_reveal".*?)```', text, flags=re.S)
    reveal = json.loads(example)
    verified = verify(reveal, my_seed=CLIENT_SEEDS[0])
    assert [c.code for c in verified.deck] == KNOWN_DECK
