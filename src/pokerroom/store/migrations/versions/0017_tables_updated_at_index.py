"""tables updated_at index: the lease pass reads the tables written since its last pass

Each node's lease pass (store/nodes/leases.py) asks for the tables whose ``updated_at`` is
after its previous pass; without an index that is a scan of every table in the room.

Revision ID: 0017_tables_updated_at_index
Revises: 0016_private_games
Create Date: 2026-12-05 18:30:00.000000
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0017_tables_updated_at_index"
down_revision: str | None = "0016_private_games"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None
older_code_may_run = True  # an index: the versions before read and write the table as ever


def upgrade() -> None:
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tables_updated_at"), ["updated_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tables_updated_at"))
