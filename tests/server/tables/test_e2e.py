"""The room end to end over real sockets: people and bots playing, the ledger after each hand,
buy-ins above the balance, disconnects, time-outs, and no hole card leaking (S-VIEW-1)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random

import httpx
import pytest
from websockets.asyncio.client import connect

from pokerroom.bots.client import run_bot
from pokerroom.bots.strategy import RuleBot
from pokerroom.store.db import Database
from tests.helpers.audit import assert_books_balance
from tests.helpers.frames import leaked
from tests.helpers.room_tables import ann_and_bob_seated, play_along, table_config
from tests.server.conftest import PASSWORD_SECONDS, Person, Server, person


async def test_two_people_and_bots_play_and_the_ledger_balances(server: Server) -> None:
    await two_people_and_bots_play(server)


@pytest.mark.postgres
async def test_the_same_room_on_postgresql(postgres_server: Server) -> None:
    await two_people_and_bots_play(postgres_server)


async def two_people_and_bots_play(server: Server) -> None:
    ann, bob = await ann_and_bob_seated(server, "t1", (1, 4))
    bots = [
        asyncio.create_task(
            run_bot(
                server.base,
                f"robot{k}",
                RuleBot(random.Random(k)),
                table="t1",
                rng=random.Random(k),
            )
        )
        for k in range(2)
    ]
    try:
        await asyncio.gather(play_along(ann, "t1", 8), play_along(bob, "t1", 8))
    finally:
        for bot in bots:
            bot.cancel()
        for bot in bots:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await bot
    assert leaked(ann.frames, 1) == [] and leaked(bob.frames, 4) == []  # S-VIEW-1
    results = [f for f in ann.frames if f.get("type") == "hand_result"]
    assert results and any(r["shown"] for r in results)  # showdowns are public
    assert all(r["pots"] for r in results)
    await assert_books_balance(server)
    async with httpx.AsyncClient(base_url=server.base) as http:
        lobby = (await http.get("/api/lobby")).json()
        me = (await http.get("/api/me", headers={"Authorization": f"Bearer {ann.token}"})).json()
    assert lobby[0]["seated"] >= 2 and lobby[0]["hands_per_hour"] > 0
    assert me["balance"] == 1_000_000 - 10_000  # the rest is on the table


async def test_a_buy_in_above_the_balance_is_refused(server: Server) -> None:
    await server.room.open_table(table_config("t2"))
    ann = await person(server.base, "ann")
    await ann.send(type="watch", table="t2")
    await ann.next("table")
    await ann.send(type="join", table="t2", seat=1, buy_in=2_000_000, request="big")
    error = await ann.next("error")
    assert "cannot pay 2000000" in error["message"]
    async with httpx.AsyncClient(base_url=server.base) as http:
        me = (await http.get("/api/me", headers={"Authorization": f"Bearer {ann.token}"})).json()
    assert me["balance"] == 1_000_000
    await assert_books_balance(server)


async def test_a_time_out_and_a_disconnect_with_reconnect(server: Server) -> None:
    ann, bob = await ann_and_bob_seated(server, "t3", (1, 2), table_seats=2)
    frame = await ann.until(lambda f: f.get("hand") is not None and f["hand"]["actor"] is not None)
    actor = frame["hand"]["actor"]
    sleeper = ann if actor == 1 else bob
    # Nobody acts: the two-second limit runs out and the house policy (check/fold) acts.
    moved_on = await sleeper.until(
        lambda f: f.get("hand") is None or f["hand"]["number"] > frame["hand"]["number"], timeout=15
    )
    assert moved_on["seats"][actor - 1]["status"] == "playing"  # timed out, still seated
    # Disconnect in the middle of a hand, log in again on a new socket, keep the seat.
    await ann.ws.close()
    async with httpx.AsyncClient(base_url=server.base, timeout=PASSWORD_SECONDS) as http:
        login = await http.post("/api/login", json={"username": "ann", "password": "correct horse"})
    token = login.json()["token"]
    ws = await connect(server.base.replace("http", "ws", 1) + "/ws")
    again = Person(name="ann", token=token, account_id=ann.account_id, ws=ws)
    await again.next("welcome")
    await again.send(type="hello", token=token)
    await again.next("hello")
    await again.send(type="join", table="t3", seat=1, buy_in=10_000, request="back")
    state = await again.until(lambda f: f.get("you") == 1)
    assert state["seats"][0]["name"] == "ann"
    await assert_books_balance(server)


@pytest.mark.parametrize(
    "frame",
    [
        "not json",
        "[]",
        '{"type": "nope"}',
        '{"type": "act", "table": "t4", "action": "fold"}',
        '{"type": "join", "table": "t4", "seat": 99, "buy_in": 1, "request": "x"}',
        '{"type": "act", "table": "t4", "action": "fold", "hand": 1, "extra": 1}',
        '{"type": "chat", "table": "t4", "text": "' + "x" * 500 + '"}',
    ],
)
async def test_S_INPUT_1_malformed_messages_get_an_error_and_change_nothing(
    server: Server, frame: str
) -> None:
    if "t4" not in server.room.actors:
        await server.room.open_table(table_config("t4"))
    ann = await person(server.base, "ann")
    await ann.send(type="watch", table="t4")
    before = await ann.next("table")
    await ann.ws.send(frame)
    error = await ann.next("error")
    assert error["message"]
    await ann.send(type="watch", table="t4")
    after = await ann.next("table")
    assert after["seats"] == before["seats"] and after["hand"] == before["hand"]


async def test_S_INPUT_1_malformed_or_refused_messages_mid_hand_change_nothing(
    server: Server,
) -> None:
    slow = (("decision_seconds", 120), ("warning_after_seconds", 110), ("time_bank_seconds", 0))
    ann, _ = await ann_and_bob_seated(server, "t9", (1, 2), overrides=slow)
    # Wait for ann's turn in a hand: the blinds are in, her decision has two minutes.
    before = await ann.until(
        lambda f: (
            f.get("hand") is not None
            and f["hand"]["actor"] == f["you"]
            and f["hand"]["legal"] is not None
        )
    )
    number = before["hand"]["number"]
    assert before["hand"]["pots"] and before["seats"][0]["bet"] > 0  # chips are in play

    def state(frame: dict) -> tuple[object, ...]:  # all but the running clock
        clock = ("seconds_left", "warning_left")
        hand = {k: v for k, v in frame["hand"].items() if k not in clock}
        return hand, frame["seats"], frame["version"]

    act = {"type": "act", "table": "t9", "hand": number}
    frames = [
        "not json",
        json.dumps({**act, "action": "dance"}),
        json.dumps({**act, "action": "fold", "extra": 1}),
        json.dumps({"type": "act", "table": "t9", "action": "fold"}),  # no hand number
        json.dumps({**act, "action": "bet_or_raise", "amount": 10**13}),
        json.dumps({**act, "action": "bet_or_raise", "amount": 1}),  # below the minimum
        json.dumps({**act, "action": "fold", "hand": number + 1}),  # another hand
        json.dumps({"type": "join", "table": "t9", "seat": 3, "buy_in": 10_000, "request": "r2"}),
    ]
    for frame in frames:
        await ann.ws.send(frame)
        error = await ann.next("error")
        assert error["message"], frame
        await ann.send(type="watch", table="t9")
        after = await ann.next("table")
        assert state(after) == state(before), frame
    await assert_books_balance(server)


async def test_a_players_hand_histories_as_phh_and_pokerstars_text(server: Server) -> None:
    ann, bob = await ann_and_bob_seated(server, "t5", (1, 4))

    async def bob_folds() -> None:  # bob folds at every turn; ann checks or calls
        last = 0
        while last < 6:
            frame = await bob.next("table", 30)
            hand = frame.get("hand")
            if hand is None:
                continue
            last = max(last, hand["number"])
            if hand["actor"] == 4 and hand["legal"] is not None:
                await bob.send(type="act", table="t5", action="fold", hand=hand["number"])

    await asyncio.gather(play_along(ann, "t5", 6), bob_folds())
    headers = {"Authorization": f"Bearer {ann.token}"}
    async with httpx.AsyncClient(base_url=server.base, headers=headers) as http:
        hands = (await http.get("/api/hands", params={"table": "t5"})).json()
        assert len(hands) >= 3 and all(h["table"] == "t5" for h in hands)
        hand_id = hands[-1]["id"]
        text = (await http.get(f"/api/hands/{hand_id}.txt")).text
        phh = (await http.get(f"/api/hands/{hand_id}.phh")).text
        session = (await http.get("/api/sessions/t5.phhs")).text
        other = await http.get(
            f"/api/hands/{hand_id}.txt", headers={"Authorization": f"Bearer {bob.token}"}
        )
        missing = await http.get("/api/hands/999999.txt")
    assert text.startswith(f"PokerStars Hand #{hand_id}: Hold'em No Limit ($1/$2 USD)")
    assert "Dealt to ann [" in text and "*** SUMMARY ***" in text
    assert "d dh p" in phh and "[1]" in session
    assert other.status_code == 200 and "Dealt to bob [" in other.text  # bob sees his own
    assert missing.status_code == 404
    # Bob folded without a showdown: his cards are not in ann's history, but are in the record.
    db = Database(server.database)
    try:
        async with db.transaction() as session_:
            from pokerroom.store.models import HandRecord

            record = await session_.get(HandRecord, hand_id)
            stored = record.record
    finally:
        await db.close()
    from pokerroom.history.phh import load_text, write_phh
    from pokerroom.history.record import read_record

    full = write_phh(read_record(stored))  # the room's own record: every card

    fields = load_text(full)[0].fields
    bob_position = fields["seats"].index(4) + 1
    bob_cards = next(
        a.split()[3] for a in fields["actions"] if a.startswith(f"d dh p{bob_position} ")
    )
    assert f"p{bob_position} f" in fields["actions"]
    assert not any(a.startswith(f"p{bob_position} sm") for a in fields["actions"])
    pair = f"[{bob_cards[:2]} {bob_cards[2:]}]"
    assert f"d dh p{bob_position} ????" in phh and bob_cards not in phh
    assert pair not in text
    await assert_books_balance(server)


async def test_chat_is_escaped_stored_and_rate_limited(server: Server) -> None:
    await server.room.open_table(table_config("t6"))
    ann = await person(server.base, "ann")
    await ann.send(type="watch", table="t6")
    await ann.next("table")
    await ann.send(type="chat", table="t6", text="<script>alert(1)</script> gg")
    line = await ann.next("chat")
    assert line["text"] == "&lt;script&gt;alert(1)&lt;/script&gt; gg" and line["from"] == "ann"
    for _ in range(5):
        await ann.send(type="chat", table="t6", text="spam")
    error = await ann.next("error")
    assert "too many chat messages" in error["message"]
    # Lines are stored beside the broadcast, each in its own write: wait for the five.
    db = Database(server.database)
    try:
        for _ in range(100):  # bounded: the writes land within moments
            async with db.transaction() as session:
                from sqlalchemy import select

                from pokerroom.store.models import ChatMessage

                stored = (await session.scalars(select(ChatMessage.text))).all()
            if len(stored) >= 5:
                break
            await asyncio.sleep(0.1)
    finally:
        await db.close()
    assert stored[0] == "&lt;script&gt;alert(1)&lt;/script&gt; gg" and len(stored) == 5
