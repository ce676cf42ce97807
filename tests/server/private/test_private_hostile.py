"""R-PRIV-1 and S-ISOLATE-1 at a private cash game, over real sockets: a host whose connection
drops right after sending an act (remove a player, change the stakes) mid-hand, and a player
who never reads their socket at the game's table. The act is applied once and whole, the
table deals on, only the dropped connection suffers; each test ends with the audit
reconciling to the chip (S-AUDIT-2)."""

from __future__ import annotations

import asyncio
import json

from tests.helpers.audit import assert_books_balance
from tests.helpers.private_games import (
    call,
    hosted,
    ledger,
    let_in,
    never_read,
    never_reader,
    seated,
    sent_and_dropped,
)
from tests.helpers.room_tables import back, play_along
from tests.server.conftest import Person, Server, person


async def acts_of(server: Server, who: Person, game: str, act: str, count: int) -> list[str]:
    """The game's log once it has ``count`` acts named ``act`` (bounded: 10 s)."""
    for _ in range(200):
        log = (await call(server, who, "GET", f"/{game}/log")).json()["acts"]
        if sum(a["act"] == act for a in log) >= count:
            return [a["act"] for a in log]
        await asyncio.sleep(0.05)
    raise AssertionError(f"no {act} logged: {log}")


async def test_R_PRIV_1_a_host_dropped_right_after_an_act_mid_hand_changes_it_once(
    server: Server,
) -> None:
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    cat = await person(server.base, "cat")
    game = await hosted(server, ann)
    table = game["id"]
    await let_in(server, ann, game, bob, cat)
    for someone, seat in ((ann, 1), (bob, 3), (cat, 5)):
        await seated(someone, table, seat)
    # A hand in play: the host sends "remove bob" and "stakes 400" and is gone at once,
    # her socket too.
    frame = await cat.until(lambda f: f.get("hand") is not None and f["hand"]["actor"] is not None)
    in_play = frame["hand"]["number"]
    await sent_and_dropped(server, ann, "POST", f"/{table}/remove", {"account": bob.account_id})
    await sent_and_dropped(server, ann, "POST", f"/{table}/stakes", {"big_blind": 400})
    await ann.ws.close()
    acts = await acts_of(server, cat, table, "stakes", 1)
    assert acts.count("remove") == 1 and acts.count("stakes") == 1
    # She comes back: the hand in play ends, bob is cashed out after it, and the table
    # deals on at the new stakes.
    ann = await back(server, ann)
    await ann.send(type="watch", table=table)
    await asyncio.wait_for(
        asyncio.gather(play_along(cat, table, 3), play_along(ann, table, 3)), timeout=120
    )
    actor = server.room.actors[table]
    assert actor.table.hand_number >= in_play + 2
    assert actor.table.big_blind == 400  # from the next hand on
    assert str(bob.account_id) not in [s.player for s in actor.table.seats.values()]
    book = await ledger(server, cat, game)
    bobs = next(p for p in book["players"] if p["account"] == bob.account_id)
    assert not bobs["seated"] and bobs["cash_outs"] > 0  # his chips left through the ledger
    assert (await call(server, bob, "GET", f"/{table}")).json()["you"] == "removed"
    await assert_books_balance(server)


async def test_S_ISOLATE_1_a_player_who_never_reads_at_a_private_table_hurts_only_their_socket(
    server: Server,
) -> None:
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    mal = await person(server.base, "mal")
    game = await hosted(server, ann)
    table = game["id"]
    await let_in(server, ann, game, bob, mal)
    await seated(ann, table, 1)
    await seated(bob, table, 4)
    await mal.ws.close()
    sleeper = await never_reader(server, mal)
    actor = server.room.actors[table]
    await sleeper.send(json.dumps({"type": "watch", "table": table}))
    for _ in range(200):  # bounded (10 s): it is let in, as an approved player
        if any(c.account_id == mal.account_id for c in actor.watchers):
            break
        await asyncio.sleep(0.05)
    assert any(c.account_id == mal.account_id for c in actor.watchers)
    await asyncio.wait_for(
        asyncio.gather(
            play_along(ann, table, 6), play_along(bob, table, 6), never_read(sleeper, table)
        ),
        timeout=120,
    )
    room = server.room
    for _ in range(600):  # bounded (30 s): the connection that never read is dropped
        if not any(c.account_id == mal.account_id for c in room.clients):
            break
        await asyncio.sleep(0.05)
    assert not any(c.account_id == mal.account_id for c in room.clients)
    assert not room.actors[table].closed
    hands = (await call(server, ann, "GET", f"/{table}/hands")).json()["hands"]
    assert len(hands) >= 5  # dealt on while it never read
    sleeper.transport.abort()  # (its socket, full, would hold the room's shutdown)
    await assert_books_balance(server)
