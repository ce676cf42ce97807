"""The load client reads only the frames it must: a table frame without legal
actions is another seat's turn, timed as it arrives without being parsed; every other
frame (this seat's decision, errors, hand results) is parsed as before."""

from __future__ import annotations

from pokerroom.cli.load_client import not_ours
from pokerroom.engine.actions import Action, ActionKind
from pokerroom.server.sockets import encoding, protocol
from pokerroom.server.tables.views import public_state, state_for_seat
from tests.helpers.tables import titan_table


def test_not_ours_is_exactly_a_table_frame_without_a_decision_for_its_viewer() -> None:
    table = titan_table(dict.fromkeys((1, 2, 4), 20_000), seed=5)
    decisions = others = 0
    for number in range(4):
        table.start_hand(float(number))
        while table.hand is not None:
            public = public_state(table, table_id="t", version=1, now=float(number))
            assert not_ours(encoding.encode(public))  # a spectator never decides
            actor = table.actor_seat()
            for seat in table.seats:
                frame = encoding.encode(state_for_seat(table, public, seat))
                assert not_ours(frame) is (seat != actor)
                decisions += seat == actor
                others += seat != actor
            player = table.seats[actor].player
            table.act(player, Action(ActionKind.CHECK_OR_CALL), float(number))
    assert decisions > 10 and others > 20
    assert not not_ours(protocol.error("no", table="t"))
    assert not not_ours('{"type":"hand_result","table":"t","hand":3}')
    assert not not_ours(b'{"type":"table","hand":null}')  # bytes: parsed, as before
