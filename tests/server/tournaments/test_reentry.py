"""A re-entered player (entry ``<account>#2``) over real sockets (R-TIME-3): the
room knows them by their new entry everywhere it knows a seat by its account: the hello's
``seated`` tables, a dropped socket marking the seat disconnected, the new socket's watch
giving it back, their hole cards, their turn and their chat."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from websockets.asyncio.client import connect

from tests.helpers.audit import assert_books_balance
from tests.server.conftest import Person, Server, checked_frame, person

HANDS = 60  # ann all in with one chip each hand against two callers: out long before this


async def call_down(who: Person, stop: asyncio.Event, seen: asyncio.Queue[Any]) -> None:
    """Check or call every decision (an all-in with one chip for ann) until ``stop``; every
    table frame also goes to ``seen`` (the test reads the socket through it)."""
    acted: tuple[Any, ...] = ()
    while not stop.is_set():
        try:
            async with asyncio.timeout(0.5):
                frame = checked_frame(await who.ws.recv())
        except TimeoutError:
            continue
        hand = frame.get("hand") if frame.get("type") == "table" else None
        if frame.get("type") == "table":
            seen.put_nowait(frame)
        if hand is None or hand["actor"] is None or hand["actor"] != frame.get("you"):
            continue
        key = (frame["table"], hand["number"], hand["street"], str(frame["seats"]))
        if hand["legal"] is None or key == acted:
            continue
        acted = key
        await who.send(
            type="act",
            table=frame["table"],
            action="check_or_call",
            hand=hand["number"],
        )


async def until(seen: asyncio.Queue[Any], predicate: Any) -> dict[str, Any]:
    async with asyncio.timeout(30):
        while True:
            frame: dict[str, Any] = await seen.get()
            if predicate(frame):
                return frame


async def test_R_TIME_3_a_re_entered_player_gets_their_seat_back_after_a_reconnect(
    server: Server,
) -> None:
    hall = server.app.state.tournaments
    runner = await hall.create("mtt_reentry")  # no start time: the director starts it
    ann, bob, cy = [await person(server.base, name) for name in ("ann_re", "bob_re", "cy_re")]
    for k, who in enumerate((ann, bob, cy)):
        await runner.register(who.account_id, who.name, f"re{k}")
    runner.starts_at = hall.clock()
    await runner.maybe_start()
    table_id = runner.table_id(1)
    for actor in runner.actors.values():  # held while ann's first entry is cut to one chip
        actor.next_hand_at = float("inf")
    table = runner.t.tables[1]
    first, rich = table.seat_of(str(ann.account_id)), table.seat_of(str(bob.account_id))
    rich.stack += first.stack - 1  # chips change hands, none made or lost
    first.stack = 1
    stop = asyncio.Event()
    for who in (ann, bob, cy):
        await who.send(type="watch", table=table_id)
    seen: dict[str, asyncio.Queue[Any]] = {who.name: asyncio.Queue() for who in (ann, bob, cy)}
    players = [asyncio.create_task(call_down(who, stop, seen[who.name])) for who in (bob, cy)]
    ann_plays = asyncio.create_task(call_down(ann, stop, seen[ann.name]))
    runner.actors[1].next_hand_at = 0.0
    runner.actors[1].wake()
    async with asyncio.timeout(120):
        while not runner.t.entries[str(ann.account_id)].out:
            assert runner.t.hands <= HANDS and not runner.t.finished
            await asyncio.sleep(0.05)
    ann_plays.cancel()
    # Ann re-enters: a new entry, a full stack, a seat at the table.
    async with httpx.AsyncClient(base_url=server.base) as http:
        done = await http.post(
            f"/api/tournaments/{runner.id}/register",
            json={"request": "again"},
            headers={"Authorization": f"Bearer {ann.token}"},
        )
    assert done.status_code == 200, done.text
    entry = done.json()["entry"]
    assert entry == f"{ann.account_id}#2"
    seat = table.seat_number(entry)
    assert seat is not None and runner.my_table(ann.account_id) == table_id
    shown = await until(seen[bob.name], lambda f: f["seats"][seat - 1]["empty"] is False)
    assert shown["seats"][seat - 1]["connected"] is True
    # Her socket drops: the seat shows it ...
    await ann.ws.close()
    await until(seen[bob.name], lambda f: f["seats"][seat - 1].get("connected") is False)
    # ... and her new socket's hello names her table; watching it gives the seat back.
    ws = await connect(server.base.replace("http", "ws", 1) + "/ws")
    back = Person(name=ann.name, token=ann.token, account_id=ann.account_id, ws=ws)
    await back.next("welcome")
    await back.send(type="hello", token=ann.token)
    hello = await back.next("hello")
    assert hello["seated"] == [table_id]
    await back.send(type="watch", table=table_id)
    await until(seen[bob.name], lambda f: f["seats"][seat - 1].get("connected") is True)
    mine = await back.until(lambda f: f.get("you") == seat)
    assert mine["seats"][seat - 1]["connected"] is True

    # Her turn comes at her re-entry's seat: she may act from the new socket, and chat.
    def my_turn(f: dict[str, Any]) -> bool:
        return f["hand"] is not None and f["hand"]["actor"] == seat and bool(f["hand"]["legal"])

    turn = mine if my_turn(mine) else await back.until(my_turn, timeout=60)
    number = turn["hand"]["number"]
    await back.send(type="act", table=table_id, action="check_or_call", hand=number)
    await back.until(
        lambda f: f["hand"] is None or f["hand"]["number"] > number or f["hand"]["actor"] != seat
    )
    await back.send(type="chat", table=table_id, text="back again")
    said = await back.next("chat")
    assert said["text"] == "back again"
    errors = [f for f in back.frames if f.get("type") == "error"]
    assert not errors, errors
    stop.set()
    await asyncio.gather(*players)
    for actor in runner.actors.values():
        actor.next_hand_at = float("inf")
    await back.ws.close()
    await assert_books_balance(server)
