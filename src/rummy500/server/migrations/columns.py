"""Columns that several migrations make: a row's table, and the key of a table's rows."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa


def table_id(**options: Any) -> sa.Column[str]:
    """The table a row belongs to: the row goes when the table does."""
    return sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                     **options)


def table_key(*numbers: str) -> list[sa.Column[Any]]:
    """The primary key of rows numbered within their table: the table, then ``numbers``."""
    return [table_id(primary_key=True),
            *(sa.Column(number, sa.Integer, primary_key=True, autoincrement=False)
              for number in numbers)]
