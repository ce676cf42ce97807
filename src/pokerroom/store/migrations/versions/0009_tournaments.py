"""tournaments: events with their stored state, and registrations

Revision ID: 0009_tournaments
Revises: 0008_account_preferences
Create Date: 2026-12-01 11:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_tournaments"
down_revision: str | None = "0008_account_preferences"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("config", sa.Text(), nullable=False),
        sa.Column("snapshot", sa.Text(), nullable=False),
        sa.Column("paid", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    op.create_table(
        "tournament_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("entry", sa.String(length=80), nullable=False),
        sa.Column("request", sa.String(length=64), nullable=False),
        sa.Column("active", sa.String(length=160), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name=op.f("fk_tournament_entries_account_id_accounts")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_entries")),
        sa.UniqueConstraint("active", name=op.f("uq_tournament_entries_active")),
        sa.UniqueConstraint("tournament_id", "account_id", "request", name="request"),
    )
    with op.batch_alter_table("tournament_entries", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_entries_account_id"), ["account_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_tournament_entries_tournament_id"), ["tournament_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("tournament_entries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_entries_tournament_id"))
        batch_op.drop_index(batch_op.f("ix_tournament_entries_account_id"))
    op.drop_table("tournament_entries")
    op.drop_table("tournaments")
