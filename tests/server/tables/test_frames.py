"""What a seated player's frame carries so that the browser computes no rule: the
½ Pot and Pot "raise to" amounts, the all-in amount and the add-chips range, over real
sockets, with the numbers the rules give."""

from __future__ import annotations

from typing import Any

from websockets.asyncio.client import connect

from pokerroom.server.tables.room import TableConfig
from tests.helpers.audit import assert_books_balance
from tests.server.conftest import Person, Server, person

BUY_IN = 10_000


async def first_decision(server: Server, structure: str) -> tuple[dict[str, Any], Person]:
    """Two players sit heads-up at a $1/$2 table; the first frame that asks one of them to
    act preflop, and that player."""
    await server.room.open_table(TableConfig("t", "T", "titan", "holdem", structure, 200, 6))
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    for seat, someone in ((1, ann), (2, bob)):
        await someone.send(type="watch", table="t")
        await someone.send(type="join", table="t", seat=seat, buy_in=BUY_IN, request=f"j{seat}")
        await someone.until(lambda f, seat=seat: f["you"] == seat)
    frame = await ann.until(lambda f: f["hand"] is not None and f["hand"]["actor"] is not None)
    if frame["hand"]["actor"] != 1:
        frame = await bob.until(lambda f: f["hand"] is not None and f["hand"]["legal"])
        return frame, bob
    assert frame["hand"]["legal"], frame
    return frame, ann


async def finish(server: Server, actor: Person, frame: dict[str, Any]) -> None:
    await actor.send(type="act", table="t", action="fold", hand=frame["hand"]["number"])
    await actor.next("hand_result")
    await assert_books_balance(server)  # S-AUDIT-2


async def test_R_PL_2_no_limit_frame_carries_half_pot_and_pot_raise_to(server: Server) -> None:
    frame, actor = await first_decision(server, "no_limit")
    legal = frame["hand"]["legal"]
    # Heads-up preflop, the button's small blind of $1 faces the $2 big blind: the pot is $3,
    # $4 after the call, so a pot raise goes to $2 + $4 = $6 and half a pot to $2 + $2 = $4.
    assert (legal["current_bet"], legal["pot"], legal["call"]) == (200, 300, 100)
    assert legal["pot_raise_to"] == 600
    assert legal["half_pot_raise_to"] == 400
    assert legal["min_raise_to"] == 400
    # The small blind has $1 in and $99 behind: all-in is "raise to" $100, the maximum.
    assert legal["all_in_to"] == BUY_IN == legal["max_raise_to"]
    await finish(server, actor, frame)


async def test_R_PL_2_pot_limit_pot_raise_to_is_the_engines_maximum(server: Server) -> None:
    frame, actor = await first_decision(server, "pot_limit")
    legal = frame["hand"]["legal"]
    assert legal["max_raise_to"] == 600  # R-PL-2: call $1, then raise the $4 pot
    assert legal["pot_raise_to"] == 600
    assert legal["half_pot_raise_to"] == 400
    assert legal["all_in_to"] == BUY_IN  # more than the pot allows: not offered as all-in
    await finish(server, actor, frame)


async def test_R_STAKE_1_a_seated_frame_carries_the_add_chips_range(server: Server) -> None:
    frame, actor = await first_decision(server, "no_limit")
    low, high = frame["min_buy_in"], frame["max_buy_in"]
    assert frame["buy_in"] == {"min": max(1, low - BUY_IN), "max": high - BUY_IN}
    assert frame["buy_in"]["max"] > 0  # a $100 stack may top up at this table
    # A spectator is seated nowhere and gets no range of their own.
    cat = await person(server.base, "cat")
    await cat.send(type="watch", table="t")
    watched = await cat.next("table")
    assert "buy_in" not in watched or watched["buy_in"] is None
    await finish(server, actor, frame)


async def test_hello_names_the_tables_where_the_account_sits(server: Server) -> None:
    """After a reload or a log-in the client reopens the player's tables at once,
    told where the account sits in the answer to its hello; someone seated nowhere is told
    of no table."""
    frame, actor = await first_decision(server, "no_limit")  # ann and bob sit at "t"
    ws = await connect(server.base.replace("http", "ws", 1) + "/ws")
    try:
        again = Person(name=actor.name, token=actor.token, account_id=actor.account_id, ws=ws)
        await again.next("welcome")
        await again.send(type="hello", token=actor.token)
        assert (await again.next("hello"))["seated"] == ["t"]
    finally:
        await ws.close()
    cat = await person(server.base, "cat")
    assert cat.frames[-1]["type"] == "hello" and cat.frames[-1]["seated"] == []
    await finish(server, actor, frame)
