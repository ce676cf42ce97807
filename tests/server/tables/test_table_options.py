"""The table options over real sockets: a straddle switched on as a seat option is posted left
of the big blind and acts last pre-flop (R-STRADDLE-1); the board is run twice when every
player still in agrees, ahead by a seat option or when prompted, and once when a prompt is
left unanswered (R-RIT-1); a setting the table does not offer, or an answer with no prompt,
is refused with its own error and changes nothing. Each ends with the audit reconciling."""

from __future__ import annotations

import asyncio
from typing import Any

from pokerroom.server.tables.room import TableConfig
from tests.helpers.audit import assert_books_balance
from tests.helpers.room_tables import FAST, first_turn, heads_up
from tests.server.conftest import Person, Server, person

OPTIONS = (("straddle", True), ("run_it_twice", True))
PROMPT = (*FAST, *OPTIONS, ("runout_seconds", 30))  # time enough to answer the prompt
SHORT_PROMPT = (*FAST, *OPTIONS, ("runout_seconds", 1))  # left unanswered: no


def hand_of(frame: dict[str, Any]) -> dict[str, Any] | None:
    """A table frame's hand in progress (None: none, or not a table frame)."""
    hand: dict[str, Any] | None = frame.get("hand") if frame.get("type") == "table" else None
    return hand


async def all_in(first: Person, other: Person, table: str, frame: dict[str, Any]) -> int:
    """``first`` (to act) goes all-in pre-flop and ``other`` calls: the hand's number."""
    number: int = frame["hand"]["number"]
    legal = frame["hand"]["legal"]
    await first.send(
        type="act", table=table, action="bet_or_raise", amount=legal["all_in_to"], hand=number
    )
    await other.until(
        lambda f: (
            (hand := hand_of(f)) is not None
            and hand["number"] == number
            and hand["legal"] is not None
            and hand["legal"]["call"] > 0
        )
    )
    await other.send(type="act", table=table, action="check_or_call", hand=number)
    return number


async def result_of(someone: Person, number: int) -> dict[str, Any]:
    while True:  # bounded by ``next``'s own time-out
        result = await someone.next("hand_result", 20)
        if result["hand"] == number:
            return result


def assert_run_twice(result: dict[str, Any]) -> None:
    """Two whole boards dealt from one deck (all-in pre-flop: no card shared), each pot halved
    between them, every chip of the pot awarded."""
    board, second = result["board"], result["second_board"]
    assert len(board) == 5 and len(second) == 5, result
    assert not set(board) & set(second), result
    runs = sorted({p["run"] for p in result["pots"]})
    assert runs == [1, 2], result
    for pot in {p["pot"] for p in result["pots"]}:
        halves = [p for p in result["pots"] if p["pot"] == pot]
        first = sum(p["amount"] for p in halves if p["run"] == 1)
        second_half = sum(p["amount"] for p in halves if p["run"] == 2)
        assert 0 <= first - second_half <= 1, halves  # an odd chip goes to the first run
        for half in halves:
            assert sum(w["amount"] for w in half["winners"]) == half["amount"], half


async def test_R_RIT_1_run_twice_agreed_by_the_seat_setting(server: Server) -> None:
    ann, bob = await heads_up(server, "rit1", PROMPT)
    for someone in (ann, bob):
        await someone.send(type="options", table="rit1", run_it_twice=True)
    frame = await ann.until(lambda f: (f.get("options") or {}).get("run_it_twice") is True)
    assert frame["offers"] == {"straddle": True, "run_it_twice": True, "bomb_pot": False}
    await bob.until(lambda f: (f.get("options") or {}).get("run_it_twice") is True)
    first, mine, _ = await first_turn(ann, bob)
    number = await all_in(first, bob if first is ann else ann, "rit1", mine)
    result = await result_of(ann, number)
    assert_run_twice(result)
    assert (await result_of(bob, number)) == result  # everyone sees the same result
    for someone in (ann, bob):  # agreed ahead: nobody was asked
        assert not any((hand_of(f) or {}).get("runout_prompt") for f in someone.frames)
    await assert_books_balance(server)


async def test_R_RIT_1_run_twice_agreed_when_prompted(server: Server) -> None:
    ann, bob = await heads_up(server, "rit2", PROMPT)
    first, mine, _ = await first_turn(ann, bob)
    number = await all_in(first, bob if first is ann else ann, "rit2", mine)
    asked: list[int] = []
    errors: list[str] = []
    waiting = [ann, bob]
    for _ in range(2):  # each player still in is asked in turn
        prompted = await asyncio.wait_for(first_prompt(waiting, number), 20)
        waiting.remove(prompted)
        frame = prompted.frames[-1]
        hand = frame["hand"]
        assert hand["phase"] == "runout" and hand["actor"] == frame["you"], hand
        assert 0 < hand["seconds_left"] <= 30 and hand["legal"] is None, hand
        asked.append(frame["you"])
        other = bob if prompted is ann else ann
        if len(asked) == 1:  # the other player cannot answer for the one asked
            await other.send(type="act", table="rit2", action="run_twice", hand=number)
            errors.append((await other.next("error"))["code"])
        await prompted.send(type="act", table="rit2", action="run_twice", hand=number)
    assert sorted(asked) == [1, 2] and errors == ["hand.not_your_turn"]
    result = await result_of(ann, number)
    assert_run_twice(result)
    await assert_books_balance(server)


async def first_prompt(people: list[Person], number: int) -> Person:
    """The first of ``people`` whose table frame asks them whether to run hand ``number``
    twice."""

    async def asked(someone: Person) -> Person:
        await someone.until(
            lambda f: (
                (hand := hand_of(f)) is not None
                and hand["number"] == number
                and hand.get("runout_prompt") is True
            )
        )
        return someone

    tasks = [asyncio.create_task(asked(someone)) for someone in people]
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    return next(iter(done)).result()


async def test_R_RIT_1_a_prompt_left_unanswered_is_no(server: Server) -> None:
    ann, bob = await heads_up(server, "rit3", SHORT_PROMPT)
    await ann.send(type="options", table="rit3", run_it_twice=True)  # bob never answers
    await ann.until(lambda f: (f.get("options") or {}).get("run_it_twice") is True)
    first, mine, _ = await first_turn(ann, bob)
    number = await all_in(first, bob if first is ann else ann, "rit3", mine)
    result = await result_of(bob, number)
    assert result["second_board"] == [] and len(result["board"]) == 5, result
    assert {p["run"] for p in result["pots"]} == {0}, result
    prompts = [
        f
        for f in bob.frames
        if (hand_of(f) or {}).get("runout_prompt") and f["hand"]["number"] == number
    ]
    assert prompts and all(f["hand"]["seconds_left"] <= 1 for f in prompts)
    # ann agreed by her setting: she was never asked
    assert not any((hand_of(f) or {}).get("runout_prompt") for f in ann.frames)
    await assert_books_balance(server)


async def seated_four(server: Server, table: str, overrides: Any) -> list[Person]:
    await server.room.open_table(
        TableConfig(table, table, "titan", "holdem", "no_limit", 200, 6, overrides)
    )
    people = []
    for seat, name in enumerate(("ann", "bob", "cat", "dan"), start=1):
        someone = await person(server.base, name)
        await someone.send(type="watch", table=table)
        await someone.send(type="join", table=table, seat=seat, buy_in=10_000, request="r1")
        people.append(someone)
    return people


async def test_R_STRADDLE_1_straddle_posted_left_of_the_big_blind_acts_last_preflop(
    server: Server,
) -> None:
    people = await seated_four(server, "str1", (*FAST, ("decision_seconds", 20), *OPTIONS))
    for someone in people:
        await someone.send(type="options", table="str1", straddle=True)
    decisions: list[tuple[int, str, int, dict[str, Any]]] = []  # in the order taken
    straddled: dict[str, Any] = {}
    done = asyncio.Event()

    async def play(someone: Person) -> None:
        while not done.is_set():
            frame = await someone.next("table", 30)
            hand = hand_of(frame)
            if hand is None:
                continue
            if hand.get("straddle") and not straddled:
                straddled.update(number=hand["number"], frame=frame, **hand["straddle"])
            if straddled and hand["number"] > straddled["number"]:
                done.set()  # the straddled hand is over
            if hand["actor"] == frame["you"] and hand["legal"] is not None:
                turn = (hand["number"], hand["street"], frame["you"], hand["legal"])
                if not decisions or decisions[-1][:3] != turn[:3]:  # (a frame sent again)
                    decisions.append(turn)
                await someone.send(
                    type="act", table="str1", action="check_or_call", hand=hand["number"]
                )

    tasks = [asyncio.create_task(play(someone)) for someone in people]
    try:
        await asyncio.wait_for(done.wait(), 120)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    number, seat, amount = straddled["number"], straddled["seat"], straddled["amount"]
    hand = straddled["frame"]["hand"]
    assert amount == 400  # twice the big blind
    in_hand = sorted(s["seat"] for s in straddled["frame"]["seats"] if s.get("in_hand"))
    assert len(in_hand) >= 4
    big = hand["big_blind_seat"]
    left_of_big = next((s for s in in_hand if s > big), in_hand[0])
    assert seat == left_of_big
    seats = {s["seat"]: s for s in straddled["frame"]["seats"]}
    assert seats[seat]["last_action"] == {"action": "straddle", "amount": 400}
    preflop = [
        (who, legal) for n, street, who, legal in decisions if n == number and street == "preflop"
    ]
    first_to_act = next((s for s in in_hand if s > seat), in_hand[0])
    assert preflop[0][0] == first_to_act  # left of the straddler
    assert preflop[0][1]["call"] == 400 and preflop[0][1]["min_raise_to"] == 800
    last, option = preflop[-1]
    assert last == seat and option["can_check"] is True  # the straddler's option, last
    assert [who for who, _ in preflop].count(seat) == 1
    await assert_books_balance(server)


async def test_option_refusals_are_specific_and_change_nothing(server: Server) -> None:
    ann, bob = await heads_up(server, "plain", FAST)  # no straddle, no run it twice
    cases = [
        ({"straddle": True}, "seat.no_straddle"),
        ({"run_it_twice": True}, "seat.no_run_it_twice"),
    ]
    for sent, code in cases:
        await ann.send(type="options", table="plain", **sent)
        error = await ann.next("error")
        assert error["code"] == code and error["table"] == "plain", error
    await ann.send(type="options", table="plain", straddle=False, run_it_twice=False)
    frame = await ann.until(lambda f: f.get("options") is not None)
    assert frame["options"]["straddle"] is False and frame["options"]["run_it_twice"] is False
    assert frame["offers"] == {"straddle": False, "run_it_twice": False, "bomb_pot": False}
    first, mine, _ = await first_turn(ann, bob)
    number = mine["hand"]["number"]
    await first.send(type="act", table="plain", action="run_twice", hand=number)
    error = await first.next("error")
    assert error["code"] == "hand.no_runout", error
    await assert_books_balance(server)
