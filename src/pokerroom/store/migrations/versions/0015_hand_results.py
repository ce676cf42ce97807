"""hand results and connections seen: one row per complete hand and player, for "My
results"; the addresses and devices an account was seen from, for the floor's reports

Hands stored before this revision have no rows: ``store.tables.results.backfill_sync`` writes
them from the hands' records.

Revision ID: 0015_hand_results
Revises: 0014_schema_compatibility
Create Date: 2026-12-02 12:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_hand_results"
down_revision: str | None = "0014_schema_compatibility"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None
older_code_may_run = True  # new tables, which the versions before never read

_COUNTS = (
    "preflop_acted",
    "vpip",
    "pfr",
    "three_bet_chance",
    "three_bet",
    "fold_to_three_bet_chance",
    "fold_to_three_bet",
    "cbet_chance",
    "cbet",
    "saw_flop",
    "showdown",
    "won_showdown",
    "won_without_showdown",
    "all_in_adjusted",
)


def upgrade() -> None:
    op.create_table(
        "hand_results",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("game", sa.String(length=8), nullable=False),
        sa.Column("big_blind", sa.BigInteger(), nullable=False),
        sa.Column("tournament", sa.Boolean(), nullable=False),
        sa.Column("position", sa.String(length=8), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in _COUNTS),
        sa.Column("net", sa.BigInteger(), nullable=False),
        sa.Column("all_in_net", sa.BigInteger(), nullable=False),
        sa.Column("rake_paid", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name=op.f("fk_hand_results_account_id_accounts")
        ),
        sa.ForeignKeyConstraint(
            ["hand_id"], ["hands.id"], name=op.f("fk_hand_results_hand_id_hands")
        ),
        sa.PrimaryKeyConstraint("account_id", "hand_id", name=op.f("pk_hand_results")),
    )
    with op.batch_alter_table("hand_results", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_hand_results_hand_id"), ["hand_id"], unique=False)
    op.create_table(
        "connections_seen",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("device", sa.String(length=64), nullable=False),
        sa.Column("first_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name=op.f("fk_connections_seen_account_id_accounts")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_connections_seen")),
        sa.UniqueConstraint("account_id", "address", "device", name="seen"),
    )
    with op.batch_alter_table("connections_seen", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_connections_seen_account_id"), ["account_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_connections_seen_address"), ["address"], unique=False)


def downgrade() -> None:
    op.drop_table("connections_seen")
    op.drop_table("hand_results")
