"""The messages between nodes (server/nodes/messages.py): each kind read back as it was
written, and what cannot be read (unknown, malformed) a MessageError, never a crash."""

from __future__ import annotations

import json

import pytest

from pokerroom.server.nodes import messages
from pokerroom.server.nodes.remote import Frame, decode_batch, encode_batch
from pokerroom.server.tables import notices

SENDER = {"key": "n.1:7:ab", "node": "n.1", "at": 1_700_000_000.25, "conn": "7"}
COMMANDS: list[messages.Command] = [
    messages.Watch(**SENDER, account=12, name="ann", address="127.0.0.1"),
    messages.Said(**SENDER, account=12, name="ann", text='{"type": "chat", "text": "hi"}'),
    messages.Gone(**SENDER),
    messages.Unwatch(**SENDER, account=None),
    messages.FloorCall(key="k", node="n.1", at=1.5, call="c1", kind="void", reason="a fault"),
    messages.EventCall(
        key="k", node="n.1", at=1.5, call="c2", kind="rebuy", account=3, fields={"number": 2}
    ),
]


def as_read(fields: dict[str, str]) -> dict[bytes, bytes]:
    """A stream entry's fields as Redis gives them back."""
    return {k.encode(): v.encode() for k, v in fields.items()}


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.kind)
def test_each_command_is_read_back_as_it_was_sent(command: messages.Command) -> None:
    assert messages.decode_command(as_read(messages.encode_command(command))) == command


def test_a_clients_command_is_built_by_its_kind_and_unknown_kinds_are_refused() -> None:
    sender = messages.Sender(**SENDER, account=12, name="ann")
    said = messages.from_client("said", sender, '{"type": "leave"}')
    assert isinstance(said, messages.Said) and said.text == '{"type": "leave"}'
    assert said.account == 12 and messages.request_type(said) == "leave"
    assert isinstance(messages.from_client("gone", sender), messages.Gone)
    with pytest.raises(messages.MessageError, match="no command 'void' from a client"):
        messages.from_client("void", sender)


def test_each_notice_and_reply_is_read_back_as_it_was_sent() -> None:
    for notice in (
        messages.Adopted(table="t1"),
        notices.Revoke(token="abc", sender="n.1"),
        notices.Suspend(account=4),
        notices.AutoMuck(account=4, on=False),
        notices.Deliver(account=4, line='{"type": "tournament"}'),
        notices.Follow(account=4, table="mtt-1-2"),
    ):
        assert messages.decode_notice(messages.encode_notice(notice)) == notice
    for reply in (
        messages.Reply(result={"number": 1}),
        messages.Reply(error="no such entry", refused=True),
    ):
        assert messages.decode_reply(messages.encode_reply(reply)) == reply


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"kind": "said", "key": "k"}, "without its 'message' field"),
        ({"message": "{not json"}, "cannot be read"),
        ({"message": "[]"}, "cannot be read"),
        ({"message": json.dumps({"kind": "shout", "key": "k", "node": "n", "at": 1})}, "kind"),
        ({"message": json.dumps({"kind": "gone", "key": "k", "node": "n", "at": 1})}, "conn"),
        ({"message": json.dumps({**SENDER, "kind": "gone", "at": "soon"})}, "at"),
        ({"message": json.dumps({**SENDER, "kind": "gone", "extra": 1})}, "extra"),
        ({"message": json.dumps({**SENDER, "kind": "said"})}, "text"),
        ({"message": json.dumps({"kind": "void", "key": "k", "node": "n", "at": 1})}, "reason"),
    ],
)
def test_a_command_that_cannot_be_read_is_a_message_error(
    fields: dict[str, str], said: str
) -> None:
    with pytest.raises(messages.MessageError, match=said):
        messages.decode_command(as_read(fields))


@pytest.mark.parametrize(
    "data",
    [b"", b"{}", b'{"kind": "revoke"}', b'{"kind": "suspend", "account": "ann"}', b"\xff"],
)
def test_a_notice_that_cannot_be_read_is_a_message_error(data: bytes) -> None:
    with pytest.raises(messages.MessageError):
        messages.decode_notice(data)


def test_a_reply_that_cannot_be_read_is_a_message_error() -> None:
    with pytest.raises(messages.MessageError):
        messages.decode_reply('{"error": 3}')


@pytest.mark.parametrize(
    "payload",
    [
        b"not json\n",
        b'[[["1"], "t", 1, "frame"]]\n{}',  # a group without its length
        b'[[["1"], "t", 1, "shout", 2]]\n{}',  # an unknown kind
        b'[[["1"], "t", 1, "frame", 5]]\n{}',  # texts shorter than said
        b'[[["1"], "t", 1, "frame", 2]]\n\xff\xfe',  # not UTF-8
    ],
)
def test_a_batch_of_frames_that_cannot_be_read_is_a_message_error(payload: bytes) -> None:
    with pytest.raises(messages.MessageError):
        decode_batch(payload)
    good = [Frame(("1",), "t", 1, "frame", "{}")]
    assert decode_batch(encode_batch(good)) == good
