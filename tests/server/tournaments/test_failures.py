"""Tournament failures in the room: a late registration that the database refuses
charges nothing, gives no seat and says so (S-MONEY-1); a deal proposal made void by a hand's
end never holds the final table (it stalled until the next level)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sqlalchemy.exc import OperationalError

from pokerroom.server.tables.actor import CLOCK_SLACK
from pokerroom.store.accounts.accounts import STARTING_GRANT
from pokerroom.store.tournaments import statements as tournament_rows
from pokerroom.tournament.deals import Proposal
from tests.helpers.accounts import signup
from tests.helpers.audit import assert_books_balance
from tests.server.conftest import Server


async def test_S_MONEY_1_a_late_registration_the_database_refuses_charges_nothing_and_seats_no_one(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    hall = server.app.state.tournaments
    runner = await hall.create("mtt_reentry")  # no start time: the director starts it
    first = [await signup(server.base, name) for name in ("ann_lr", "bob_lr")]
    for k, who in enumerate(first):
        await runner.register(who["account_id"], who["username"], f"lr{k}")
    runner.starts_at = hall.clock()
    await runner.maybe_start()
    for actor in runner.actors.values():  # no hand meanwhile: the state is between hands
        actor.next_hand_at = float("inf")
    t = runner.t
    before = {n: sorted(s.player for s in table.seats.values()) for n, table in t.tables.items()}
    pool, issued = t.prize_pool, t.chips_issued
    cy = await signup(server.base, "cy_lr")
    real = tournament_rows.save_state_sync
    refused: list[str] = []

    def down(*args: Any, **kwargs: Any) -> None:  # the state's write, after the seat was drawn
        refused.append("save")
        raise OperationalError("UPDATE tournaments", {}, Exception("the database is gone"))

    monkeypatch.setattr(tournament_rows, "save_state_sync", down)
    async with httpx.AsyncClient(base_url=server.base) as http:
        auth = {"Authorization": f"Bearer {cy['token']}"}
        path = f"/api/tournaments/{runner.id}"
        failed = await http.post(f"{path}/register", json={"request": "late"}, headers=auth)
        assert refused == ["save"]
        assert failed.status_code == 400, failed.text
        assert "not stored" in failed.text and "try again" in failed.text
        assert failed.json()["code"] == "table.not_stored"
        # Nothing charged, no seat, no entry: the event is as it was.
        assert (await http.get("/api/me", headers=auth)).json()["balance"] == STARTING_GRANT
        assert str(cy["account_id"]) not in t.entries
        assert runner.my_table(cy["account_id"]) is None
        after = {n: sorted(s.player for s in table.seats.values()) for n, table in t.tables.items()}
        assert after == before and (t.prize_pool, t.chips_issued) == (pool, issued)
        assert len(t.entries) == 2 and t.left == 2
        view = (await http.get(path)).json()
        assert view["entrants"] == 2 and view["prize_pool"] == pool
        await assert_books_balance(server)
        # The database is back: the same request now registers her, once.
        monkeypatch.setattr(tournament_rows, "save_state_sync", real)
        done = await http.post(f"{path}/register", json={"request": "late"}, headers=auth)
        assert done.status_code == 200, done.text
        cost = t.structure.buy_in + t.structure.fee
        assert (await http.get("/api/me", headers=auth)).json()["balance"] == STARTING_GRANT - cost
        assert runner.my_table(cy["account_id"]) is not None and len(t.entries) == 3
    await assert_books_balance(server)


async def test_a_deal_made_void_by_the_last_hand_does_not_hold_the_final_table(
    server: Server,
) -> None:
    """A deal proposed in a hand whose end changed the players left is void: the table deals
    its next hand at its time, without waiting for a wake-up or the next level."""
    hall = server.app.state.tournaments
    runner = await hall.create("mtt_freezeout")  # no start time: the director starts it
    people = [await signup(server.base, name) for name in ("ann_v", "bob_v", "cy_v")]
    for k, who in enumerate(people):
        await runner.register(who["account_id"], who["username"], f"v{k}")
    runner.starts_at = hall.clock()
    await runner.maybe_start()
    actor = runner.actors[1]
    actor.next_hand_at = float("inf")  # between hands: the scheduler is looked at directly
    entries = runner.t.remaining()
    gone = (*entries[:2], "someone busted")  # proposed when a player now out was still in
    runner.proposal = Proposal("chip", 0, entries[0], gone, {entries[0]})
    actor.next_hand_at = runner.now() + 0.25
    wait = actor._next_wakeup(0.0)
    assert runner.proposal is None  # void: cleared
    assert wait is not None and wait <= 0.25 + CLOCK_SLACK  # the next hand at its time
    level_ends = runner.t.clock.next_change(runner.now())
    assert level_ends is not None and level_ends - runner.now() > 60  # what it waited for
