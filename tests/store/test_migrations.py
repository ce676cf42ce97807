"""The schema comes from Alembic migrations and matches the models on both databases."""

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from pokerroom.store.db import Database
from pokerroom.store.models import Base


async def test_migrations_build_the_whole_schema_and_rerun_safely(database: Database) -> None:
    await database.migrate()  # a second run is a no-op

    def check(connection):  # type: ignore[no-untyped-def]
        tables = set(inspect(connection).get_table_names())
        assert set(Base.metadata.tables) <= tables and "alembic_version" in tables
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return compare_metadata(context, Base.metadata)

    async with database.engine.connect() as connection:
        differences = await connection.run_sync(check)
    assert differences == []


async def test_0007_keeps_every_stored_hand_exportable_through_its_record(
    database: Database,
) -> None:
    """Hands stored as PHH text and an events JSON before migration 0007 are read
    back from their one record after it (the PHH inside it), a hand cut off by a crash keeps
    why, and going back to 0006 gives the PHH back."""
    import json
    from datetime import UTC, datetime

    from sqlalchemy import text

    from pokerroom.history.phh import write_phh
    from pokerroom.history.record import RecordError, hand_record, read_record
    from pokerroom.history.viewer import viewer_hand
    from pokerroom.rules.game import Structure, Variant
    from tests.helpers.hand_records import house_options, played_hand

    hand = played_hand(4, Variant.HOLDEM, Structure.NO_LIMIT, house_options("titan"))
    phh = write_phh(hand, _table="t1", hand=1)
    crashed = json.dumps([{"kind": "hand_cancelled", "reason": "server restart"}])
    await database.migrate("0006_sittings", down=True)
    insert = text(
        "INSERT INTO hands (id, table_id, number, status, deck_commitment, deck_reveal, phh,"
        " events, rake, started_at) VALUES (:id, 't1', :id, :status, 'c', '', :phh, :events,"
        " 0, :at)"
    )
    rows = [
        {"id": 1, "status": "complete", "phh": phh, "events": '[{"kind": "hand_started"}]'},
        {"id": 2, "status": "cancelled", "phh": "", "events": crashed},
        {"id": 3, "status": "running", "phh": "", "events": "[]"},
    ]
    at = datetime(2026, 12, 1, tzinfo=UTC)
    async with database.engine.begin() as connection:
        for row in rows:
            await connection.execute(insert, {**row, "at": at})
    await database.migrate()
    async with database.engine.connect() as connection:
        records = dict((await connection.execute(text("SELECT id, record FROM hands"))).all())
    again = read_record(records[1])
    assert again.stacks == hand.stacks and again.rake == hand.rake
    for viewer in range(hand.n):
        assert write_phh(viewer_hand(again, viewer)) == write_phh(viewer_hand(hand, viewer))
    with pytest.raises(RecordError, match="server restart"):
        read_record(records[2])
    assert records[3] == ""
    async with database.engine.begin() as connection:  # a hand recorded after 0007
        await connection.execute(
            text("UPDATE hands SET record = :record, status = 'complete' WHERE id = 3"),
            {"record": hand_record(hand)},
        )
    await database.migrate("0006_sittings", down=True)
    async with database.engine.connect() as connection:
        back = (await connection.execute(text("SELECT phh, events FROM hands ORDER BY id"))).all()
    assert back[0][0] == phh and json.loads(back[1][1]) == json.loads(crashed)
    assert back[2][0] == write_phh(hand)  # written back as PHH by the room's code
    await database.migrate()


async def test_0017_indexes_tables_by_update_time_and_takes_it_back(database: Database) -> None:
    """The lease pass's read of the tables written since its last pass has an index on
    both databases; going back to 0016 drops only that index."""

    def indexes(connection):  # type: ignore[no-untyped-def]
        return {i["name"]: i["column_names"] for i in inspect(connection).get_indexes("tables")}

    async with database.engine.connect() as connection:
        assert (await connection.run_sync(indexes)).get("ix_tables_updated_at") == ["updated_at"]
    await database.migrate("0016_private_games", down=True)
    async with database.engine.connect() as connection:
        assert "ix_tables_updated_at" not in await connection.run_sync(indexes)
    await database.migrate()
    async with database.engine.connect() as connection:
        assert (await connection.run_sync(indexes)).get("ix_tables_updated_at") == ["updated_at"]
