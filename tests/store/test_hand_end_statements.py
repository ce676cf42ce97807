"""On PostgreSQL a hand's end is two statements from the database writer, not six (issue
15: each is a round trip whose reply takes the interpreter lock from the tables' loop):
the hand's row, the table's snapshot and the players' rows in one, the rake's transfer,
postings and balances in another (besides the ledger accounts' locked read). What is
stored is what the statements one by one stored (SQLite still runs those)."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from sqlalchemy import event, func, select

from pokerroom.store.audit import audit
from pokerroom.store.db import Database
from pokerroom.store.hands import finish_hand_sync
from pokerroom.store.ledger import HOUSE, balance, ledger_account_sync
from pokerroom.store.models import HandPlayer, HandRecord, Posting, TableRecord, Transfer
from tests.store.test_group_commit import tables_with_hands_over


def statements(db: Database) -> list[str]:
    """Every statement ``db``'s engine runs from now on, but the ledger accounts' reads."""
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if "FROM ledger_accounts" not in statement.split("WHERE")[0]:
            seen.append(statement)

    event.listen(db.engine.sync_engine, "before_cursor_execute", record)
    return seen


async def test_a_hand_end_is_stored_whole(database: Database) -> None:
    (one,) = await tables_with_hands_over(database, count=1)
    fields = one.fields
    assert fields["rake"] > 0 and len(fields["players"]) == 2  # every part of an end
    await database.run(lambda session: ledger_account_sync(session, *HOUSE))  # (a first rake's)
    seen = statements(database)
    await database.run(partial(finish_hand_sync, **fields))
    if not database.is_sqlite:
        assert len(seen) == 2, [s.strip()[:90] for s in seen]
    hand_id = fields["started"].hand_id
    async with database.transaction() as session:
        hand = await session.get(HandRecord, hand_id)
        assert hand is not None
        assert (hand.status, hand.record, hand.rake) == (
            "complete",
            fields["record"],
            fields["rake"],
        )
        assert hand.ended_at is not None and fields["started"].salt.hex() in hand.deck_reveal
        table = await session.get(TableRecord, one.table_id)
        assert table is not None and table.snapshot == fields["snapshot_after"]
        stored = (
            await session.execute(
                select(
                    HandPlayer.account_id,
                    HandPlayer.seat,
                    HandPlayer.position,
                    HandPlayer.start_stack,
                    HandPlayer.end_stack,
                )
                .where(HandPlayer.hand_id == hand_id)
                .order_by(HandPlayer.position)
            )
        ).all()
        assert [tuple(row) for row in stored] == [tuple(p) for p in fields["players"]]
        transfer = (
            await session.scalars(select(Transfer).where(Transfer.hand_id == hand_id))
        ).one()
        assert (transfer.kind, transfer.idempotency_key) == ("rake", f"rake:{hand_id}")
        postings = await session.scalar(
            select(func.count()).where(Posting.transfer_id == transfer.id)
        )
        assert postings == 2
        assert await balance(session, *HOUSE) == fields["rake"]
        report = await audit(session)
        assert report.ok, report.problems


@pytest.mark.postgres
async def test_a_hand_end_refused_writes_nothing(database: Database) -> None:
    """Another end of a hand already ended: refused, and none of its parts written."""
    (one,) = await tables_with_hands_over(database, count=1)
    await database.run(partial(finish_hand_sync, **one.fields))
    other = {**one.fields, "record": "{}", "snapshot_after": "{}", "players": [(1, 9, 9, 1, 1)]}
    with pytest.raises(ValueError, match="is not running"):
        await database.run(partial(finish_hand_sync, **other))
    async with database.transaction() as session:
        table = await session.get(TableRecord, one.table_id)
        assert table is not None and table.snapshot == one.fields["snapshot_after"]
        rows = await session.scalar(select(func.count()).select_from(HandPlayer))
        assert rows == 2
