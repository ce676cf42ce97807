"""hand record: one stored representation of a hand, read back by every export

Revision ID: 0007_hand_record
Revises: 0006_sittings
Create Date: 2026-12-01 05:30:00.000000

A hand was stored as its PHH text (read back by the exports) and an events JSON that
nothing read. It is now one ``record`` (``pokerroom.history.record``): the setup, the log
of actions and the result. Hands stored before keep their PHH inside it (``version`` 0,
read back through PHH); a hand cancelled by a crash keeps the reason it was cancelled.
"""

import contextlib
import json
from collections.abc import Iterator, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0007_hand_record"
down_revision: str | None = "0006_sittings"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 1_000

_hands = sa.table(
    "hands",
    sa.column("id", sa.Integer),
    sa.column("phh", sa.Text),
    sa.column("events", sa.Text),
    sa.column("record", sa.Text),
)


def _cancel_reason(events: str) -> str | None:
    try:
        logged = json.loads(events or "[]")
    except ValueError:
        return None
    for event in logged if isinstance(logged, list) else []:
        if isinstance(event, dict) and event.get("kind") == "hand_cancelled":
            return str(event.get("reason", ""))
    return None


def record_of(phh: str, events: str) -> str:
    """The record a hand stored before 0007 is read back from (written here as the format
    was then, so this migration never depends on the code of a later version)."""
    if phh:
        return json.dumps({"version": 0, "phh": phh})
    reason = _cancel_reason(events)
    if reason is not None:  # cut off by a crash: only the reason was stored
        return json.dumps({"version": 1, "result": {"cancelled": reason}})
    return ""  # still running: the record is written when it ends


def _batches(columns: Sequence[sa.ColumnElement[Any]]) -> Iterator[list[tuple[Any, ...]]]:
    """Every hand with ``columns``, BATCH rows at a time, each batch read whole (so that
    the caller may update the rows it holds before the next is read)."""
    bind = op.get_bind()
    last = 0
    while True:
        batch = bind.execute(
            sa.select(_hands.c.id, *columns)
            .where(_hands.c.id > last)
            .order_by(_hands.c.id)
            .limit(BATCH)
        ).fetchall()
        if not batch:
            return
        yield [tuple(row) for row in batch]
        last = batch[-1][0]


def _update(values: list[dict[str, object]], **columns: object) -> None:
    if values:
        op.get_bind().execute(
            sa.update(_hands)
            .where(_hands.c.id == sa.bindparam("hand_id"))
            .values({name: sa.bindparam(f"new_{name}") for name in columns}),
            values,
        )


def upgrade() -> None:
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.add_column(sa.Column("record", sa.Text(), nullable=False, server_default=""))
    for batch in _batches([_hands.c.phh, _hands.c.events]):
        converted = [
            {"hand_id": hand_id, "new_record": record_of(phh or "", events or "")}
            for hand_id, phh, events in batch
        ]
        _update([v for v in converted if v["new_record"]], record=True)
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.drop_column("events")
        batch_op.drop_column("phh")


def downgrade() -> None:
    """Back to PHH text and an events JSON: a hand recorded since 0007 is written as PHH by
    the room's code (its events, which nothing read, are not written again)."""
    from pokerroom.history.phh import write_phh
    from pokerroom.history.record import RecordError, read_record

    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.add_column(sa.Column("phh", sa.Text(), nullable=False, server_default=""))
        batch_op.add_column(sa.Column("events", sa.Text(), nullable=False, server_default="[]"))
    for batch in _batches([_hands.c.record]):
        values: list[dict[str, object]] = []
        for hand_id, text in batch:
            if not text:
                continue
            data = json.loads(text)
            phh, events = "", "[]"
            if data.get("version") == 0:
                phh = data["phh"]
            elif "setup" in data:
                with contextlib.suppress(RecordError):  # unreadable either way: left empty
                    phh = write_phh(read_record(text))
            else:
                reason = data["result"]["cancelled"]
                events = json.dumps([{"kind": "hand_cancelled", "reason": reason}])
            values.append({"hand_id": hand_id, "new_phh": phh, "new_events": events})
        _update(values, phh=True, events=True)
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.drop_column("record")
