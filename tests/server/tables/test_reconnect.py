"""R-TIME-3 after a page reload: the browser's new socket says hello and ``watch``es its
table; a seated player who watches their own table is reconnected, and the others see it."""

from __future__ import annotations

from pokerroom.server.tables.room import TableConfig
from tests.helpers.accounts import reload_page
from tests.helpers.audit import assert_books_balance
from tests.server.conftest import Server, person

DECISION = 15  # seconds; with no time bank, more than this left means the extra was given
SLOW = (("decision_seconds", DECISION), ("warning_after_seconds", 10), ("time_bank_seconds", 0))


async def test_R_TIME_3_a_seated_player_who_watches_their_table_again_is_reconnected(
    server: Server,
) -> None:
    await server.room.open_table(
        TableConfig("r1", "Reload", "titan", "holdem", "no_limit", 200, 2, SLOW)
    )
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    for someone, seat in ((ann, 1), (bob, 2)):
        await someone.send(type="watch", table="r1")
        await someone.send(type="join", table="r1", seat=seat, buy_in=10_000, request="r1")
    frame = await bob.until(lambda f: f.get("hand") is not None and f["hand"]["actor"] is not None)
    number = frame["hand"]["number"]
    # The player to act reloads the page mid-hand: their socket closes...
    leaver, watcher = (ann, bob) if frame["hand"]["actor"] == 1 else (bob, ann)
    seat = frame["hand"]["actor"]
    await leaver.ws.close()
    gone = await watcher.until(lambda f: f["seats"][seat - 1]["connected"] is False)
    assert gone["hand"]["number"] == number and gone["hand"]["actor"] == seat
    # ... and the new page says hello and watches: connected again, with the 20 s (R-TIME-3).
    back = await reload_page(server, leaver, "r1")
    seen = await watcher.until(lambda f: f["seats"][seat - 1]["connected"] is True)
    assert seen["hand"]["number"] == number and seen["hand"]["actor"] == seat
    mine = await back.until(lambda f: f.get("you") == seat and f["hand"] is not None)
    assert mine["seats"][seat - 1]["connected"] is True
    assert mine["hand"]["seconds_left"] > DECISION  # the further 20 s were given
    assert mine["hand"]["legal"] is not None  # and the seat may act from the new page
    await back.send(type="act", table="r1", action="fold", hand=number)
    await watcher.until(lambda f: f["hand"] is None or f["hand"]["number"] > number)
    await assert_books_balance(server)
