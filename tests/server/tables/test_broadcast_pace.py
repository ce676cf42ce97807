"""When a table's frames go out (S-ISOLATE-1): an action accepted from the player to act at
once, whatever the tick; a change another message makes (a join) waits for the tick and
goes out with the next frame. The tick is made an hour long here and the table's clock is
stopped, so a frame that waited for either would never come within the test."""

from __future__ import annotations

import pytest

from pokerroom.server.tables import actor as table_actor
from pokerroom.server.tables.room import TableConfig
from tests.helpers.audit import assert_books_balance
from tests.helpers.waiting import eventually
from tests.server.conftest import Server, person

BUY_IN = 10_000


async def test_S_ISOLATE_1_an_action_goes_out_at_once_a_join_waits_for_the_tick(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    await server.room.open_table(TableConfig("t", "T", "titan", "holdem", "no_limit", 200, 6))
    ann, bob, carl = [await person(server.base, name) for name in ("ann", "bob", "carl")]
    for seat, someone in ((1, ann), (2, bob)):
        await someone.send(type="watch", table="t")
        await someone.send(type="join", table="t", seat=seat, buy_in=BUY_IN, request=f"j{seat}")
        await someone.until(lambda f, seat=seat: f["you"] == seat)
    frame = await ann.until(lambda f: f["hand"] is not None and f["hand"]["actor"] is not None)
    hand, first = frame["hand"]["number"], frame["hand"]["actor"]
    monkeypatch.setattr(table_actor, "BROADCAST_TICK", 3600.0)
    actor = server.room.actors["t"]
    # The clock stopped too: no turn of its own sends a frame meanwhile.
    monkeypatch.setattr(actor, "_next_wakeup", lambda now: None)

    # Carl sits down in the hand: the table changes, and the frame that shows it waits.
    await carl.send(type="watch", table="t")
    await carl.until(lambda f: f["hand"] is not None)
    await carl.send(type="join", table="t", seat=3, buy_in=BUY_IN, request="j3")
    await eventually(lambda: actor.table.seat_number(str(carl.account_id)) == 3, "carl seated")
    assert actor.dirty, "the join's frame went out before its tick"
    assert all(f["seats"][2]["empty"] for f in carl.frames if f.get("type") == "table")

    # The player to act calls: that frame goes out at once, and shows Carl seated too.
    to_act = ann if first == 1 else bob
    await to_act.send(type="act", table="t", action="check_or_call", hand=hand)
    other = bob if to_act is ann else ann
    after = await other.until(lambda f: f["hand"] is not None and f["hand"]["actor"] != first)
    assert after["hand"]["number"] == hand
    assert not after["seats"][2]["empty"], after["seats"][2]
    assert not actor.dirty
    await assert_books_balance(server)
