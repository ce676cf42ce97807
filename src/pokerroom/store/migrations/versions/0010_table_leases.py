"""table leases: which node owns each table, under which epoch, until when

Revision ID: 0010_table_leases
Revises: 0009_tournaments
Create Date: 2026-12-01 11:10:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_table_leases"
down_revision: str | None = "0009_tournaments"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("node", sa.String(length=128), nullable=False),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("epoch > 0", name=op.f("ck_table_leases_epoch_positive")),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_table_leases_table_id_tables")
        ),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_table_leases")),
    )


def downgrade() -> None:
    op.drop_table("table_leases")
