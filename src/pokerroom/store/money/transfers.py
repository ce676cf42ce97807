"""A ledger transfer whose key is new: its row's statement, and on PostgreSQL the whole
transfer in one statement.

A hand's rake is a transfer's row, its postings and the accounts' balances: three round
trips from the database writer at every raked hand, each reply taking the interpreter lock
from the tables' loop. A data-modifying WITH writes all three in one; the accounts were
read and locked before (``ledger._locked_accounts``, by ``accounts_query``'s statements)
and their funds checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, text, tuple_

from pokerroom.store.compiled import Compiled
from pokerroom.store.models import LedgerAccount, Transfer

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


@lru_cache(maxsize=64)
def accounts_query(count: int, *, locked: bool, named: bool = False) -> Compiled:
    """``ledger._locked_accounts``'s statements for ``count`` accounts, built once: one built
    for each call cost more to build and to key for the statement cache than to run, and an
    expanding IN (one parameter for a list) is rendered again at every call.
    ``named``: the accounts' names only (which of them exist), read unlocked."""
    wanted = tuple_(LedgerAccount.kind, LedgerAccount.owner).in_(
        [tuple_(bindparam(f"kind{n}"), bindparam(f"owner{n}")) for n in range(count)]
    )
    if named:
        return Compiled(select(LedgerAccount.kind, LedgerAccount.owner).where(wanted))
    columns = (LedgerAccount.id, LedgerAccount.kind, LedgerAccount.owner, LedgerAccount.balance)
    query = select(*columns).where(wanted).order_by(LedgerAccount.id)
    return Compiled(query.with_for_update() if locked else query)


_KNOWN = "pokerroom_ledger_accounts"  # a connection's info: the accounts it saw exist


def known_accounts(connection: Connection) -> set[tuple[str, str]]:
    """The ledger accounts this connection has seen exist (PostgreSQL): no account of them
    is created while a transfer's locks are held (``ledger._locked_accounts``)."""
    known: set[tuple[str, str]] = connection.info.setdefault(_KNOWN, set())
    return known
