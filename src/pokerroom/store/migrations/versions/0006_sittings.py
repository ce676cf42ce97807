"""sittings: a join's key is bound to the sitting it opened (S-MONEY-3)

Revision ID: 0006_sittings
Revises: 0005_login_failures
Create Date: 2026-12-01 02:40:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_sittings"
down_revision: str | None = "0005_login_failures"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "sittings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name=op.f("fk_sittings_account_id_accounts")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sittings")),
    )
    with op.batch_alter_table("sittings", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sittings_account_id"), ["account_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_sittings_table_id"), ["table_id"], unique=False)
    with op.batch_alter_table("transfers", schema=None) as batch_op:
        batch_op.add_column(sa.Column("sitting_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_transfers_sitting_id"), ["sitting_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_transfers_sitting_id_sittings"), "sittings", ["sitting_id"], ["id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("transfers", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_transfers_sitting_id_sittings"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_transfers_sitting_id"))
        batch_op.drop_column("sitting_id")
    with op.batch_alter_table("sittings", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sittings_table_id"))
        batch_op.drop_index(batch_op.f("ix_sittings_account_id"))
    op.drop_table("sittings")
