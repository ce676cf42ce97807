"""Every refusal has its own catalogued code (server/sockets/errors.py), never ``error.unknown``:
over real sockets, a player with no seat at a running tournament's table acts, chats and
joins there, and the floor tries to void it and opens a table twice; each is refused with
its code and nothing changes; the audit reconciles (S-AUDIT-2)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.helpers.accounts import operator_headers, signup
from tests.helpers.audit import assert_books_balance
from tests.server.conftest import PASSWORD_SECONDS, Person, Server, person


async def refusal(someone: Person, request: str) -> dict[str, Any]:
    """The next error frame answering ``request``."""
    while True:
        frame = await someone.next("error", 30)
        if frame.get("request") == request:
            return frame


async def test_refusals_at_a_tournament_table_without_a_seat_each_have_their_code(
    server: Server,
) -> None:
    runner = await server.app.state.tournaments.create("sng_heads_up")
    async with httpx.AsyncClient(base_url=server.base, timeout=PASSWORD_SECONDS) as http:
        for name in ("ann_mtt", "bob_mtt"):  # full: the heads-up starts
            who = await signup(server.base, name)
            registered = await http.post(
                f"/api/tournaments/{runner.id}/register",
                json={"request": f"r-{name}"},
                headers={"Authorization": f"Bearer {who['token']}"},
            )
            assert registered.status_code == 200, registered.text
    table = f"{runner.id}-1"
    carl = await person(server.base, "carl")
    await carl.send(type="watch", table=table)
    frame = await carl.until(lambda f: f["table"] == table)
    assert frame["you"] is None  # a spectator: no seat here

    await carl.send(type="act", table=table, action="fold", hand=1)
    acted = await refusal(carl, "act")
    assert acted["code"] == "seat.no_seat_here" and acted["params"] == {"table": table}
    await carl.send(type="chat", table=table, text="hello")
    assert (await refusal(carl, "chat"))["code"] == "seat.no_seat_here"
    await carl.send(type="join", table=table, seat=1, buy_in=10_000, request="c1")
    joined = await refusal(carl, "join")
    assert joined["code"] == "tournament.table_seats" and joined["params"] == {"table": table}

    headers = await operator_headers(server)
    async with httpx.AsyncClient(base_url=server.base, timeout=PASSWORD_SECONDS) as http:
        voided = await http.post(
            f"/api/floor/tables/{table}/void", json={"reason": "test"}, headers=headers
        )
        opened = [
            await http.post(
                "/api/floor/tables", json={"id": "twice", "name": "Twice"}, headers=headers
            )
            for _ in range(2)
        ]
    assert voided.status_code == 409, voided.text
    assert voided.json()["code"] == "tournament.table_floor"
    assert opened[0].status_code == 200 and opened[1].status_code == 409, opened[1].text
    assert opened[1].json()["code"] == "table.already_open"
    await assert_books_balance(server)
