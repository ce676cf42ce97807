"""R-TIME-1, R-TIME-2: a decision made late in the clock -- after the
warning, after the time bank started, right at the deadline -- is handled at once, and a
table's task sleeps until its next deadline instead of spinning.

The warnings come a second into the turn, and the deadlines many seconds after the late
decision (a busy machine may deliver it a few seconds late; the tests never wait for a
deadline they do not test); the bug they replay is the same: once the warning had passed,
the table's next wake-up was in the past and its inbox was never read until the time-out
acted."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from pokerroom.server.tables.room import TableConfig
from tests.helpers.audit import assert_books_balance
from tests.helpers.room_tables import clock, decision, first_turn, heads_up
from tests.server.conftest import Server


async def act_late(server: Server, table: str, overrides: Any, late: float) -> None:
    """The first player to act calls ``late`` seconds into their turn: the call is applied."""
    ann, bob = await heads_up(server, table, overrides)
    me, frame, since = await first_turn(ann, bob)
    seat, number = frame["you"], frame["hand"]["number"]
    await asyncio.sleep(max(0.0, since + late - time.monotonic()))
    await me.send(type="act", table=table, action="check_or_call", hand=number)
    after = await decision(me, seat, number)
    # Before the fix the call waited in the inbox until the time-out folded the player.
    assert after["hand"] is not None and after["hand"]["number"] == number, after
    assert after["seats"][seat - 1]["last_action"]["action"] == "call"
    assert not [f for f in me.frames if f.get("type") == "error"]
    await assert_books_balance(server)


async def test_R_TIME_1_an_action_after_the_warning_is_applied_at_once(server: Server) -> None:
    await act_late(server, "late1", clock(12, 1, 0), late=1.6)


async def test_R_TIME_1_an_action_after_the_time_bank_started_is_applied(server: Server) -> None:
    # The decision time (2 s) runs out, the 10-second time bank starts; the call comes in it.
    await act_late(server, "late2", clock(2, 1, 10), late=2.6)


async def test_R_TIME_1_chat_after_the_warning_is_sent_before_the_time_out(
    server: Server,
) -> None:
    ann, bob = await heads_up(server, "late3", clock(12, 1, 0))
    me, frame, since = await first_turn(ann, bob)
    seat, number = frame["you"], frame["hand"]["number"]
    await asyncio.sleep(max(0.0, since + 1.6 - time.monotonic()))
    seen = len(me.frames)
    await me.send(type="chat", table="late3", text="thinking")
    chat = await me.next("chat", timeout=15)
    assert chat["text"] == "thinking"
    between = [f for f in me.frames[seen:] if f.get("type") == "table"]
    # Before the fix the chat waited until the time-out had folded the player.
    assert all(f["hand"] is not None and f["hand"]["actor"] == seat for f in between), between
    await me.send(type="act", table="late3", action="fold", hand=number)
    await decision(me, seat, number)
    await assert_books_balance(server)


async def test_R_TIME_1_leave_after_the_warning_is_applied_at_once(server: Server) -> None:
    ann, bob = await heads_up(server, "late4", clock(20, 1, 0))
    me, frame, since = await first_turn(ann, bob)
    seat = frame["you"]
    other = bob if me is ann else ann
    await asyncio.sleep(max(0.0, since + 1.6 - time.monotonic()))
    await me.send(type="leave", table="late4")
    # The time-out would come 18.4 s later: the seat must be empty well before it.
    gone = await other.until(lambda f: f["seats"][seat - 1]["empty"], timeout=15)
    assert gone["seats"][seat - 1]["empty"]
    await assert_books_balance(server)


async def test_R_TIME_2_an_action_right_at_the_deadline_is_applied_or_refused_never_both(
    server: Server,
) -> None:
    ann, bob = await heads_up(server, "late5", clock(2, 1, 0))
    me, frame, since = await first_turn(ann, bob)
    seat, number = frame["you"], frame["hand"]["number"]
    await asyncio.sleep(max(0.0, since + 2.0 - time.monotonic()))
    await me.send(type="act", table="late5", action="check_or_call", hand=number)
    after = await decision(me, seat, number)
    done = after["seats"][seat - 1]["last_action"]["action"]
    await me.send(type="chat", table="late5", text="done")  # handled in turn, after the act
    await me.next("chat")  # so any answer to the act has arrived before it
    errors = [f for f in me.frames if f.get("type") == "error"]
    if done == "call":  # applied in time: nothing refused, the hand goes on
        assert errors == [] and after["hand"]["number"] == number
    else:  # the time-out came first (a fold, R-TIME-2): the late call is refused, clearly
        assert done == "fold"
        assert [e["request"] for e in errors] == ["act"], errors
        assert "not" in errors[0]["message"]
    await assert_books_balance(server)


async def test_R_TIME_1_the_table_task_sleeps_while_it_waits_for_a_decision(
    server: Server,
) -> None:
    ann, bob = await heads_up(server, "late6", clock(12, 1, 0))
    me, frame, since = await first_turn(ann, bob)
    actor = server.room.actors["late6"]
    await asyncio.sleep(max(0.0, since + 1.5 - time.monotonic()))  # past the warning
    before = actor.turns
    await asyncio.sleep(1.0)
    # Nothing happens in this second but waiting: a handful of turns at most, not thousands.
    assert actor.turns - before <= 5, actor.turns - before
    await me.send(type="act", table="late6", action="fold", hand=frame["hand"]["number"])
    await decision(me, frame["you"], frame["hand"]["number"])
    await assert_books_balance(server)


async def test_R_TIME_1_an_empty_table_task_sleeps(server: Server) -> None:
    await server.room.open_table(
        TableConfig("idle", "idle", "titan", "holdem", "no_limit", 200, 6, clock(4, 1, 0))
    )
    actor = server.room.actors["idle"]
    await asyncio.sleep(0.1)
    before = actor.turns
    await asyncio.sleep(1.0)
    assert actor.turns - before <= 1
