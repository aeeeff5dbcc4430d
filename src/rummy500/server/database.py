"""The tables' database: its schema (tables, seats, changes, chat, ready) and how the server reaches
it (the URL of SQLite or PostgreSQL, SQLite's settings and its private file).

>>> async_url("sqlite:////tmp/x/tables.db")
'sqlite+aiosqlite:////tmp/x/tables.db'
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path
from typing import Any

from sqlalchemy import Column, Float, ForeignKey, Index, Integer, MetaData, String, Table, Text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import PoolResetState

log = logging.getLogger("rummy500.server")


metadata = MetaData()

tables = Table(
    "tables", metadata,
    Column("id", String(64), primary_key=True),
    Column("spec", Text, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("seq", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("next_table", String(64)),
    Column("creator", String(64), index=True),
)

seats = Table(
    "seats", metadata,
    Column("table_id", String(64), ForeignKey("tables.id", ondelete="CASCADE"),
           primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(16), nullable=False),
    Column("bot", String(32)),
    Column("name", String(64)),
    Column("token_hash", String(64), index=True),
    Column("kept_for", String(64)),
    Column("kept_until", Float),
    Column("left_at", Float),
)

changes = Table(
    "changes", metadata,
    Column("table_id", String(64), ForeignKey("tables.id", ondelete="CASCADE"),
           primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer),
    Column("move", String(200)),
    Column("at", Float, nullable=False),
    Column("standin", Integer),
    Column("spent", Float),
)

chat = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(64), ForeignKey("tables.id", ondelete="CASCADE"),
           nullable=False, index=True),
    Column("seat", Integer, nullable=False),
    Column("name", String(64), nullable=False),
    Column("text", String(800), nullable=False),
    Column("react", String(16)),
    Column("at", Float, nullable=False),
    Column("n", Integer),
    Index("ix_chat_table_n", "table_id", "n", unique=True),
)
"""The last lines said at each table (talk.py keeps at most 100 a table); ``n`` numbers a
table's lines from 1."""

ready = Table(
    "ready", metadata,
    Column("table_id", String(64), ForeignKey("tables.id", ondelete="CASCADE"),
           primary_key=True),
    Column("deal", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("at", Float, nullable=False),
)
"""Who has said ``continue`` after each finished deal."""


class DatabaseURLError(ValueError):
    """A ``--database`` that names no database this server can use."""


def async_url(url: str) -> str:
    """``sqlite:///PATH`` or ``postgresql://…`` as SQLAlchemy's async driver URL."""
    try:
        parsed = make_url(url)
    except Exception as error:  # SQLAlchemy raises ArgumentError and others for nonsense
        raise DatabaseURLError(f"{url!r} is not a database URL: {error}") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        if not parsed.database or parsed.database == ":memory:":
            raise DatabaseURLError("give SQLite a file: sqlite:///PATH")
        Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        return parsed.set(drivername="sqlite+aiosqlite").render_as_string(hide_password=False)
    if backend in ("postgresql", "postgres"):
        return parsed.set(drivername="postgresql+asyncpg").render_as_string(hide_password=False)
    raise DatabaseURLError(f"{url!r}: the database is SQLite (sqlite:///PATH) or PostgreSQL "
                           "(postgresql://USER@HOST/DB)")


def plain_postgres_url(url: str) -> str:
    """The URL as asyncpg itself reads it (for LISTEN)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL with synchronous=NORMAL: a committed change survives the process being killed
    # (only a power cut can lose the last ones), and commits do not wait for the disk.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def sqlite_reset(dbapi_connection: Any, _record: Any, state: PoolResetState) -> None:
    """A SQLite connection going back to the pool: what SQLAlchemy's rollback on return
    does, but only when a transaction is open (the driver's rollback does nothing
    then, and aiosqlite's call for it is one more hand-off to its thread)."""
    if state.transaction_was_reset or not state.asyncio_safe:
        return
    try:
        open_transaction = dbapi_connection.driver_connection.in_transaction
    except ValueError:  # aiosqlite's connection is closed: nothing to roll back
        return
    if open_transaction:
        dbapi_connection.rollback()


def private_sqlite_files(database: str) -> None:
    """Make the SQLite file readable by its owner only (it holds every table's seed),
    before SQLite opens it: SQLite gives its -wal and -shm files the same mode."""
    path = Path(database).expanduser()
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        try:
            if name.is_file() and name.stat().st_mode & 0o077:
                name.chmod(0o600)
        except OSError as error:  # not ours to change: say so, and serve anyway
            log.warning("could not make %s private (%s)", name, error)


__all__ = ["DatabaseURLError", "async_url", "changes", "chat", "metadata", "plain_postgres_url",
           "private_sqlite_files", "ready", "seats", "sqlite_pragmas", "sqlite_reset", "tables"]
