"""The schema's Alembic migrations, shipped in the package and run by ``serve`` at start-up."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection

HERE = Path(__file__).resolve().parent


def config(connection: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    return cfg


def upgrade(connection: Connection) -> None:
    """Bring the database on ``connection`` to the newest schema."""
    command.upgrade(config(connection), "head")
