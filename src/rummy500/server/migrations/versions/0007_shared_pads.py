"""Score pads shared by their scorekeeper (issue 31): the pad's file as its phone last sent
it, the hash of the token that may write it, the address that shared it (a bound on how
many one address keeps) and when it was shared and last written (old ones are deleted).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "shared_pads",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_shared_pads_address", "shared_pads", ["address"])
    op.create_index("ix_shared_pads_updated", "shared_pads", ["updated"])


def downgrade() -> None:
    op.drop_index("ix_shared_pads_updated", "shared_pads")
    op.drop_index("ix_shared_pads_address", "shared_pads")
    op.drop_table("shared_pads")
