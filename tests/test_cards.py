"""Cards: parsing, printing, codes and the errors for bad input."""

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.cards import (
    FULL_DECK,
    Card,
    CardError,
    DuplicateCardError,
    MalformedCardError,
    format_cards,
    parse_cards,
)


def test_codes_are_rank_times_four_plus_suit() -> None:
    assert Card.parse("2c").code == 0
    assert Card.parse("2s").code == 3
    assert Card.parse("Ac").code == 48
    assert Card.parse("As").code == 51
    assert [c.code for c in FULL_DECK] == list(range(52))


def test_parse_and_print_round_trip() -> None:
    for card in FULL_DECK:
        assert Card.parse(str(card)) is card
        assert Card.from_code(card.code) is card


def test_ten_written_as_10_and_case_insensitive_input() -> None:
    assert Card.parse("10d") is Card.parse("Td")
    assert Card.parse("ah") is Card.parse("Ah")
    assert Card.parse("KS") is Card.parse("Ks")
    assert parse_cards("10dAs 7c") == (Card.parse("Td"), Card.parse("As"), Card.parse("7c"))


def test_parse_cards_forms() -> None:
    expected = (Card.parse("As"), Card.parse("Kd"), Card.parse("7c"))
    assert parse_cards("AsKd7c") == expected
    assert parse_cards("As Kd 7c") == expected
    assert parse_cards(["As", "Kd", "7c"]) == expected
    assert parse_cards("") == ()
    assert format_cards(expected) == "AsKd7c"


@pytest.mark.parametrize("text", ["1x", "A", "Zs", "Ax", "", "AsK"])
def test_malformed_card_is_a_specific_error_quoting_the_text(text: str) -> None:
    with pytest.raises(MalformedCardError) as info:
        if len(text) == 3:
            parse_cards(text)
        else:
            Card.parse(text)
    assert isinstance(info.value, CardError) and isinstance(info.value, ValueError)
    quoted = "'K'" if text == "AsK" else repr(text)
    assert quoted in str(info.value)


def test_duplicate_card_in_a_hand_is_refused() -> None:
    with pytest.raises(DuplicateCardError, match="As"):
        parse_cards("AsKdAs")
    assert len(parse_cards("AsAs", allow_duplicates=True)) == 2


def test_cards_are_immutable_and_interned() -> None:
    card = Card.parse("Qh")
    with pytest.raises(AttributeError):
        card.rank = 3  # type: ignore[misc]
    assert Card(card.code) is card
    assert pickle.loads(pickle.dumps(card)) is card
    with pytest.raises(MalformedCardError):
        Card.from_code(52)


@given(st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=9, unique=True))
def test_format_then_parse_is_identity(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == tuple(cards)
