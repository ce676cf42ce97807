"""account preferences: one JSON object per account (language, deck, options)

Revision ID: 0008_account_preferences
Revises: 0007_hand_record
Create Date: 2026-12-01 10:50:00.000000

A player's client preferences (language, four- or two-colour deck, auto-muck, bet
presets, hotkeys) stored server-side so that they follow the account to any browser. The
object is validated by ``pokerroom.server.accounts.preferences`` before it is written; an account
without a row has the defaults.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_account_preferences"
down_revision: str | None = "0007_hand_record"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "account_preferences",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_account_preferences_account_id_accounts"),
        ),
        sa.PrimaryKeyConstraint("account_id", name=op.f("pk_account_preferences")),
    )


def downgrade() -> None:
    op.drop_table("account_preferences")
