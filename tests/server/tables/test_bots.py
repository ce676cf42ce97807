"""DESIGN 9, bots as players over the protocol, and what they do when the room says no: a
join refused because the seat was taken meanwhile is tried at another free seat, and a
message refused with "slow down" is sent again after a short back-off; both bounded."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
from typing import Any

import pytest
from sqlalchemy import select

from pokerroom.bots.client import TableNotHereError, run_bot, run_bot_reconnecting, thinking
from pokerroom.bots.strategy import RuleBot
from pokerroom.engine import ActionKind
from pokerroom.history.record import read_record
from pokerroom.server.ops.process import free_port
from pokerroom.server.tables.room import TableConfig
from pokerroom.store.models import HandRecord
from tests.helpers.audit import assert_books_balance
from tests.helpers.database import rows
from tests.helpers.room_tables import play_along, table_config
from tests.server.conftest import Server, person

CLOCK = (("decision_seconds", 30), ("warning_after_seconds", 20), ("time_bank_seconds", 0))


def seated(server: Server, table: str, name: str) -> bool:
    return any(s.name == name for s in server.room.actors[table].table.seats.values())


async def test_DESIGN_9_a_bot_refused_a_taken_seat_sits_at_another(server: Server) -> None:
    await server.room.open_table(
        TableConfig("bots1", "bots1", "titan", "holdem", "no_limit", 200, 4)
    )
    ann = await person(server.base, "ann")
    await ann.send(type="watch", table="bots1")
    await ann.send(type="join", table="bots1", seat=2, buy_in=10_000, request="a1")
    await ann.until(lambda f: f.get("you") == 2)
    errors: list[str] = []
    shown = {"stale": False}

    def on_frame(frame: dict[str, Any]) -> None:
        if frame.get("type") == "error":
            errors.append(frame["message"])
        elif frame.get("type") == "table" and not shown["stale"]:
            shown["stale"] = True  # a view from before ann sat: only seat 2 looks free
            for seat in frame["seats"]:
                seat["empty"] = seat["seat"] == 2

    bot = asyncio.create_task(
        run_bot(server.base, "robot", RuleBot(random.Random(1)), table="bots1", on_frame=on_frame)
    )
    try:
        for _ in range(600):  # bounded (30 s): seated within moments of the refusal
            if seated(server, "bots1", "robot") or bot.done():
                break
            await asyncio.sleep(0.05)
        assert seated(server, "bots1", "robot")
        assert "seat 2 is taken" in errors
    finally:
        bot.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await bot
    await assert_books_balance(server)


async def test_DESIGN_9_a_bot_sends_an_action_again_after_slow_down(server: Server) -> None:
    await server.room.open_table(
        TableConfig("bots2", "bots2", "titan", "holdem", "no_limit", 200, 2, CLOCK)
    )
    ann = await person(server.base, "ann")
    await ann.send(type="watch", table="bots2")
    await ann.send(type="join", table="bots2", seat=1, buy_in=10_000, request="a1")
    await ann.until(lambda f: f.get("you") == 1)
    room = server.room
    limits = room.limits
    # The bot's connection only: its hello, watch and join use the burst; each action
    # after that waits a second for its token, and one sent sooner is refused.
    room.limits = dataclasses.replace(limits, rate=1.0, burst=3)
    errors: list[str] = []

    def on_frame(frame: dict[str, Any]) -> None:
        if frame.get("type") == "error":
            errors.append(frame["message"])

    bot = asyncio.create_task(
        run_bot(
            server.base,
            "robot",
            RuleBot(random.Random(2)),
            table="bots2",
            hands=1,
            on_frame=on_frame,
        )
    )
    ann_plays = asyncio.create_task(play_along(ann, "bots2", 3))
    try:
        for _ in range(600):  # bounded (30 s): the bot's connection is open within moments
            if any(c.name == "robot" for c in room.clients):
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)
        room.limits = limits
        await asyncio.wait_for(bot, timeout=60)  # hand 1 played to its end, then it left
    finally:
        room.limits = limits
        for task in (bot, ann_plays):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
    assert any(e.startswith("slow down") for e in errors)  # refused, and yet it played
    hand = (await rows(server, select(HandRecord).where(HandRecord.table_id == "bots2")))[0]
    assert hand.number == 1 and hand.status == "complete"
    # Nobody's clock ran out: a timer that expires logs a time-out in the hand's record.
    played = read_record(hand.record)
    assert not [a for _, a in played.log if a.kind is ActionKind.TIMEOUT]
    await assert_books_balance(server)


async def test_DESIGN_9_bots_reconnect_through_any_node_and_say_what_went_wrong(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    """``pokerroom bots`` with two nodes, one of them down: each bot says it could not
    connect there and plays through the other; when its connection is dropped (its node
    restarting), it says so, reconnects and plays on in its seat."""
    await server.room.open_table(table_config("stay", seats=2))
    actor = server.room.actors["stay"]
    down = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    bots = [
        asyncio.create_task(
            run_bot_reconnecting([down, server.base], name, RuleBot(random.Random(k)), table="stay")
        )
        for k, name in enumerate(("stayer1", "stayer2"))
    ]
    try:
        await dealt(actor, 1)
        dropped = [c for c in server.room.clients if c.account_id is not None]
        assert len(dropped) == 2
        for client in dropped:
            client.drop(1012, "the node is restarting")
        await dealt(actor, actor.table.hand_number + 2)  # again, in the same seats
        # (A bot that busts leaves and buys in again: its seat is the table's other one.)
        names = lambda: {s.name for s in actor.table.seats.values()}  # noqa: E731
        for _ in range(600):  # bounded (30 s)
            if names() == {"stayer1", "stayer2"}:
                break
            await asyncio.sleep(0.05)
        assert names() == {"stayer1", "stayer2"}
    finally:
        for task in bots:
            task.cancel()
        await asyncio.gather(*bots, return_exceptions=True)
    said = [r.getMessage() for r in caplog.records if r.name == "pokerroom.bots"]
    assert any(f"through {down}: ConnectError" in line for line in said), said
    assert any("ConnectionClosedError" in line and "1012" in line for line in said), said
    failed_down = [line for line in said if f"through {down}:" in line]
    assert all(f"reconnecting through {server.base}" in line for line in failed_down), said
    await assert_books_balance(server)


async def test_DESIGN_9_a_bot_sent_where_its_table_is_not_asks_again(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    """A node that does not run the bot's table (it moved on after the bot looked it up)
    refuses the watch: the bot gives that socket up at once rather than wait on it for
    frames that never come; ``pokerroom bots`` says so and comes back until the table is
    there, then plays at it."""
    with pytest.raises(TableNotHereError):
        async with asyncio.timeout(30):  # (bounded: without the refusal seen, it waits)
            await run_bot(server.base, "stray", RuleBot(random.Random(1)), table="later")
    bot = asyncio.create_task(
        run_bot_reconnecting([server.base], "comer", RuleBot(random.Random(2)), table="later")
    )
    try:
        async with asyncio.timeout(30):
            while "is not on the node asked" not in caplog.text:
                await asyncio.sleep(0.05)
        await server.room.open_table(table_config("later", seats=2))
        ann = await person(server.base, "ann")
        await ann.send(type="watch", table="later")
        frame = await ann.until(lambda f: any(s.get("name") == "comer" for s in f["seats"]))
        free = next(s["seat"] for s in frame["seats"] if s["empty"])
        await ann.send(type="join", table="later", seat=free, buy_in=10_000, request="a1")
        await dealt(server.room.actors["later"], 1)
    finally:
        bot.cancel()
        await asyncio.gather(bot, return_exceptions=True)
    said = [r.getMessage() for r in caplog.records if r.name == "pokerroom.bots"]
    assert any("bot comer at later" in line and "not on the node asked" in line for line in said)
    await assert_books_balance(server)


async def dealt(actor: Any, number: int) -> None:
    """Wait (bounded: 60 s) until the table has dealt hand ``number``, and it has ended."""
    async with asyncio.timeout(60):
        while actor.table.hand_number < number or actor.table.hand is not None:
            await asyncio.sleep(0.05)


def test_a_bot_thinks_from_half_to_one_and_a_half_times_its_think_time() -> None:
    rng = random.Random(3)
    waits = [thinking(1.0, rng) for _ in range(1000)]
    assert 0.5 <= min(waits) < 0.6 and 1.4 < max(waits) <= 1.5
    assert thinking(0.0, rng) == 0.0


async def test_DESIGN_9_a_bot_that_thinks_acts_no_sooner_than_half_its_think_time(
    server: Server,
) -> None:
    """A house bot takes a moment over each decision, as a person does: from the frame that
    gives it the turn to the next one (sent once its action lands) at least half its think
    time passes. Its partner acts at once; both play their hands to the end."""
    await server.room.open_table(table_config("ponder", seats=2))
    think = 0.3
    turns: dict[tuple[Any, ...], float] = {}  # the thinker's turns: when it read each
    waits: list[float] = []

    def on_frame(frame: dict[str, Any]) -> None:
        hand = frame.get("hand") if frame.get("type") == "table" else None
        if hand is None:
            return
        now = asyncio.get_running_loop().time()
        mine = frame["you"] is not None and hand["actor"] == frame["you"] and hand["legal"]
        if mine:
            turns.setdefault((hand["number"], hand["street"], hand["legal"]["pot"]), now)
        elif turns and len(waits) < len(turns):
            waits.append(now - list(turns.values())[-1])

    thinker = run_bot(
        server.base,
        "ponderer",
        RuleBot(random.Random(4)),
        table="ponder",
        hands=2,
        on_frame=on_frame,
        think=think,
    )
    quick = run_bot(server.base, "quick", RuleBot(random.Random(5)), table="ponder", hands=2)
    async with asyncio.timeout(60):
        await asyncio.gather(thinker, quick)
    assert waits, "the thinking bot never had the turn"
    assert min(waits) >= think / 2, waits
    await assert_books_balance(server)
