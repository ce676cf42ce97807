"""R-FLOOR-1: the floor voids a hand (R-DECK-5), corrects a result by a compensating ledger
entry, closes a table and suspends an account -- each act recorded with who, when and why."""

from __future__ import annotations

import asyncio
import logging

import httpx
import pytest

from pokerroom.store.audit import audit
from pokerroom.store.db import Database
from tests.helpers.accounts import operator_headers
from tests.helpers.audit import assert_books_balance
from tests.helpers.room_tables import ann_and_bob_seated, play_along
from tests.server.conftest import Server


async def test_R_FLOOR_1_void_correct_close_suspend_all_recorded_and_logged(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="pokerroom.floor")
    ann, bob = await ann_and_bob_seated(server, "f1", (1, 2))
    await asyncio.gather(play_along(ann, "f1", 3), play_along(bob, "f1", 3))
    floor = await operator_headers(server)
    async with httpx.AsyncClient(base_url=server.base, headers=floor) as http:
        refused = await http.get(
            "/api/floor/tables", headers={"Authorization": f"Bearer {ann.token}"}
        )
        assert refused.status_code == 403
        tables = (await http.get("/api/floor/tables")).json()
        assert tables[0]["id"] == "f1"
        # Void whatever hand is in progress now (the table deals continuously).
        for _ in range(1500):  # bounded (30 s): the next hand starts within moments
            live = (await http.get("/api/floor/tables")).json()[0]
            if live["hand"] is not None:
                void = await http.post("/api/floor/tables/f1/void", json={"reason": "a misdeal"})
                if void.status_code == 200:
                    break
            await asyncio.sleep(0.02)
        assert void.status_code == 200
        hands = (
            await http.get("/api/hands", headers={"Authorization": f"Bearer {ann.token}"})
        ).json()
        finished = next(h for h in hands if h["status"] == "complete")
        ann_headers = {"Authorization": f"Bearer {ann.token}"}
        # Ann's chips at the table are not in her balance: it moves only by the correction.
        before = (await http.get("/api/me", headers=ann_headers)).json()["balance"]
        fix = await http.post(
            f"/api/floor/hands/{finished['id']}/correct",
            json={"account_id": ann.account_id, "amount": 250, "reason": "wrong board read"},
        )
        assert fix.status_code == 200
        after = (await http.get("/api/me", headers=ann_headers)).json()["balance"]
        assert after == before + 250
        no_reason = await http.post("/api/floor/tables/f1/close", json={"reason": ""})
        assert no_reason.status_code == 422
        closed = await http.post("/api/floor/tables/f1/close", json={"reason": "end of the night"})
        assert closed.status_code == 200 and closed.json()["closed"]
        suspended = await http.post(
            f"/api/floor/accounts/{bob.account_id}/suspend", json={"reason": "collusion"}
        )
        assert suspended.status_code == 200
        bob_me = await http.get("/api/me", headers={"Authorization": f"Bearer {bob.token}"})
        assert bob_me.status_code == 401  # sessions revoked
        acts = (await http.get("/api/floor/acts")).json()
        me = (await http.get("/api/me", headers={"Authorization": f"Bearer {ann.token}"})).json()
    assert [a["act"] for a in acts] == [
        "void_hand",
        "correct_hand",
        "close_table",
        "suspend_account",
    ]
    assert all(a["reason"] and a["operator"] and a["at"] for a in acts)
    logged = [r.getMessage() for r in caplog.records if r.name == "pokerroom.floor"]
    assert [line.split()[2] for line in logged] == [a["act"] for a in acts]  # "floor act X"
    assert logged[0].endswith(f"on table f1 by operator {acts[0]['operator']}: a misdeal")
    assert not server.room.actors["f1"].table.seats  # everyone was cashed out
    # Ann got her stack back at the close and the correction on top; the books balance.
    db = Database(server.database)
    try:
        async with db.transaction() as session:
            report = await audit(session)
    finally:
        await db.close()
    assert report.ok and report.floor_acts == 4
    assert me["balance"] > after  # and her stack came back at the close
    await assert_books_balance(server)
