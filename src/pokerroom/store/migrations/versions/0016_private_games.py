"""private games (R-PRIV-1): the games players host, who asked to sit and what the host
decided, and the host's acts

Revision ID: 0016_private_games
Revises: 0015_hand_results
Create Date: 2026-12-05 15:10:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016_private_games"
down_revision: str | None = "0015_hand_results"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None
older_code_may_run = True  # new tables, which the versions before never read


def upgrade() -> None:
    op.create_table(
        "private_games",
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("host_id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("invite", sa.String(length=64), nullable=False),
        sa.Column("settings", sa.Text(), nullable=False),
        sa.Column("big_blind", sa.BigInteger(), nullable=False),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.Column("bomb_pot_next", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["host_id"], ["accounts.id"], name=op.f("fk_private_games_host_id_accounts")
        ),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_private_games")),
        sa.UniqueConstraint("code", name=op.f("uq_private_games_code")),
        sa.UniqueConstraint("invite", name=op.f("uq_private_games_invite")),
    )
    with op.batch_alter_table("private_games", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_private_games_host_id"), ["host_id"], unique=False)
    op.create_table(
        "private_members",
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["private_games.table_id"],
            name=op.f("fk_private_members_table_id_private_games"),
        ),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name=op.f("fk_private_members_account_id_accounts")
        ),
        sa.PrimaryKeyConstraint("table_id", "account_id", name=op.f("pk_private_members")),
    )
    op.create_table(
        "private_acts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("host_id", sa.Integer(), nullable=True),
        sa.Column("act", sa.String(length=16), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=True),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["private_games.table_id"],
            name=op.f("fk_private_acts_table_id_private_games"),
        ),
        sa.ForeignKeyConstraint(
            ["host_id"], ["accounts.id"], name=op.f("fk_private_acts_host_id_accounts")
        ),
        sa.ForeignKeyConstraint(
            ["target_id"], ["accounts.id"], name=op.f("fk_private_acts_target_id_accounts")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_private_acts")),
    )
    with op.batch_alter_table("private_acts", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_private_acts_table_id"), ["table_id"], unique=False)


def downgrade() -> None:
    op.drop_table("private_acts")
    op.drop_table("private_members")
    op.drop_table("private_games")
