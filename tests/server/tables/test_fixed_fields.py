"""A table frame's members that change only with the table's game (name, stakes, buy-ins,
decision time) are built once per game, not at every action; the frame is the
same as built afresh, before and after a tournament level changes the stakes."""

from __future__ import annotations

from pokerroom.fairness import Shuffle
from pokerroom.rules.game import Stakes
from pokerroom.server.sockets import encoding
from pokerroom.server.tables.views import FixedFields, public_state
from tests.helpers.tables import titan_table


def test_fixed_members_are_built_once_per_game_and_follow_a_level_change() -> None:
    table = titan_table({1: 20_000, 2: 20_000, 3: 20_000}, seed=3)
    fixed = FixedFields()
    first = fixed.of(table)
    assert fixed.of(table) is first  # the same game: not built again
    for version, now in ((1, 100.0), (2, 101.0)):
        cached = public_state(table, table_id="t", version=version, now=now, fixed=fixed)
        fresh = public_state(table, table_id="t", version=version, now=now)
        assert encoding.encode(cached) == encoding.encode(fresh)  # byte for byte
    table.set_stakes(Stakes(small_blind=200, big_blind=400, ante=50))  # the next level
    after = fixed.of(table)
    assert after is not first
    assert (after["small_blind"], after["big_blind"], after["stakes"]) == (200, 400, (200, 400))
    assert after["min_buy_in"] == table.min_buy_in != first["min_buy_in"]
    cached = public_state(table, table_id="t", version=3, now=102.0, fixed=fixed)
    fresh = public_state(table, table_id="t", version=3, now=102.0)
    assert encoding.encode(cached) == encoding.encode(fresh)


def test_a_hands_shuffle_commitments_are_hashed_once_a_hand() -> None:
    """The commitments (SHA-256 hashes) are in every frame of the hand; the
    table hashes them when the hand's shuffle is new, and gives them again after."""
    fixed = FixedFields()
    first, second = Shuffle.deal(b"a" * 32), Shuffle.deal(b"b" * 32)
    pair = fixed.commitments(first)
    assert pair == (first.commitment, first.seed_commitment)
    assert fixed.commitments(first) is pair  # not hashed again
    assert fixed.commitments(second) == (second.commitment, second.seed_commitment)
    assert fixed.commitments(None) == (None, None)
