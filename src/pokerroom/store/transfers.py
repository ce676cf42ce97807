"""A ledger transfer whose key is new: its row's statement, and on PostgreSQL the whole
transfer in one statement (issue 15).

A hand's rake is a transfer's row, its postings and the accounts' balances: three round
trips from the database writer at every raked hand, each reply taking the interpreter lock
from the tables' loop. A data-modifying WITH writes all three in one; the accounts were
read and locked before (``ledger._locked_accounts``) and their funds checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, bindparam, insert, text

from pokerroom.store.compiled import Compiled
from pokerroom.store.models import Transfer

NEW_TRANSFER = Compiled(
    insert(Transfer)
    .values(
        kind=bindparam("kind"),
        idempotency_key=bindparam("key"),
        memo=bindparam("memo"),
        hand_id=bindparam("hand_id"),
        created_at=bindparam("created_at"),
    )
    .returning(Transfer.id)
)


_NEW_TRANSFER_PG = Compiled(
    text(
        """
    WITH transfer AS (
        INSERT INTO transfers (kind, idempotency_key, memo, hand_id, created_at)
        VALUES (:kind, :key, :memo, :hand_id, :created_at)
        RETURNING id
    ), moves AS (
        SELECT * FROM unnest(CAST(:rows AS integer[]), CAST(:amounts AS bigint[]))
            AS m (row_id, amount)
    ), posted AS (
        INSERT INTO postings (transfer_id, ledger_account_id, amount)
        SELECT transfer.id, moves.row_id, moves.amount FROM transfer, moves
    ), balanced AS (
        UPDATE ledger_accounts SET balance = balance + moves.amount
        FROM moves WHERE ledger_accounts.id = moves.row_id
    )
    SELECT id FROM transfer
    """
    )
)


def new_transfer_pg(
    connection: Connection, values: Mapping[str, Any], amounts: Mapping[int, int]
) -> int:
    """The transfer (``values``: kind, key, memo, hand_id, created_at), a posting for each
    ledger account row of ``amounts`` and their balances moved: its id. Each account once."""
    rows = list(amounts)
    found = _NEW_TRANSFER_PG.execute(
        connection, {**values, "rows": rows, "amounts": [amounts[r] for r in rows]}
    ).scalar_one()
    return int(found)
