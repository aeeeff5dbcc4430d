"""Who made each table (a hash of the address, for the limits per address) and the seats
of a Play again table kept for the people who held them.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("creator", sa.String(64), nullable=True))
    op.create_index("ix_tables_creator", "tables", ["creator"])
    op.create_index("ix_tables_updated", "tables", ["updated"])
    op.add_column("seats", sa.Column("kept_for", sa.String(64), nullable=True))
    op.add_column("seats", sa.Column("kept_until", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("kept_until")
        batch.drop_column("kept_for")
    op.drop_index("ix_tables_updated", "tables")
    op.drop_index("ix_tables_creator", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("creator")
