"""One hand, one number a player can quote to the floor: its id, in the PokerStars text
("PokerStars Hand #<id>"), the PHH (``hand``), a session's .phhs and the replay; the PHH's
``seat_count`` is the table's own size (not the house's largest table); a tournament hand is
marked as such in the hand list and the replay (its amounts are chips); and a finished
event lists no level and no table, and watching one of its tables after a restart says the
event has finished."""

from __future__ import annotations

import asyncio
import contextlib
import tomllib

import httpx

from pokerroom.server.tables.room import TableConfig
from tests.helpers.accounts import signup
from tests.helpers.audit import assert_books_balance
from tests.helpers.room_tables import play_at
from tests.helpers.tournaments import Fast
from tests.helpers.tournaments import person as tournament_player
from tests.server.conftest import Server, _serve, person


async def test_a_cash_hand_has_one_number_and_the_tables_seat_count(server: Server) -> None:
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    # A hand at another table first: the ids of the room's hands and the numbers of this
    # table's hands differ.
    for table, seats in (("side-4", 4), ("side-6", 6)):
        await server.room.open_table(
            TableConfig(table, "Side Room", "titan", "holdem", "no_limit", 200, seats)
        )
        for someone, seat in ((ann, 1), (bob, 3)):
            await someone.send(type="watch", table=table)
            await someone.send(type="join", table=table, seat=seat, buy_in=10_000, request=table)
        await asyncio.gather(play_at(ann, table, 2), play_at(bob, table, 2))
        for someone in (ann, bob):
            await someone.send(type="leave", table=table)
    assert server.room.actors["side-6"].table.house.max_seats != 6
    headers = {"Authorization": f"Bearer {ann.token}"}
    async with httpx.AsyncClient(base_url=server.base, headers=headers) as http:
        hands = (await http.get("/api/hands", params={"table": "side-6"})).json()
        assert hands and not any(h["tournament"] for h in hands)
        hand = hands[-1]["id"]
        assert hand != hands[-1]["number"]  # (the test tells them apart)
        text = (await http.get(f"/api/hands/{hand}.txt")).text
        phh = tomllib.loads((await http.get(f"/api/hands/{hand}.phh")).text)
        replay = (await http.get(f"/api/hands/{hand}/replay")).json()
        session = tomllib.loads((await http.get("/api/sessions/side-6.phhs")).text)
    assert text.startswith(f"PokerStars Hand #{hand}: ")
    assert phh["hand"] == hand and phh["seat_count"] == 6
    assert replay["id"] == hand and replay["tournament"] is False and replay["max_seats"] == 6
    listed = sorted(h["id"] for h in hands)
    assert [session[str(k)]["hand"] for k in range(1, len(hands) + 1)] == listed
    assert all(session[str(k)]["seat_count"] == 6 for k in range(1, len(hands) + 1))
    await assert_books_balance(server)


async def test_tournament_hands_say_chips_and_a_finished_events_tables_say_it_finished(
    server: Server,
) -> None:
    hall = server.app.state.tournaments
    hall.clock, hall.speed = Fast(30), 30
    runner = await hall.create("sng_heads_up")
    size = runner.t.structure.table_size
    people = {name: await signup(server.base, name) for name in ("ann_num", "bob_num")}
    await asyncio.wait_for(
        asyncio.gather(*(tournament_player(server, runner.id, n, d) for n, d in people.items())),
        timeout=600,
    )
    ann = {"Authorization": f"Bearer {people['ann_num']['token']}"}
    async with httpx.AsyncClient(base_url=server.base, headers=ann) as http:
        hands = (await http.get("/api/hands", params={"table": f"{runner.id}-1"})).json()
        assert hands and all(h["tournament"] for h in hands)
        hand = hands[-1]["id"]
        phh = tomllib.loads((await http.get(f"/api/hands/{hand}.phh")).text)
        text = (await http.get(f"/api/hands/{hand}.txt")).text
        replay = (await http.get(f"/api/hands/{hand}/replay")).json()
        event = (await http.get(f"/api/tournaments/{runner.id}")).json()
    assert phh["hand"] == hand and phh["seat_count"] == size
    assert text.startswith(f"PokerStars Hand #{hand}: ")
    assert f"' {size}-max Seat #" in text.splitlines()[1]
    assert replay["tournament"] is True and replay["max_seats"] == size
    # Finished: no level running, no table to watch.
    assert event["status"] == "finished"
    assert event["level"] is None and event["blinds"] is None and event["tables"] == []
    await assert_books_balance(server)

    # The room again on the same database (a restart): the event's table is gone, and
    # watching it says why.
    serving = _serve(server.database)
    again = await anext(serving)
    try:
        someone = await person(again.base, "cy_num")
        await someone.send(type="watch", table=f"{runner.id}-1")
        error = await someone.next("error")
        assert error["code"] == "tournament.table_ended", error
        assert error["params"]["event"] == runner.t.name
        await someone.ws.close()
    finally:
        with contextlib.suppress(StopAsyncIteration):
            await anext(serving)  # the second room stops
