"""R-DECK-5 with R-TIME-*: a hand the floor voids gives back the time bank its players used in
it, over the real server (the table's task, the floor's REST call, the players' frames)."""

from __future__ import annotations

import httpx

from tests.helpers.accounts import operator_headers
from tests.helpers.audit import assert_books_balance
from tests.helpers.room_tables import first_turn
from tests.helpers.room_tables import heads_up as seat_two
from tests.server.conftest import Server

BANK = 30
CLOCK = (("decision_seconds", 1), ("warning_after_seconds", 0), ("time_bank_seconds", BANK))


async def test_R_DECK_5_a_voided_hand_gives_back_the_time_bank_used_in_it(server: Server) -> None:
    ann, bob = await seat_two(server, "tb", CLOCK)
    floor = await operator_headers(server)
    mover, frame, _ = await first_turn(ann, bob)
    seat, number = frame["you"], frame["hand"]["number"]

    def bank(f: dict[str, object]) -> float:
        seats = f["seats"]
        assert isinstance(seats, list)
        return float(next(s["time_bank"] for s in seats if s["seat"] == seat))

    assert bank(frame) == BANK
    # The player lets the decision time run out: the table spends their time bank.
    spent = await mover.until(lambda f: f["hand"] is not None and bank(f) == 0, timeout=15)
    assert spent["hand"]["number"] == number and spent["hand"]["actor"] == seat
    async with httpx.AsyncClient(base_url=server.base, headers=floor) as http:
        void = await http.post("/api/floor/tables/tb/void", json={"reason": "a misdeal"})
    assert void.status_code == 200, void.text
    assert void.json()["voided"] == number
    back = await mover.until(lambda f: f["hand"] is None or f["hand"]["number"] != number)
    assert bank(back) == BANK  # the hand never happened: nor did the time it took
    assert server.room.actors["tb"].table.seats[seat].time_bank == BANK
    await assert_books_balance(server)
