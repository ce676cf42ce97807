"""A player's request to an event, each kind one model: sent to the event's owner as its kind
and its fields (server/nodes/messages.py EventCall) and read back there as it was sent."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from pokerroom.server.nodes import messages
from pokerroom.server.tournaments.requests import (
    Answer,
    Buy,
    DeclineRebuy,
    EventRequest,
    Propose,
    Register,
    Unregister,
    fields_of,
    request_of,
)

REQUESTS: list[EventRequest] = [
    Register(name="ann", request="k1"),
    Unregister(),
    Buy(kind="rebuy", number=2, request="k2"),
    Buy(kind="addon"),
    DeclineRebuy(),
    Propose(deal="icm", keep=100),
    Answer(kind="accept"),
    Answer(kind="decline"),
]


@pytest.mark.parametrize("request_", REQUESTS, ids=lambda r: r.kind)
def test_each_request_reaches_the_owner_as_it_was_sent(request_: EventRequest) -> None:
    call = messages.EventCall(kind=request_.kind, account=3, fields=fields_of(request_))
    read = messages.decode_command(
        {k.encode(): v.encode() for k, v in messages.encode_command(call).items()}
    )
    assert isinstance(read, messages.EventCall) and read.account == 3
    assert request_of(read.kind, read.fields) == request_


def test_the_fields_on_the_wire_are_the_requests_own_and_no_empty_ones() -> None:
    assert fields_of(Register(name="ann", request="k1")) == {"name": "ann", "request": "k1"}
    assert fields_of(Buy(kind="rebuy", number=2)) == {"number": 2}
    assert fields_of(Buy(kind="addon")) == {}
    assert fields_of(Propose(deal="chip", keep=5)) == {"deal": "chip", "keep": 5}
    assert fields_of(Answer(kind="accept")) == {}


@pytest.mark.parametrize(
    ("kind", "fields"),
    [("register", {"name": "ann"}), ("propose", {"deal": "even", "keep": 1}), ("shout", {})],
)
def test_a_request_that_cannot_be_read_is_refused(kind: str, fields: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        request_of(kind, fields)
