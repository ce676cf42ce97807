"""Alembic environment: migrations run on the connection the application hands over."""

from alembic import context

from pokerroom.store.models import Base

config = context.config
connection = config.attributes.get("connection")
if connection is None:  # pragma: no cover - always given by pokerroom.store.db
    raise RuntimeError("pokerroom migrations run through pokerroom.store.db.Database.migrate()")
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=True,  # SQLite alters tables by copying them
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
