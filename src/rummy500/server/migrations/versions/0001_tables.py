"""Tables, their seats (hashed tokens) and their changes in order.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from rummy500.server.migrations.columns import table_key

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "seats",
        *table_key("seat"),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("bot", sa.String(32)),
        sa.Column("name", sa.String(64)),
        sa.Column("token_hash", sa.String(64)),
    )
    op.create_index("ix_seats_token_hash", "seats", ["token_hash"])
    op.create_table(
        "changes",
        *table_key("seq"),
        sa.Column("seat", sa.Integer),
        sa.Column("move", sa.String(200)),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("changes")
    op.drop_table("seats")
    op.drop_index("ix_tables_status", "tables")
    op.drop_table("tables")
