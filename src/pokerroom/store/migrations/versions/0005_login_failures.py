"""login failures counted per username, atomically

Revision ID: 0005_login_failures
Revises: 0004
Create Date: 2026-12-01 02:40:00.000000

The failure counter moves from ``accounts`` to its own table keyed by username, so that
unknown names lock out exactly like known ones (S-AUTH-2); counts and locks carry over.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_login_failures"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "login_failures",
        sa.Column("username", sa.String(length=32), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("username", name=op.f("pk_login_failures")),
    )
    op.execute(
        "INSERT INTO login_failures (username, failures, locked_until) "
        "SELECT username, failed_logins, locked_until FROM accounts "
        "WHERE failed_logins > 0 OR locked_until IS NOT NULL"
    )
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.drop_column("locked_until")
        batch_op.drop_column("failed_logins")


def downgrade() -> None:
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("failed_logins", sa.Integer(), nullable=False, server_default="0")
        )
        batch_op.add_column(sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True))
    op.execute(
        "UPDATE accounts SET "
        "failed_logins = (SELECT f.failures FROM login_failures f "
        "WHERE f.username = accounts.username), "
        "locked_until = (SELECT f.locked_until FROM login_failures f "
        "WHERE f.username = accounts.username) "
        "WHERE username IN (SELECT username FROM login_failures)"
    )
    op.drop_table("login_failures")
