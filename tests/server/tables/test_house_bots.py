"""The house's bots keep a demo table dealing: enough bots to deal, seats left for
people (a bot stands up for a person on the waiting list; heads-up keeps one to play them,
and a second sits again when the person leaves), a bot removed from the table comes back after
a back-off, and a bot whose balance cannot pay a buy-in is topped up from the bank through
the ledger, with the audit reconciling after it (S-AUDIT-2)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from pokerroom.bots.house import BACKOFF_MAX, HouseBots, backoff, bots_wanted
from pokerroom.store.models import Transfer
from pokerroom.store.money.ledger import LedgerError
from tests.helpers.audit import assert_books_balance
from tests.helpers.database import rows
from tests.helpers.room_tables import table_config
from tests.helpers.waiting import eventually
from tests.helpers.waiting_list import drain, waiting
from tests.server.conftest import Server, person


def test_bots_wanted_deal_and_leave_seats_for_people() -> None:
    heads_up = {"plan": 2, "seats": 2, "needed": 2}
    assert bots_wanted(**heads_up, people=0, waiting=0) == 2  # deals with nobody there
    assert bots_wanted(**heads_up, people=0, waiting=1) == 1  # one stands up for a person
    assert bots_wanted(**heads_up, people=1, waiting=0) == 1  # and one stays to play them
    assert bots_wanted(**heads_up, people=2, waiting=0) == 0
    six = {"plan": 3, "seats": 6, "needed": 2}
    assert bots_wanted(**six, people=0, waiting=0) == 3  # three seats free for people
    assert bots_wanted(**six, people=3, waiting=1) == 2
    casino = {"plan": 3, "seats": 10, "needed": 4}
    assert bots_wanted(**casino, people=0, waiting=0) == 4  # R-SEAT-1: never fewer than four
    assert bots_wanted(**casino, people=2, waiting=0) == 3


def test_a_bot_that_keeps_ending_waits_longer_each_time() -> None:
    waits = [backoff(n) for n in range(1, 10)]
    assert waits[0] > 0 and all(a <= b for a, b in itertools.pairwise(waits))
    assert waits[-1] == BACKOFF_MAX and backoff(0) == 0


async def test_heads_up_keeps_dealing_gives_a_seat_to_a_person_and_tops_up(
    server: Server,
) -> None:
    room = server.room
    await room.open_table(table_config("hu", seats=2))
    tokens = server.app.state.auth.bot_token
    await tokens("bot_hu_0")  # the first bot already exists, with 10 chips left
    first = await room.store.find_account("bot_hu_0")
    await drain(server, first.id, 10)
    house = HouseBots(room, server.base, {"hu": 2}, tokens, tend_seconds=0.05)
    running = asyncio.create_task(house.run())
    table = lambda: room.actors["hu"].table  # noqa: E731
    bots = lambda: sum(1 for s in table().seats.values() if s.player in house.accounts)  # noqa: E731
    try:
        await eventually(lambda: bots() == 2 and table().hand_number >= 2, "two bots dealing")
        assert house.top_ups == 1  # 10 chips cannot pay a buy-in: topped up from the bank
        top_ups = await rows(server, select(Transfer).where(Transfer.kind == "top_up"))
        assert len(top_ups) == 1
        with pytest.raises(LedgerError, match="would stay below"):
            await room.store.top_up_bot(first.id, at_least=3, to=2, now=datetime.now(UTC))
        carl = await person(server.base, "carl")
        with pytest.raises(LedgerError, match="not one of the room's bots"):
            await room.store.top_up_bot(carl.account_id, at_least=10, to=20, now=datetime.now(UTC))

        await carl.send(type="waiting_list", table="hu", action="join")
        frame = await waiting(carl, "hu", position=1)
        while frame["offer"] is None:  # a bot stands up after its hand
            frame = await waiting(carl, "hu")
        await carl.send(type="watch", table="hu")
        seat = frame["offer"]["seat"]
        await carl.send(type="join", table="hu", seat=seat, buy_in=10_000, request="c1")
        await carl.until(lambda f: f.get("you") == seat)
        await eventually(lambda: bots() == 1 and table().hand is not None, "carl plays one bot")
        await carl.send(type="leave", table="hu")
        await eventually(
            lambda: bots() == 2 and table().seat_number(str(carl.account_id)) is None,
            "a second bot sits again when carl leaves",
        )

        removed = next(b for b in house.bots["hu"] if b.running)
        room.suspend(removed.account)  # the floor removes the bot: its socket closes
        await eventually(lambda: removed.failures >= 1, "the removed bot's end is seen")
        await eventually(
            lambda: (
                removed.running
                and room.actors["hu"].table.seat_number(str(removed.account)) is not None
            ),
            "the removed bot rejoins after its back-off",
        )
        hands = table().hand_number
        await eventually(lambda: table().hand_number >= hands + 2, "the table deals on")
        await carl.ws.close()
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
    await assert_books_balance(server)


async def test_a_person_with_a_bots_name_keeps_it_and_the_house_uses_another(
    server: Server,
) -> None:
    room = server.room
    await room.open_table(table_config("hu", seats=2))
    somebody = await person(server.base, "bot_hu_0")  # a person took the first bot's name
    house = HouseBots(
        room, server.base, {"hu": 2}, server.app.state.auth.bot_token, tend_seconds=0.05
    )
    running = asyncio.create_task(house.run())
    table = lambda: room.actors["hu"].table  # noqa: E731
    try:
        # Both seats taken: a bot that busts leaves and sits again, so between its hands the
        # table can hold one bot only.
        await eventually(
            lambda: table().hand_number >= 2 and len(table().seats) == 2, "two other bots deal"
        )
        names = sorted(s.name for s in table().seats.values())
        assert names == ["bot_hu_1", "bot_hu_2"]
        assert str(somebody.account_id) not in house.accounts
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
        await somebody.ws.close()
    await assert_books_balance(server)
