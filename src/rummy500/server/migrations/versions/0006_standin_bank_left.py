"""Who played each move and the time bank it spent, kept with the move, and the seats whose
person left for good (issues 32 and 34): ``changes.standin`` (1: the stand-in played this
move for the person of its seat; null: they did), ``changes.spent`` (seconds of the
seat's time bank the move spent; null: none) and ``seats.left_at`` (when the person left
the table; a computer player plays the seat from then on; null: they did not).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMNs: no copy of a table, so rows stored before read as null (a person's
    # own move, no bank spent, nobody left).
    op.add_column("changes", sa.Column("standin", sa.Integer, nullable=True))
    op.add_column("changes", sa.Column("spent", sa.Float, nullable=True))
    op.add_column("seats", sa.Column("left_at", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("left_at")
    with op.batch_alter_table("changes") as batch:
        batch.drop_column("spent")
        batch.drop_column("standin")
