"""The protocol edge: every frame parses to a typed message or a clear error (S-INPUT-1)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.server.sockets import protocol
from tests.helpers.repeats import fast_and_full

TEXT = st.characters(blacklist_categories=("Cs",))  # any character JSON can carry
TABLE = st.text(TEXT, min_size=1, max_size=64)
KEY = st.text(TEXT, min_size=1, max_size=64)
CHIPS = st.integers(1, 10**12)
#: Every message type, its required fields and its optional fields, each with the values
#: it accepts (docs/protocol.md).
FIELDS: dict[str, tuple[dict[str, st.SearchStrategy[object]], dict[str, st.SearchStrategy[object]]]]
FIELDS = {
    "hello": ({"token": st.text(TEXT, min_size=1, max_size=128)}, {}),
    "watch": ({"table": TABLE}, {}),
    "join": ({"table": TABLE, "seat": st.integers(1, 10), "buy_in": CHIPS, "request": KEY}, {}),
    "add_chips": ({"table": TABLE, "amount": CHIPS, "request": KEY}, {}),
    "act": (
        {
            "table": TABLE,
            "action": st.sampled_from(
                ["fold", "check", "call", "check_or_call", "bet_or_raise", "run_twice", "run_once"]
            ),
            "hand": st.integers(1, 10**9),
        },
        {"amount": st.integers(0, 10**12)},
    ),
    "leave": ({"table": TABLE}, {}),
    "sit_out": ({"table": TABLE}, {}),
    "sit_in": ({"table": TABLE}, {}),
    "options": (
        {"table": TABLE},
        {
            "auto_post": st.booleans(),
            "wait_for_big_blind": st.booleans(),
            "sit_out_next": st.booleans(),
            "leave_after": st.booleans(),
            "pre_action": st.sampled_from(["check_fold", "call_any", "none"]),
            "straddle": st.booleans(),
            "run_it_twice": st.booleans(),
        },
    ),
    "chat": ({"table": TABLE, "text": st.text(TEXT, min_size=1, max_size=protocol.MAX_CHAT)}, {}),
    "ping": ({}, {}),
}
#: A value each field refuses, and the reason pydantic gives.
BAD = {
    "token": ("", "String should have at least 1 character"),
    "table": ("x" * 65, "String should have at most 64 characters"),
    "seat": (11, "Input should be less than or equal to 10"),
    "buy_in": (0, "Input should be greater than 0"),
    "request": (7, "Input should be a valid string"),
    "amount": (-1, "Input should be greater than"),
    "action": (
        "dance",
        "Input should be 'fold', 'check', 'call', 'check_or_call', 'bet_or_raise',",
    ),
    "hand": ("one", "Input should be a valid integer, unable to parse string as an integer"),
    "text": ("x" * (protocol.MAX_CHAT + 1), "String should have at most 200 characters"),
    "auto_post": ("perhaps", "Input should be a valid boolean, unable to interpret input"),
    "wait_for_big_blind": ([], "Input should be a valid boolean"),
    "sit_out_next": ({}, "Input should be a valid boolean"),
    "leave_after": (2, "Input should be a valid boolean, unable to interpret input"),
    "pre_action": ("fold", "Input should be 'check_fold', 'call_any' or 'none'"),
    "straddle": ("always", "Input should be a valid boolean, unable to interpret input"),
    "run_it_twice": ([], "Input should be a valid boolean"),
}


@st.composite
def valid_messages(draw: st.DrawFn) -> dict[str, object]:
    kind = draw(st.sampled_from(sorted(FIELDS)))
    required, optional = FIELDS[kind]
    message: dict[str, object] = {"type": kind}
    message |= {name: draw(values, label=name) for name, values in required.items()}
    for name in draw(st.sets(st.sampled_from(sorted(optional))) if optional else st.just(set())):
        message[name] = draw(optional[name], label=name)
    return message


KNOWN_ERRORS = ("message too long (", "not JSON: ", 'a message is a JSON object with a "type"')


# Examples a property tries: a fifth in make test, all in make test-all.
@pytest.mark.parametrize("examples", fast_and_full(300, 1500))
def test_S_INPUT_1_any_bytes_parse_or_raise_a_protocol_error(examples: int) -> None:
    @settings(max_examples=examples)
    @given(st.one_of(st.text(max_size=200), st.binary(max_size=200)))
    def run(raw: str | bytes) -> None:
        try:
            protocol.parse(raw)
        except protocol.ProtocolError as error:
            text = str(error)
            assert text.startswith(KNOWN_ERRORS) or " message: " in text, text

    run()


@pytest.mark.parametrize("examples", fast_and_full(120, 600))
def test_S_INPUT_1_every_valid_message_parses_to_exactly_what_was_sent(examples: int) -> None:
    @settings(max_examples=examples)
    @given(valid_messages())
    def run(message: dict) -> None:
        parsed = protocol.parse(json.dumps(message))
        assert parsed.model_dump(exclude_unset=True) == message

    run()


@pytest.mark.parametrize("examples", fast_and_full(300, 1500))
def test_S_INPUT_1_a_mutated_message_is_refused_naming_the_field(examples: int) -> None:
    @settings(max_examples=examples)
    @given(valid_messages(), st.data())
    def run(message: dict, data: st.DataObject) -> None:
        refused_naming_the_field(message, data)

    run()


def refused_naming_the_field(message: dict, data: st.DataObject) -> None:
    kind = message["type"]
    fields = [name for name in message if name != "type"]
    mutations = ["extra", *(["missing"] if FIELDS[kind][0] else []), *(["bad"] if fields else [])]
    mutation = data.draw(st.sampled_from(mutations), label="mutation")
    if mutation == "extra":
        message["colour"] = data.draw(JSON_VALUES, label="extra value")
        expected = f"'{kind}' message: colour: Extra inputs are not permitted"
        if protocol.nesting(json.dumps(message)) > protocol.MAX_DEPTH:  # refused before fields
            expected = f"message nested too deeply (more than {protocol.MAX_DEPTH} levels)"
    elif mutation == "missing":
        name = data.draw(st.sampled_from(sorted(FIELDS[kind][0])), label="dropped")
        del message[name]
        expected = f"'{kind}' message: {name}: Field required"
    else:
        name = data.draw(st.sampled_from(fields), label="spoiled")
        message[name], reason = BAD[name]
        expected = f"'{kind}' message: {name}: {reason}"
    with pytest.raises(protocol.ProtocolError) as error:
        protocol.parse(json.dumps(message))
    assert str(error.value).startswith(expected), (str(error.value), expected)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


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
        ("x" * 5000, "message too long (5000 bytes; the limit is 4096)"),
        (
            "{",
            "not JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
        ),
        ("[1]", 'a message is a JSON object with a "type"'),
        (
            '{"type": "act", "table": "t", "action": "dance", "hand": 1}',
            "'act' message: action: Input should be 'fold', 'check', 'call', 'check_or_call',"
            " 'bet_or_raise', 'run_twice' or 'run_once'",
        ),
        (
            '{"type": "join", "table": "t", "seat": 1, "buy_in": -5, "request": "r"}',
            "'join' message: buy_in: Input should be greater than 0",
        ),
        ('{"type": "watch"}', "'watch' message: table: Field required"),
        ('{"type": "ping", "zz": 1}', "'ping' message: zz: Extra inputs are not permitted"),
    ],
)
def test_clear_errors(raw: str, message: str) -> None:
    with pytest.raises(protocol.ProtocolError) as error:
        protocol.parse(raw)
    assert str(error.value) == message
