"""The protocol edge: every frame parses to a typed message or a clear error (S-INPUT-1)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.server import protocol

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
TYPES = st.sampled_from(
    [
        "hello",
        "watch",
        "join",
        "act",
        "leave",
        "sit_out",
        "sit_in",
        "options",
        "add_chips",
        "chat",
        "ping",
        "x",
    ]
)


@settings(max_examples=1500)
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200)))
def test_any_bytes_parse_or_raise_a_protocol_error(raw: str | bytes) -> None:
    try:
        protocol.parse(raw)
    except protocol.ProtocolError as error:
        assert str(error)


@settings(max_examples=1500)
@given(
    TYPES,
    st.dictionaries(
        st.sampled_from(
            [
                "table",
                "seat",
                "buy_in",
                "request",
                "action",
                "amount",
                "hand",
                "text",
                "token",
                "auto_post",
                "pre_action",
            ]
        ),
        JSON_VALUES,
        max_size=6,
    ),
)
def test_near_miss_messages_parse_or_raise_a_protocol_error(kind: str, body: dict) -> None:
    raw = json.dumps({"type": kind, **body})
    try:
        message = protocol.parse(raw)
    except protocol.ProtocolError as error:
        assert kind in str(error) or "message" in str(error) or "JSON" in str(error)
        return
    assert message.type == kind  # a valid message is exactly what was sent


def test_examples_from_the_protocol_document_parse() -> None:
    examples = [
        {"type": "hello", "token": "abc"},
        {"type": "watch", "table": "nlhe-1-2"},
        {"type": "join", "table": "nlhe-1-2", "seat": 3, "buy_in": 12000, "request": "j-1"},
        {"type": "act", "table": "nlhe-1-2", "action": "bet_or_raise", "amount": 600, "hand": 17},
        {"type": "add_chips", "table": "nlhe-1-2", "amount": 5000, "request": "a-1"},
        {"type": "leave", "table": "nlhe-1-2"},
        {"type": "sit_out", "table": "nlhe-1-2"},
        {"type": "chat", "table": "nlhe-1-2", "text": "nice hand"},
        {"type": "options", "table": "nlhe-1-2", "sit_out_next": True, "pre_action": "check_fold"},
        {"type": "ping"},
    ]
    for example in examples:
        assert protocol.parse(json.dumps(example)).type == example["type"]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("x" * 5000, "too long"),
        ("{", "not JSON"),
        ("[1]", 'JSON object with a "type"'),
        ('{"type": "act", "table": "t", "action": "dance", "hand": 1}', "'act' message: action"),
        ('{"type": "join", "table": "t", "seat": 1, "buy_in": -5, "request": "r"}', "buy_in"),
    ],
)
def test_clear_errors(raw: str, message: str) -> None:
    with pytest.raises(protocol.ProtocolError, match=message):
        protocol.parse(raw)
