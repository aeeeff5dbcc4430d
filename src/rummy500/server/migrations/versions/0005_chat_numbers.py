"""Chat lines numbered within their table (``n``: 1, 2, 3… at each table, issue 30), not
across all tables; a line stored before keeps its old number as its ``n``, so each
table's numbers still only grow.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("chat", sa.Column("n", sa.Integer, nullable=True))
    op.execute("UPDATE chat SET n = id")
    op.create_index("ix_chat_table_n", "chat", ["table_id", "n"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_chat_table_n", "chat")
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("n")
