"""DESIGN 8 and R-DECK-5 at the end of a hand: the hand's result, rake, the table after it and
the cash-outs of those who stand up as it ends commit in one transaction, all or nothing; a
hand end the store refuses cancels the hand (every chip back) in a fresh transaction, and if
that is refused too the table waits and tries again."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select

from pokerroom.server.tables.room import TableConfig
from pokerroom.store.models import HandPlayer, HandRecord, Sitting, Transfer
from pokerroom.store.money import ledger
from pokerroom.store.tables.hands import cancel_hand_sync, finish_hand_sync
from tests.helpers.audit import assert_books_balance
from tests.helpers.database import rows
from tests.helpers.room_tables import cancelled_result, first_turn, heads_up
from tests.helpers.store_faults import CLOCK, DbWith, StoreDownError
from tests.helpers.waiting import eventually
from tests.server.conftest import Person, Server, person


def failing_run(server: Server, table: str, fails: Callable[[Any], bool]) -> list[str]:
    """Make the table's one-step transactions whose work ``fails(work)`` raise; the names of
    the refused works are listed in the answer."""
    actor = server.room.actors[table]
    refused: list[str] = []

    def failing(real: Any) -> Any:
        async def run(work: Any) -> Any:
            if fails(work):
                refused.append(work.func.__name__)
                raise StoreDownError("the database is gone")
            return await real(work)

        return run

    actor.db = DbWith(actor.db, failing(actor.db.run), failing(actor.db.grouped))
    return refused


async def hand_record(server: Server, table: str, number: int) -> HandRecord:
    found = await rows(
        server,
        select(HandRecord).where(HandRecord.table_id == table, HandRecord.number == number),
    )
    assert len(found) == 1, found
    return found[0]


async def first_hand(server: Server, table: str) -> tuple[Person, Person, dict[str, Any]]:
    """Ann (and Bob) heads-up at a new ``table``; who acts first in its first hand; the frame."""
    ann, bob = await heads_up(server, table, CLOCK)
    to_act, frame, _ = await first_turn(ann, bob)
    return ann, to_act, frame


async def test_DESIGN_8_a_leavers_cash_out_commits_with_the_hand_that_ends(
    server: Server,
) -> None:
    _, leaver, frame = await first_hand(server, "end1")
    number = frame["hand"]["number"]
    await leaver.send(type="leave", table="end1")  # folded at once: the hand ends, they stand
    result = await leaver.next("hand_result")
    assert result["hand"] == number and not result["cancelled"]
    record = await hand_record(server, "end1", number)
    assert record.status == "complete"
    sitting = (await rows(server, select(Sitting).where(Sitting.account_id == leaver.account_id)))[
        0
    ]
    cash_out = await rows(
        server,
        select(Transfer).where(Transfer.kind == "cash_out", Transfer.sitting_id == sitting.id),
    )
    assert len(cash_out) == 1
    # One transaction, one moment: the hand's end, the sitting's end and the cash-out.
    assert record.ended_at == sitting.ended_at == cash_out[0].created_at
    assert server.room.actors["end1"].table.seat_number(str(leaver.account_id)) is None
    await assert_books_balance(server)


async def test_DESIGN_8_a_failed_cash_out_stores_nothing_of_the_hand_end(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The leaver's cash-out fails inside the hand's transaction: neither the hand's result
    nor the table without the leaver is stored, and the hand is cancelled (R-DECK-5)."""
    _, leaver, frame = await first_hand(server, "end2")
    number = frame["hand"]["number"]

    move_chips = ledger.move_chips_sync

    def cash_out_fails(session: Any, move: ledger.TableMove, *args: Any, **kwargs: Any) -> Any:
        if move is ledger.TableMove.CASH_OUT:
            raise StoreDownError("the cash-out could not be written")
        return move_chips(session, move, *args, **kwargs)

    monkeypatch.setattr(ledger, "move_chips_sync", cash_out_fails)
    await leaver.send(type="leave", table="end2")
    result = await cancelled_result(leaver, number)
    assert result["cancelled"]
    monkeypatch.undo()
    record = await hand_record(server, "end2", number)
    assert record.status == "cancelled"
    assert await rows(server, select(HandPlayer).where(HandPlayer.hand_id == record.id)) == []
    assert await rows(server, select(Transfer).where(Transfer.kind.in_(["cash_out", "rake"]))) == []
    table = server.room.actors["end2"].table
    assert sorted(s.stack for s in table.seats.values()) == [10_000, 10_000]  # chips back
    await assert_books_balance(server)


async def test_R_DECK_5_a_hand_end_the_store_refuses_cancels_the_hand(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    ann, to_act, frame = await first_hand(server, "end3")
    number, button = frame["hand"]["number"], frame["hand"]["button"]
    refused = failing_run(server, "end3", lambda work: work.func is finish_hand_sync)
    with caplog.at_level(logging.ERROR, logger="pokerroom.table"):
        await to_act.send(type="act", table="end3", action="fold", hand=number)
        result = await cancelled_result(to_act, number)
    assert result["cancelled"] and refused == ["finish_hand_sync"]
    assert any("StoreDownError" in r.getMessage() or r.exc_info for r in caplog.records)
    actor = server.room.actors["end3"]
    assert actor.faults == 1 and actor.recovery.pending is None
    assert (await hand_record(server, "end3", number)).status == "cancelled"
    sample = server.room.metrics.registry.get_sample_value  # what the operators' alerts read
    assert sample("pokerroom_table_faults_total") == 1
    assert sample("pokerroom_hands_total", {"outcome": "cancelled"}) == 1
    assert sample("pokerroom_hands_total", {"outcome": "complete"}) == 0
    # The table is as before the hand: the next one has the same button and both stacks.
    again = await ann.until(
        lambda f: f.get("hand") is not None and f["hand"]["number"] == number + 1
    )
    assert again["hand"]["button"] == button
    assert sum(s["stack"] + s["bet"] for s in again["seats"] if not s["empty"]) == 20_000
    await assert_books_balance(server)


async def test_R_DECK_5_when_the_cancel_is_refused_too_the_table_waits_and_retries(
    server: Server,
) -> None:
    ann, to_act, frame = await first_hand(server, "end4")
    number = frame["hand"]["number"]
    actor = server.room.actors["end4"]
    actor.recovery.retry_seconds = 0.5
    down = {"cancels": 3}

    def fails(work: Any) -> bool:
        if work.func is finish_hand_sync:
            return True
        if work.func is cancel_hand_sync and down["cancels"] > 0:
            down["cancels"] -= 1
            return True
        return False

    refused = failing_run(server, "end4", fails)
    # Carol signs up first: the table waits only 3.5 s in all (0.5 + 1 + 2) before the third
    # retry is stored, and a sign-up (its password hashed) on a busy machine could outlast
    # that, her join then finding the table dealing again.
    carol = await person(server.base, "carol")
    await to_act.send(type="act", table="end4", action="fold", hand=number)
    await eventually(lambda: refused.count("cancel_hand_sync") >= 1, "the first cancel refused")
    # Waiting, dealing nothing.
    assert actor.recovery.pending is not None and actor.table.hand is None
    await carol.send(type="join", table="end4", seat=2, buy_in=10_000, request="c1")
    refusal = await carol.next("error")
    assert "recovering" in refusal["message"]
    result = await cancelled_result(to_act, number)  # the third retry is stored
    assert result["cancelled"]
    assert refused == ["finish_hand_sync"] + ["cancel_hand_sync"] * 3
    assert actor.recovery.pending is None and actor.faults == 4
    assert (await hand_record(server, "end4", number)).status == "cancelled"
    again = await ann.until(
        lambda f: f.get("hand") is not None and f["hand"]["number"] == number + 1
    )
    assert again["hand"]["number"] == number + 1  # dealing again once the store took it
    await assert_books_balance(server)


async def test_DESIGN_8_a_hand_end_being_written_when_the_room_stops_is_stored(
    server: Server,
) -> None:
    """Shutdown drains the writes: the room stops while a hand's end is on its way to the
    database (the table shows the end, its write not yet committed). The write lands
    before the database closes, so the hand is stored complete and the books balance."""
    _, to_act, frame = await first_hand(server, "end5")
    number = frame["hand"]["number"]
    actor = server.room.actors["end5"]
    entered, release = asyncio.Event(), asyncio.Event()
    grouped = actor.db.grouped

    async def held(work: Any) -> Any:
        if work.func is finish_hand_sync:
            entered.set()
            await release.wait()  # the write is slow: the room stops meanwhile
        return await grouped(work)

    actor.db = DbWith(actor.db, actor.db.run, held)
    await to_act.send(type="act", table="end5", action="fold", hand=number)
    await asyncio.wait_for(entered.wait(), 15)
    assert actor.hand_ends.ending is not None  # shown, not yet stored
    stopping = asyncio.create_task(server.room.stop())
    await asyncio.sleep(0.05)
    assert not stopping.done()  # the room waits for the hand's write
    release.set()
    await asyncio.wait_for(stopping, 15)
    assert (await hand_record(server, "end5", number)).status == "complete"
    await assert_books_balance(server)


async def test_S_AUDIT_2_a_hand_all_in_on_the_blinds_is_stored_with_its_rake(
    server: Server,
) -> None:
    """The audit's "5 in the ledger with no seat": a hand whose players are all
    in on their blinds has nobody to act and is over as it is dealt. It was played in memory
    (the rake taken from the stacks) but never recorded: no hand, no rake transfer, and the
    next snapshot stored the stacks without the rake the ledger still held."""
    overrides = (*CLOCK, ("min_buy_in_bb", 1))
    await server.room.open_table(
        TableConfig("end9", "end9", "titan", "holdem", "no_limit", 200, 2, overrides)
    )
    ann, bob = await person(server.base, "ann"), await person(server.base, "bob")
    for someone, seat in ((ann, 1), (bob, 2)):  # one big blind each
        await someone.send(type="watch", table="end9")
        await someone.send(type="join", table="end9", seat=seat, buy_in=200, request="r1")
    # The small blind acts first heads-up and folds: it keeps 100, and in the next hand it
    # is the big blind, all in for 100 against a small blind of 100: nobody is to act.
    to_act, frame, _ = await first_turn(ann, bob)
    number = frame["hand"]["number"]
    await to_act.send(type="act", table="end9", hand=number, action="fold")
    actor = server.room.actors["end9"]
    await eventually(
        lambda: actor.table.hand_number > number and actor.table.hand is None,
        "the next hand over as it is dealt",
    )
    await eventually(lambda: actor.hand_ends.ending is None, "its end stored")
    # The winner stands up: their cash-out stores the table as it is now.
    winner = ann if actor.table.seats[1].stack else bob
    await winner.send(type="leave", table="end9")
    await eventually(
        lambda: actor.table.seat_number(str(winner.account_id)) is None, "the winner stood up"
    )
    await assert_books_balance(server)  # before: "10 in the ledger with no seat"
    record = await hand_record(server, "end9", number + 1)
    assert record.status == "complete" and record.rake > 0


async def test_S_AUDIT_2_a_hand_end_stored_though_its_write_reported_a_failure_stays_stored(
    server: Server,
) -> None:
    """A hand's end committed, but its caller saw an error (the connection lost during the
    COMMIT; group commit then runs the unit again, and it finds the hand no longer running).
    The table must go back to what the store really holds (the hand settled, the leaver
    cashed out), not to the snapshot from before the hand: else the seats and the ledger
    part by the cash-out and the rake."""
    _, leaver, frame = await first_hand(server, "end10")
    actor = server.room.actors["end10"]
    grouped = actor.db.grouped

    async def committed_then_lost(work: Any) -> Any:
        result = await grouped(work)
        if getattr(work, "func", None) is finish_hand_sync:
            raise StoreDownError("the connection was lost during the COMMIT")
        return result

    actor.db = DbWith(actor.db, actor.db.run, committed_then_lost)
    await leaver.send(type="leave", table="end10")  # folded: the hand ends, they stand
    await eventually(
        lambda: actor.faults > 0 and actor.recovery.pending is None, "the table recovered"
    )
    record = await hand_record(server, "end10", frame["hand"]["number"])
    assert record.status == "complete"
    await assert_books_balance(server)
    assert actor.table.seat_number(str(leaver.account_id)) is None
