"""The next game of a table ("Play again"): ``tables.next_table``, null until someone asks.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN (SQLite and PostgreSQL both have it): no copy of the table, so
    # the seats and changes that refer to it are left alone.
    op.add_column("tables", sa.Column("next_table", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("next_table")
