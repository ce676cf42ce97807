"""A unit of work run again after it committed (group commit runs a failed batch's units
again one by one, and a COMMIT that reported an error may have gone through): the second
run changes nothing more (S-MONEY-1, S-AUDIT-2). On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

import pytest

from pokerroom.store.audit import audit
from pokerroom.store.db import Database
from pokerroom.store.money.ledger import balance
from pokerroom.store.tables.hands import begin_hand_sync, cancel_hand_sync, finish_hand_sync
from tests.helpers.writer import tables_with_hands_over

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


async def test_S_MONEY_1_a_cancel_run_again_pays_its_leaver_once(database: Database) -> None:
    """A fault's cancel stands ann up and pays her; its batch committed but reported an
    error, so group commit runs it again: her sitting has ended, and the second run must
    find her cash-out done, not pay her again (without a key) from bob's chips."""
    (one,) = await tables_with_hands_over(database, count=1)  # a hand running in the store
    table, started = one.table, one.fields["started"]
    ann = int(table.seats[1].player)
    table.leave(str(ann), 2.0)  # stands up: the cancel pays her what is not bob's
    bob_stack = table.chips_on_table()
    stack = 20_000 - bob_stack  # (the hand cancelled: no rake, all the buy-ins there)
    cancel = partial(
        cancel_hand_sync,
        hand_id=started.hand_id,
        table_id=one.table_id,
        reason="server fault",
        snapshot=table.to_json(),
        now=NOW,
        leavers=[(ann, stack)],
    )
    for _ in range(2):
        await database.run(cancel)
    async with database.transaction() as session:
        assert await balance(session, "table", one.table_id) == bob_stack  # his, still there
        report = await audit(session)
    assert report.ok, report.problems


async def test_S_AUDIT_2_a_hand_start_run_again_is_the_same_hand(database: Database) -> None:
    (one,) = await tables_with_hands_over(database, count=1)
    begin = partial(
        begin_hand_sync, table_id=one.table_id, number=2, deck=list(range(52)), snapshot_before=None
    )
    first = await database.run(partial(begin, now=NOW, salt=b"s" * 16))
    again = await database.run(partial(begin, now=NOW, salt=b"s" * 16))
    assert again == first
    with pytest.raises(ValueError, match="hand 2 of table 'g0' is recorded"):
        await database.run(partial(begin, now=NOW, salt=b"t" * 16))  # another deal


async def test_S_AUDIT_2_a_hand_end_run_again_is_stored_once(database: Database) -> None:
    """Its batch committed but reported an error: the end run again is found stored (the
    same record), not refused as a hand no longer running (a fault of the table)."""
    (one,) = await tables_with_hands_over(database, count=1)
    end = partial(finish_hand_sync, **one.fields)
    await database.run(end)
    await database.run(end)
    other = {**one.fields, "record": "{}"}  # another end of the same hand: refused
    with pytest.raises(ValueError, match="is not running"):
        await database.run(partial(finish_hand_sync, **other))
    async with database.transaction() as session:
        report = await audit(session)
    assert report.ok, report.problems
