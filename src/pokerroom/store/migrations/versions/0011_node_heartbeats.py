"""room nodes: each node's heartbeat, so live nodes share the tables

Revision ID: 0011_node_heartbeats
Revises: 0010_table_leases
Create Date: 2026-12-01 14:10:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_node_heartbeats"
down_revision: str | None = "0010_table_leases"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "room_nodes",
        sa.Column("id", sa.String(length=128), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_room_nodes")),
    )


def downgrade() -> None:
    op.drop_table("room_nodes")
