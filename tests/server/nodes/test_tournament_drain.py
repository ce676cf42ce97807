"""A draining node of several hands its tournament over (server/ops/drain.py,
server/nodes/tournament_leases.py): two nodes in this process on one PostgreSQL and one Redis; the
owner of a heads-up sit & go drains while a hand is in play there. That hand completes, no
other is dealt there, the event's lease is released as soon as it ends (not when the node
stops), the other node adopts the event with nothing to cancel and deals on, and the books
balance (S-AUDIT-2). (One node, through SIGTERM: tests/server/tournaments/test_drain.py.)"""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from websockets.exceptions import ConnectionClosed

from pokerroom.server.ops.drain import drain
from tests.helpers.accounts import closed_with, person_again
from tests.helpers.node_tournaments import books, heads_up_in_play, play, steady, watch_through
from tests.helpers.nodes import Node
from tests.helpers.waiting import eventually
from tests.server.conftest import Person

__all__ = ["steady"]  # the fixture

pytestmark = pytest.mark.postgres
WAIT = 60.0


async def play_until(someone: Person, table: str, until: object) -> None:
    """Check or call on this person's turns until ``until()``; a socket the node closes
    (the table handed over) ends it too."""
    with contextlib.suppress(ConnectionClosed):
        await play(someone, table, until)


async def test_a_draining_node_finishes_the_tournament_hand_and_hands_the_event_over(
    steady: tuple[Node, Node],
) -> None:
    a, b = steady
    hall_a, hall_b = a.app.state.tournaments, b.app.state.tournaments
    runner, ann, bob = await heads_up_in_play(a)
    tid, table = runner.id, f"{runner.id}-1"
    t = runner.t.tables[1]
    number = t.hand_number

    drained = asyncio.create_task(drain(a.room, WAIT))
    ended = lambda: t.hand is None  # noqa: E731
    await asyncio.gather(play_until(ann, table, ended), play_until(bob, table, ended))
    assert await asyncio.wait_for(drained, WAIT) == []  # no hand left in play
    assert t.hand_number == number  # none dealt on the draining node
    assert tid not in hall_a.runners and table not in a.room.actors
    assert await closed_with(ann) == 1012  # reconnect: another node runs it now
    await eventually(lambda: tid in hall_b.runners, "b adopts the event", WAIT)
    state = await books(a.database, tid, table)
    assert state["hands"][number] == ["complete"]  # finished, not voided
    assert state["lease"].node == "tb" and state["lease"].epoch == 2
    assert not a.room.placement.leases.held  # released while serving

    adopted = hall_b.runners[tid].t.tables[1]
    ann, bob = await person_again(b.base, ann), await person_again(b.base, bob)
    for someone in (ann, bob):
        await watch_through(b, someone, table)
    actor = hall_b.runners[tid].actors[1]

    def dealt_on() -> bool:  # the next hand over and stored; none dealt after it
        over = adopted.hand_number > number and adopted.hand is None and actor.started is None
        if over:  # held (at once, in this loop turn) while the books are read
            actor.next_hand_at = float("inf")
        return over

    await asyncio.gather(play_until(ann, table, dealt_on), play_until(bob, table, dealt_on))
    state = await books(b.database, tid, table)  # the audit reconciles
    assert state["hands"][number] == ["complete"] and state["hands"][number + 1] == ["complete"]
    assert all(statuses == ["complete"] for statuses in state["hands"].values())  # none voided
