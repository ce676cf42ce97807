"""schema compatibility: the oldest code that may run on the schema, stored with it

Each migration from here on says whether the code of the version before it may run once it
is applied (``older_code_may_run``); a node that migrates stores the oldest revision whose
code may, and a node of an older version reads it before it runs on a schema it does not
know (store/compatibility.py, docs/deploy.md Upgrades).

Revision ID: 0014_schema_compatibility
Revises: 0013_login_failure_window
Create Date: 2026-12-02 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_schema_compatibility"
down_revision: str | None = "0013_login_failure_window"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None
older_code_may_run = True  # a new table, which the version before never reads


def upgrade() -> None:
    op.create_table(
        "schema_compatibility",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("oldest_code", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_schema_compatibility")),
    )


def downgrade() -> None:
    op.drop_table("schema_compatibility")
