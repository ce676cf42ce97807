"""Tournaments on a room of several nodes, in one process: two nodes share one
PostgreSQL database and one Redis (database 6, this file's own), each event run whole by the
node holding its lease (server/nodes/tournament_leases.py). A sit & go with a player on each node:
registered through either node (the other forwards to the owner), listed in both lobbies,
played over the bus; its owner dies mid-hand, the other node adopts it once the lease runs
out (the hand cancelled, every chip back: R-DECK-5), the players reconnect there, keep their
seats and play it to the end; its prize is paid once and the books balance (S-AUDIT-2)."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from pokerroom.store.accounts.accounts import STARTING_GRANT
from tests.helpers.accounts import closed_with, person_again
from tests.helpers.leased_nodes import renewal_pass
from tests.helpers.node_tournaments import (
    books,
    die,
    heads_up_in_play,
    play,
    register,
    steady,
    watch_through,
)
from tests.helpers.nodes import Node, stop_node
from tests.helpers.waiting import eventually
from tests.server.conftest import person

__all__ = ["steady"]  # the fixture

pytestmark = pytest.mark.postgres
WAIT = 30.0  # bounded waits: far above the lease's time on a busy machine


async def test_a_sit_and_go_over_two_nodes_survives_its_owners_death(
    steady: tuple[Node, Node],
) -> None:
    a, b = steady
    hall_a, hall_b = a.app.state.tournaments, b.app.state.tournaments
    runner = await hall_a.create("sng_heads_up")
    tid, table = runner.id, f"{runner.id}-1"
    assert hall_a.runners.keys() == {tid} and not hall_b.runners
    await eventually(lambda: [e["id"] for e in hall_b.lobby()] == [tid], "b lists the event")

    ann, bob = await person(a.base, "ann"), await person(b.base, "bob")
    assert (await register(a, ann, tid)).status_code == 200
    done = await register(b, bob, tid)  # b forwards it to the owner, a
    assert done.status_code == 200, done.text
    assert (await register(b, bob, tid)).json() == done.json()  # a retry: the same entry
    await eventually(lambda: runner.status == "running", "the sit & go starts when full")
    await eventually(
        lambda: any(e["status"] == "running" for e in hall_b.lobby()), "b shows it running"
    )
    await watch_through(a, ann, table)
    await watch_through(b, bob, table)
    t = runner.t.tables[1]

    def dealt(number: int) -> bool:
        return t.hand_number >= number and t.hand is not None

    # One hand played through both nodes, then the owner dies with the next one running.
    await asyncio.gather(play(ann, table, lambda: dealt(2)), play(bob, table, lambda: dealt(2)))
    started = [f for f in bob.frames if f["type"] == "tournament" and f["kind"] == "started"]
    assert started and started[0]["table"] == table  # a's notice, through the room channel
    elsewhere = await person_again(b.base, bob)  # b names the table a runs at hello
    assert elsewhere.frames[-1]["seated"] == [table]
    await elsewhere.ws.close()
    await eventually(lambda: runner.actors[1].started is not None, "hand 2 is stored running")
    number, before = t.hand_number, dict(zip(t.hand_seats, t.hand.starting_stacks, strict=True))
    assert sum(before.values()) == 3000
    die(a)
    await eventually(lambda: tid in hall_b.runners, "b adopts the event once the lease expires")
    adopted = hall_b.runners[tid]
    state = await books(a.database, tid, table)
    assert state["hands"][number] == ["cancelled"]  # R-DECK-5
    assert state["lease"].node == "tb" and state["lease"].epoch == 2
    again = adopted.t.tables[1]
    assert {n: s.stack for n, s in again.seats.items()} == before  # every chip back
    assert adopted.t.clock.start == runner.t.clock.start  # the levels' deadlines go on
    await stop_node(a)

    # ann reconnects through b; bob never left it: both keep their seats and play it out.
    ann = await person_again(b.base, ann)
    assert ann.frames[-1]["seated"] == [table]  # told at hello where her seat is
    await watch_through(b, ann, table)
    finished = lambda: adopted.t.finished  # noqa: E731
    await asyncio.gather(
        play(ann, table, finished, shove=True), play(bob, table, finished, shove=True)
    )
    assert hall_b.lobby()[0]["status"] == "finished"
    await eventually(lambda: adopted.paid, "the prize is paid")
    state = await books(b.database, tid, table)
    assert state["prizes"] == 1  # heads-up: the winner's, paid once
    assert all(statuses.count("complete") <= 1 for statuses in state["hands"].values())
    assert state["hands"][number] == ["cancelled"]  # never settled after all
    balances = {}
    async with httpx.AsyncClient(base_url=b.base) as http:
        for someone in (ann, bob):
            me = await http.get("/api/me", headers={"Authorization": f"Bearer {someone.token}"})
            balances[someone.name] = me.json()["balance"]
    assert sorted(balances.values()) == [STARTING_GRANT - 1100, STARTING_GRANT + 900]


async def test_a_stale_owners_hand_end_is_refused_and_its_tables_stop(
    steady: tuple[Node, Node],
) -> None:
    """The owner pauses past its lease mid-hand (no renewal, its tables still dealing): the
    other node adopts the event under the next epoch and cancels that hand. The old owner,
    not knowing, lets a player fold: the hand's end (the event's state, a prize it would
    pay) is refused by the epoch; its tables stop at once and close their sockets with 1012
    (reconnect). The hand stays cancelled, never settled, and the books balance."""
    a, b = steady
    hall_a, hall_b = a.app.state.tournaments, b.app.state.tournaments
    runner, ann, bob = await heads_up_in_play(a)
    tid, table = runner.id, f"{runner.id}-1"
    t = runner.t.tables[1]
    number = t.hand_number
    await a.room.placement.leases.stop()  # a pauses: nothing renewed, its table still deals
    await eventually(lambda: tid in hall_b.runners, "b adopts the event")
    assert (await books(a.database, tid, table))["hands"][number] == ["cancelled"]
    frame = await ann.until(lambda f: f.get("hand") and f["hand"]["actor"] is not None, 5)
    first = ann if frame["hand"]["actor"] == frame["you"] else bob
    await first.send(type="act", table=table, hand=number, action="fold")
    assert await closed_with(ann) == 1012 and await closed_with(bob) == 1012
    assert tid not in hall_a.runners and table not in a.room.actors
    state = await books(a.database, tid, table)
    assert state["hands"][number] == ["cancelled"] and state["prizes"] == 0
    assert state["lease"].node == "tb" and state["lease"].epoch == 2


async def test_a_stale_owners_registration_is_refused(steady: tuple[Node, Node]) -> None:
    """A registration taken by an owner whose lease was taken over is refused (HTTP 409,
    nothing paid) and that node stops running the event; through the new owner it holds,
    and the former owner now forwards the player's unregistration there (all refunded)."""
    a, b = steady
    hall_a, hall_b = a.app.state.tournaments, b.app.state.tournaments
    runner = await hall_a.create("sng_heads_up")
    await a.room.placement.leases.stop()  # a pauses: nothing renewed
    await eventually(lambda: runner.id in hall_b.runners, "b adopts the event")
    ann = await person(b.base, "ann")
    # a still believes it runs the event: its registration is refused by the epoch.
    assert (await register(a, ann, runner.id)).status_code == 409
    await eventually(lambda: runner.id not in hall_a.runners, "a stops the event")
    assert (await register(b, ann, runner.id)).status_code == 200
    await renewal_pass(a)  # a comes back
    assert hall_a.get(runner.id).t.entries and runner.id not in hall_a.runners
    async with httpx.AsyncClient(base_url=a.base) as http:  # a forwards them to b now
        headers = {"Authorization": f"Bearer {ann.token}"}
        refused = await http.post(f"/api/tournaments/{runner.id}/rebuy", headers=headers)
        assert refused.status_code == 400 and "cannot rebuy" in refused.text  # b's reason
        done = await http.post(
            f"/api/tournaments/{runner.id}/unregister",
            headers={"Authorization": f"Bearer {ann.token}"},
        )
        assert done.status_code == 204, done.text
        me = await http.get("/api/me", headers={"Authorization": f"Bearer {ann.token}"})
    assert me.json()["balance"] == STARTING_GRANT  # the buy-in and fee back
    assert not hall_b.runners[runner.id].t.entries
    state = await books(a.database, runner.id, f"{runner.id}-1")
    assert state["lease"].node == "tb"


async def test_a_full_sit_and_go_whose_owner_died_before_starting_it_starts_on_the_adopter(
    steady: tuple[Node, Node],
) -> None:
    """The owner stored the last registration and died before it started the event: the
    node that adopts it finds it full and starts it (nothing waits for a start time)."""
    a, b = steady
    hall_a, hall_b = a.app.state.tournaments, b.app.state.tournaments
    runner = await hall_a.create("sng_heads_up")

    async def dies_first() -> None:  # the owner stops right after the registration's commit
        return None

    runner.maybe_start = dies_first  # type: ignore[method-assign]
    for name in ("ann", "bob"):
        someone = await person(a.base, name)
        assert (await register(a, someone, runner.id)).status_code == 200
    assert not runner.t.started
    die(a)
    await eventually(lambda: runner.id in hall_b.runners, "b adopts the event")
    await eventually(lambda: hall_b.runners[runner.id].t.started, "b starts it")
    state = await books(b.database, runner.id, f"{runner.id}-1")
    assert state["lease"].node == "tb"
