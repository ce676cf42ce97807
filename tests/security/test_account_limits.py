"""S-ISOLATE-1 per account, over real sockets: an account on many sockets gets one account's
chat (5 messages per 10 s at a table, 10 in the room) and one account's rate of seat changes
(options toggles), and a table's frames are coalesced, so no client's message rate sets the
other viewers' frame rate; a chat line is never written inside the table's turn. Every test
ends with the audit (S-AUDIT-2)."""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from typing import Any

import pytest
from sqlalchemy import select
from websockets.asyncio.client import ClientConnection, connect

from pokerroom.server.tables.account_limits import CHANGE_BURST, CHAT_BURST, ROOM_CHAT_BURST
from pokerroom.server.tables.actor import OPTIONS_TICK
from pokerroom.store.models import ChatMessage
from pokerroom.store.tables.store import RoomStore
from tests.helpers.audit import assert_books_balance
from tests.helpers.database import rows
from tests.helpers.room_tables import table_config
from tests.server.conftest import Person, Server, checked_frame, person

SOCKETS = 20  # one account's sockets


async def sockets_of(server: Server, someone: Person, count: int) -> list[ClientConnection]:
    """``count`` more sockets logged in as ``someone``."""
    opened = []
    for _ in range(count):
        ws = await connect(server.base.replace("http", "ws", 1) + "/ws")
        await ws.send(json.dumps({"type": "hello", "token": someone.token}))
        while json.loads(await ws.recv())["type"] != "hello":
            pass
        opened.append(ws)
    return opened


async def send_then_ping(ws: ClientConnection, messages: list[dict[str, Any]]) -> Counter[str]:
    """Send ``messages``, then a ping; the codes of the errors before its pong (each socket's
    messages are offered to the tables in order, before the pong is sent)."""
    for message in messages:
        await ws.send(json.dumps(message))
    await ws.send(json.dumps({"type": "ping"}))
    codes: Counter[str] = Counter()
    async with asyncio.timeout(30):
        while True:
            frame = checked_frame(await ws.recv())
            if frame["type"] == "pong":
                return codes
            if frame["type"] == "error":
                codes[frame["code"]] += 1


async def chat_lines(spectator: Person, until: Any) -> list[dict[str, Any]]:
    """The chat frames ``spectator`` receives up to the one ``until`` is true of."""
    lines = []
    while True:
        frame = await spectator.next("chat", 30)
        lines.append(frame)
        if until(frame):
            return lines


async def test_chat_is_limited_per_account_over_all_its_sockets_at_a_table_and_in_the_room(
    server: Server,
) -> None:
    tables = ("c1", "c2", "c3")
    for table in tables:
        await server.room.open_table(table_config(table))
    ann, bob, carl = [await person(server.base, n) for n in ("ann", "bob", "carl")]
    for table in tables:
        await carl.send(type="watch", table=table)
        await carl.until(lambda f, t=table: f["table"] == t)
    await ann.send(type="join", table="c1", seat=1, buy_in=10_000, request="a1")
    await ann.until(lambda f: f["you"] == 1)
    sockets = await sockets_of(server, ann, SOCKETS)
    chats = [{"type": "chat", "table": t, "text": f"spam {t}"} for t in tables for _ in range(2)]
    refused = Counter[str]()
    for counted in await asyncio.gather(*(send_then_ping(ws, chats) for ws in sockets)):
        refused.update(counted)
    for table in tables:  # after every one of ann's: the tables' inboxes are in order
        await bob.send(type="chat", table=table, text="done")
    seen = Counter[str]()
    for line in await chat_lines(carl, lambda f: f["from"] == "bob" and f["table"] == "c3"):
        if line["from"] == "ann":
            seen[line["table"]] += 1
    assert sum(seen.values()) == ROOM_CHAT_BURST, seen  # 120 sent, on 20 sockets
    assert all(count <= CHAT_BURST for count in seen.values()), seen
    assert refused == {"chat.slow_down": SOCKETS * len(chats) - ROOM_CHAT_BURST}
    async with asyncio.timeout(30):  # every line sent is stored by the writer, bob's too
        while len(await rows(server, select(ChatMessage))) < ROOM_CHAT_BURST + len(tables):
            await asyncio.sleep(0.05)
    stored = await rows(server, select(ChatMessage).where(ChatMessage.account_id == ann.account_id))
    assert len(stored) == ROOM_CHAT_BURST
    await assert_books_balance(server)


async def test_a_chat_line_is_sent_while_its_write_waits_and_the_table_goes_on(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database is slow to take a chat line: the line is seen at once and the table
    answers the next message meanwhile (the write is not awaited in the table's turn)."""
    written = asyncio.Event()
    stored: list[str] = []
    original = RoomStore.post_chat

    async def slow(self: RoomStore, table_id: str, account: int, text: str, **kw: Any) -> None:
        await written.wait()
        await original(self, table_id, account, text, **kw)
        stored.append(text)

    monkeypatch.setattr(RoomStore, "post_chat", slow)
    await server.room.open_table(table_config("c4"))
    ann = await person(server.base, "ann")
    await ann.send(type="watch", table="c4")
    await ann.send(type="join", table="c4", seat=1, buy_in=10_000, request="a1")
    await ann.until(lambda f: f["you"] == 1)
    await ann.send(type="chat", table="c4", text="hello")
    assert (await ann.next("chat", 30))["text"] == "hello"
    await ann.send(type="options", table="c4", sit_out_next=True)
    frame = await ann.until(lambda f: f["options"]["sit_out_next"], timeout=30)
    assert frame["you"] == 1 and not stored  # answered while the line waits for its write
    written.set()
    async with asyncio.timeout(30):
        while not stored:
            await asyncio.sleep(0.05)
    lines = await rows(server, select(ChatMessage).where(ChatMessage.table_id == "c4"))
    assert [line.text for line in lines] == ["hello"]
    await assert_books_balance(server)


async def test_S_ISOLATE_2_options_from_many_sockets_are_one_accounts_rate_frames_coalesce(
    server: Server,
) -> None:
    """A sat-out player toggles auto-post from 20 sockets (each under its connection's rate):
    past one account's burst the toggles are refused to it, and a spectator gets at most one
    table frame a second from them (a seat's options are its player's own) however many
    changes there were; the table's versions stay gapless."""
    await server.room.open_table(table_config("o1"))
    mallory, carl = await person(server.base, "mallory"), await person(server.base, "carl")
    await mallory.send(type="watch", table="o1")
    await mallory.send(type="join", table="o1", seat=1, buy_in=10_000, request="m1")
    await mallory.until(lambda f: f["you"] == 1)
    await mallory.send(type="sit_out", table="o1")
    await mallory.until(lambda f: f["seats"][0]["status"] == "sitting_out")
    await carl.send(type="watch", table="o1")
    await carl.until(lambda f: f["seats"][0]["status"] == "sitting_out")
    carl.frames.clear()
    await mallory.send(type="options", table="o1", sit_out_next=True)  # her own: seen at once
    await mallory.until(lambda f: f["options"]["sit_out_next"], timeout=30)
    sockets = await sockets_of(server, mallory, SOCKETS)
    toggles = [
        {"type": "options", "table": "o1", "auto_post": on}
        for _ in range(25)
        for on in (False, True)
    ]
    began = time.monotonic()
    refused = Counter[str]()
    for counted in await asyncio.gather(*(send_then_ping(ws, toggles) for ws in sockets)):
        refused.update(counted)
    took = time.monotonic() - began
    accepted = SOCKETS * len(toggles) - refused["protocol.account_slow_down"]
    assert set(refused) == {"protocol.account_slow_down"}
    assert accepted <= CHANGE_BURST + took * 10 + 1, (accepted, took)  # CHANGE_RATE a second
    await carl.send(type="ping")
    await carl.next("pong", 30)
    frames = [f for f in carl.frames if f["type"] == "table"]
    assert len(frames) <= took / OPTIONS_TICK + 2, (len(frames), took)
    versions = [f["version"] for f in frames]
    assert versions == sorted(set(versions))  # in order, and
    assert len(versions) < 2 or versions[-1] - versions[0] == len(versions) - 1  # no gap
    await assert_books_balance(server)
