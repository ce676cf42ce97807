"""coordinator leases: a tournament's coordinator is leased like a table

The lease of a tournament is a row of ``table_leases`` keyed ``tournament:<id>``: the row
no longer names a row of ``tables``, so its foreign key goes.

Revision ID: 0012_coordinator_leases
Revises: 0011_node_heartbeats
Create Date: 2026-12-01 18:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_coordinator_leases"
down_revision: str | None = "0011_node_heartbeats"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("table_leases") as batch:
        batch.drop_constraint("fk_table_leases_table_id_tables", type_="foreignkey")


def downgrade() -> None:
    op.execute(sa.text("DELETE FROM table_leases WHERE table_id LIKE 'tournament:%'"))
    with op.batch_alter_table("table_leases") as batch:
        batch.create_foreign_key("fk_table_leases_table_id_tables", "tables", ["table_id"], ["id"])
