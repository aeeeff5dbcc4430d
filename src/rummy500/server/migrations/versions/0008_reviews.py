"""Game reviews kept with their table (issue 33): the review of a finished table as the
page shows it (JSON), made once and served again without searching again; it goes with its table.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from rummy500.server.migrations.columns import table_id

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        table_id(primary_key=True),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("made", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reviews")
