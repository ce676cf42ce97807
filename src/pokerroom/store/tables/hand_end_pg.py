"""A hand's end on PostgreSQL in one statement from the database writer.

Each statement is a round trip whose reply takes the interpreter lock from the tables'
loop (asyncpg's protocol, the event loop's wake-up, SQLAlchemy's result). A hand's end
writes the hand's row, the table's snapshot, the players' rows and, when there is rake, the
rake's transfer: its two ledger accounts locked in id order (as ``ledger._locked_accounts``
locks them), the funds checked, the transfer's row, its postings and the balances. A
data-modifying WITH does all of it in one statement, every part written only if the hand's
own row was (it was running), the rake only if its accounts hold enough.

The rake joins the statement only when this connection has seen both accounts exist (after
a table's first raked hand): an account is never created while locks are held (see
``ledger._locked_accounts``). Otherwise, or when the rake was not written (an account
gone with a rolled-back transaction, or too few chips), ``ledger.take_rake_sync`` does it
as before, in the same transaction: the same rows, or the same error.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, select, text

from pokerroom.store.compiled import Compiled
from pokerroom.store.models import HandRecord
from pokerroom.store.money.ledger import HOUSE, NON_NEGATIVE, table_account
from pokerroom.store.money.transfers import known_accounts

_ENDED = """
    ended AS (
        UPDATE hands SET status = :new_status, record = :new_record, rake = :new_rake,
            deck_reveal = :reveal, ended_at = :at
        WHERE id = :hand AND status = 'running'
        RETURNING id
    ), written AS (
        UPDATE tables SET snapshot = :new_snapshot, updated_at = :at
        WHERE id = :table AND EXISTS (SELECT FROM ended)
        RETURNING id
    ), seated AS (
        INSERT INTO hand_players
            (hand_id, account_id, seat, position, start_stack, end_stack)
        SELECT ended.id, p.account_id, p.seat, p.position, p.start_stack, p.end_stack
        FROM ended, unnest(
            CAST(:accounts AS integer[]), CAST(:seats AS integer[]),
            CAST(:positions AS integer[]), CAST(:befores AS bigint[]),
            CAST(:afters AS bigint[])
        ) AS p (account_id, seat, position, start_stack, end_stack)
    )"""
# A data-modifying WITH runs every part against the same snapshot; the table's and players'
# rows are written only if the hand's own row was (it was running).
_END_HAND_PG = Compiled(
    text(
        f"""
    WITH {_ENDED}
    SELECT (SELECT count(*) FROM ended), (SELECT count(*) FROM written), NULL
    """
    )
)
# The same, and the rake's transfer. ``held``: the table's and the house's accounts, locked
# in id order (a lock taken after the sort); ``raked``: the transfer's row, only if both
# are there and no account that may not go below zero would.
_END_HAND_RAKED_PG = Compiled(
    text(
        f"""
    WITH {_ENDED}, moves AS (
        SELECT * FROM (VALUES
            (CAST(:table_kind AS varchar), CAST(:table AS varchar), -CAST(:new_rake AS bigint)),
            (CAST(:house_kind AS varchar), CAST(:house_owner AS varchar), CAST(:new_rake AS bigint))
        ) AS m (kind, owner, amount)
    ), held AS (
        SELECT a.id, a.kind, a.balance, moves.amount
        FROM ledger_accounts AS a JOIN moves ON a.kind = moves.kind AND a.owner = moves.owner
        WHERE EXISTS (SELECT FROM ended)
        ORDER BY a.id
        FOR UPDATE OF a
    ), raked AS (
        INSERT INTO transfers (kind, idempotency_key, memo, hand_id, created_at)
        SELECT 'rake', :key, :memo, :hand, :at
        WHERE (SELECT count(*) FROM held) = 2 AND NOT EXISTS (
            SELECT FROM held
            WHERE held.kind = ANY(CAST(:non_negative AS varchar[]))
                AND held.balance + held.amount < 0
        )
        RETURNING id
    ), posted AS (
        INSERT INTO postings (transfer_id, ledger_account_id, amount)
        SELECT raked.id, held.id, held.amount FROM raked, held
    ), balanced AS (
        UPDATE ledger_accounts SET balance = ledger_accounts.balance + held.amount
        FROM held, raked WHERE ledger_accounts.id = held.id
    )
    SELECT (SELECT count(*) FROM ended), (SELECT count(*) FROM written),
        (SELECT id FROM raked)
    """
    )
)


def finish_on_postgresql(
    connection: Connection,
    ending: dict[str, Any],
    table_id: str,
    snapshot: str,
    players: Sequence[tuple[int, int, int, int, int]],
) -> tuple[bool, bool]:
    """``finish_hand_sync``'s writes on PostgreSQL but the leavers' cash-outs, in one
    statement. (False, _): this end was run again after it committed (group commit),
    nothing more to write. (True, False): the rake (if any) is still to be taken."""
    columns = list(zip(*players, strict=True)) if players else [(), (), (), (), ()]
    values = {
        **ending,
        "table": table_id,
        "new_snapshot": snapshot,
        "accounts": list(columns[0]),
        "seats": list(columns[1]),
        "positions": list(columns[2]),
        "befores": list(columns[3]),
        "afters": list(columns[4]),
    }
    statement, rake = _END_HAND_PG, ending["new_rake"]
    accounts = (table_account(table_id), HOUSE)
    if rake and known_accounts(connection).issuperset(accounts):
        statement = _END_HAND_RAKED_PG
        values.update(
            table_kind=accounts[0][0],
            house_kind=HOUSE[0],
            house_owner=HOUSE[1],
            key=f"rake:{ending['hand']}",
            memo=f"rake at {table_id}",
            non_negative=sorted(NON_NEGATIVE),
        )
    ended, written, transfer = tuple(statement.execute(connection, values).one())
    if ended != 1:
        ended_before(connection, ending["hand"], ending["new_record"])
        return False, False
    if written != 1:
        raise ValueError(f"no table {table_id!r} in the store")
    return True, transfer is not None or not rake


def ended_before(connection: Connection, hand_id: int, record: str) -> None:
    """A hand's end that found the hand not running: the same end run again after it
    committed (group commit) is done; another is refused."""
    stored = connection.execute(select(HandRecord.record).where(HandRecord.id == hand_id))
    if stored.scalar() != record:
        raise ValueError(f"hand {hand_id} is not running")
