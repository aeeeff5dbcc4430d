"""Talk at the table and pacing: the last chat lines of each table, and who has said
``continue`` after each finished deal.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from rummy500.server.migrations.columns import table_id, table_key

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        table_id(nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(800), nullable=False),
        sa.Column("react", sa.String(16), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_table_id", "chat", ["table_id"])
    op.create_table(
        "ready",
        *table_key("deal", "seat"),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ready")
    op.drop_index("ix_chat_table_id", "chat")
    op.drop_table("chat")
