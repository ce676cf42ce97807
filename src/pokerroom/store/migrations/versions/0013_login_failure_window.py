"""login failure window: failed log-ins are forgotten a while after the last one

``login_failures.last_failed_at`` says when a name last failed: a count whose last failure
is older than ``FAILURE_WINDOW`` starts again, and such rows are pruned
(store/accounts/accounts.py).
Rows from before this revision count as failed now (their time was not kept).

Revision ID: 0013_login_failure_window
Revises: 0012_coordinator_leases
Create Date: 2026-12-01 21:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_login_failure_window"
down_revision: str | None = "0012_coordinator_leases"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("login_failures", schema=None) as batch_op:
        batch_op.add_column(sa.Column("last_failed_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(
            batch_op.f("ix_login_failures_last_failed_at"), ["last_failed_at"], unique=False
        )
    op.execute("UPDATE login_failures SET last_failed_at = CURRENT_TIMESTAMP")


def downgrade() -> None:
    with op.batch_alter_table("login_failures", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_login_failures_last_failed_at"))
        batch_op.drop_column("last_failed_at")
