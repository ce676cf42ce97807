"""The schema comes from Alembic migrations and matches the models on both databases."""

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
