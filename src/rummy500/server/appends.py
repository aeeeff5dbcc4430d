"""A batch of moves stored through the database's driver directly, bypassing SQLAlchemy's
execute on the path every move takes (:meth:`.store.Store.append`): its CPU, and on SQLite
the calls to aiosqlite's thread, cost more than the statements themselves.

The batches go through one connection kept out of the pool for them (:class:`Appender`):
taking a connection from the pool and giving it back costs more CPU than storing a
move (about 80 µs on SQLite; on PostgreSQL a ping to the server too), and at a few
hundred moves a second most batches hold one move.

On SQLite a batch is written on the event loop itself, not in aiosqlite's thread: the
statements and the commit (WAL, no wait for the disk) cost less than handing them to a
thread and back, which wakes the thread and the loop and passes the interpreter's lock
between them. Nothing that can take long runs there: the connection never waits for
another writer's lock (a batch that meets one is handed to the thread, which waits) and
never checkpoints the WAL at a commit: every :data:`CHECKPOINT_EVERY` commits, a checkpoint
runs in the thread, and the next batch waits for it (a checkpoint that other commits
overtake leaves the WAL growing: it starts over only when a write begins on a WAL
wholly copied into the database).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .database import BUSY_WAIT_MS
from .live import Change
from .messages import NOTIFY_CHANNEL, Changed, encode

log = logging.getLogger("rummy500.server")

CHECKPOINT_EVERY = 256
"""SQLite: the WAL is checkpointed after this many batches (each writes a few pages: the
WAL stays a few MiB)."""

_SQLITE_SET_SEQ = "UPDATE tables SET seq = ?, status = ?, updated = ? WHERE id = ? AND seq = ?"
_SQLITE_ADD_CHANGE = ("INSERT INTO changes (table_id, seq, seat, move, at, standin, spent) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?)")
""":data:`.store._SET_SEQ` and the insert of :func:`.store._change_row`, as SQLite's
driver takes them."""

_PG_APPEND = """
WITH locked AS (
    SELECT id FROM tables WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE
), moved AS (
    UPDATE tables SET seq = w.seq, status = w.status, updated = $5
    FROM unnest($1::text[], $2::int[], $3::int[], $4::text[]) AS w(id, after, seq, status)
    WHERE tables.id = w.id AND tables.seq = w.after AND tables.id IN (SELECT id FROM locked)
    RETURNING tables.id
), added AS (
    INSERT INTO changes (table_id, seq, seat, move, at, standin, spent)
    SELECT c.* FROM unnest($6::text[], $7::int[], $8::int[], $9::text[], $10::float8[],
                           $11::int[], $12::float8[])
        AS c(table_id, seq, seat, move, at, standin, spent)
    WHERE c.table_id IN (SELECT id FROM moved)
), told AS (
    SELECT pg_notify($13, n.payload) FROM unnest($1::text[], $14::text[]) AS n(id, payload)
    WHERE n.id IN (SELECT id FROM moved)
)
SELECT id FROM moved WHERE (SELECT count(*) FROM told) >= 0
"""
"""The batch of appends in PostgreSQL as one statement, a transaction of its own (one round
trip to the server): the tables' rows locked in the order of their ids (as in every
process: no deadlock), each moved on if it is still where its append follows, then
those tables' changes stored and their notifications sent (``told`` is read by the
last line so that it runs: a ``SELECT`` in ``WITH`` runs only as far as it is read)."""


@dataclass(frozen=True, slots=True)
class Append:
    """One table's changes waiting for the next commit, and who waits for it."""

    table_id: str
    after: int
    made: tuple[Change, ...]
    status: str
    future: asyncio.Future[bool]


class Appender:
    """Stores batches of moves through one connection of ``engine`` that it keeps for them
    (SQLite: an engine of its own, beside the pool the rest of the store reads and writes
    through; both wait their turn to write, in their own threads). A connection that
    failed, or that the database closed (PostgreSQL restarted), is let go and the next
    batch takes a new one, so a failure costs the batch under way only."""

    def __init__(self, engine: AsyncEngine, *, postgres: bool,
                 checkpoint_every: int = CHECKPOINT_EVERY) -> None:
        self.engine = engine
        self.postgres = postgres
        self.checkpoint_every = checkpoint_every
        self._held: tuple[AsyncConnection, Any] | None = None
        self._commits = 0
        self._checkpointing: asyncio.Task[None] | None = None

    async def store(self, batch: Sequence[Append], now: float) -> list[bool] | None:
        """Each append of ``batch`` stored if its table is still where it follows (SQLite:
        None when some table is not: nothing was stored, and the caller goes one by one)."""
        if self._checkpointing is not None:
            checkpointing, self._checkpointing = self._checkpointing, None
            await checkpointing
        database = await self._driver()
        try:
            if self.postgres:
                return await append_postgres(database, batch, now)
            stored = await append_sqlite(database, batch, now)
        except BaseException:
            await self.close()
            raise
        self._commits += 1
        if self._commits >= self.checkpoint_every:
            self._commits = 0
            self._checkpointing = asyncio.ensure_future(_checkpoint(database))
        return [True] * len(batch) if stored else None

    async def _driver(self) -> Any:
        held = self._held
        if held is not None and not _closed(held[1]):
            return held[1]
        await self.close()
        conn = await self.engine.connect()
        try:
            database: Any = (await conn.get_raw_connection()).driver_connection
            if not self.postgres:
                # Written to on the event loop: never wait there (the module's text).
                database._conn.execute("PRAGMA busy_timeout=0")
                database._conn.execute("PRAGMA wal_autocheckpoint=0")
        except BaseException:
            await conn.close()
            raise
        self._held = (conn, database)
        return database

    async def close(self) -> None:
        """Let the kept connection go (it is not given back to the pool: its state is
        not known)."""
        checkpointing, self._checkpointing = self._checkpointing, None
        if checkpointing is not None:
            with contextlib.suppress(BaseException):
                await checkpointing
        held, self._held = self._held, None
        if held is not None:
            with contextlib.suppress(Exception):
                await held[0].invalidate()
            with contextlib.suppress(Exception):
                await held[0].close()


async def _checkpoint(database: aiosqlite.Connection) -> None:
    """SQLite: the WAL copied into the database, in aiosqlite's thread (a failure is
    told: the next checkpoint may succeed, and the WAL only grows meanwhile)."""
    try:
        await (await database.execute("PRAGMA wal_checkpoint(PASSIVE)")).close()
    except Exception as error:
        log.warning("checkpointing the SQLite WAL failed: %s", error)


def _closed(database: Any) -> bool:
    if isinstance(database, aiosqlite.Connection):
        return not database._running or database._connection is None
    return bool(database.is_closed())


async def append_sqlite(database: aiosqlite.Connection, batch: Sequence[Append],
                        now: float) -> bool:
    """SQLite: the whole batch stored and committed if every table is still where it
    follows (False: none is, and the caller goes table by table). Written to the
    driver directly (SQLAlchemy's execute makes sixteen calls: a cursor made and closed
    for each statement, the result read), on the event loop unless another connection
    holds the lock to write: then in aiosqlite's thread, which waits for it."""
    seqs = [(one.made[-1].seq, one.status, now, one.table_id, one.after) for one in batch]
    rows = [(one.table_id, c.seq, c.seat, c.move, now, 1 if c.standin else None,
             c.spent or None) for one in batch for c in one.made]
    try:
        return _store_batch(database._conn, seqs, rows)
    except sqlite3.OperationalError as error:
        if error.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY:
            raise
    # aiosqlite has no public call for several statements in one hand-off.
    in_thread: Callable[..., Awaitable[bool]] = database._execute
    return await in_thread(_store_batch_waiting, database._conn, seqs, rows)


def _store_batch(connection: sqlite3.Connection, seqs: list[tuple[Any, ...]],
                 rows: list[tuple[Any, ...]]) -> bool:
    """:func:`append_sqlite`'s statements and commit (rolled back if any fails)."""
    try:
        if connection.executemany(_SQLITE_SET_SEQ, seqs).rowcount != len(seqs):
            connection.rollback()
            return False
        connection.executemany(_SQLITE_ADD_CHANGE, rows)
        connection.commit()
    except BaseException:
        connection.rollback()
        raise
    return True


def _store_batch_waiting(connection: sqlite3.Connection, seqs: list[tuple[Any, ...]],
                         rows: list[tuple[Any, ...]]) -> bool:
    """In aiosqlite's thread: :func:`_store_batch`, waiting for another writer's lock."""
    connection.execute(f"PRAGMA busy_timeout={BUSY_WAIT_MS}")
    try:
        return _store_batch(connection, seqs, rows)
    finally:
        connection.execute("PRAGMA busy_timeout=0")


async def append_postgres(database: Any, batch: Sequence[Append], now: float) -> list[bool]:
    """PostgreSQL: each append whose table is still where it follows, stored in one
    statement (:data:`_PG_APPEND`) whatever the batch's size, written to the driver
    directly (SQLAlchemy's execute costs more CPU than the statement)."""
    order = sorted(batch, key=lambda one: one.table_id)
    rows = [(one.table_id, c) for one in order for c in one.made]
    moved = {row[0] for row in await database.fetch(
        _PG_APPEND, [one.table_id for one in order], [one.after for one in order],
        [one.made[-1].seq for one in order], [one.status for one in order], now,
        [table_id for table_id, _ in rows], [c.seq for _, c in rows],
        [c.seat for _, c in rows], [c.move for _, c in rows], [now] * len(rows),
        [1 if c.standin else None for _, c in rows], [c.spent or None for _, c in rows],
        NOTIFY_CHANNEL, [encode(Changed(one.table_id, one.made[-1].seq)) for one in order])}
    return [one.table_id in moved for one in batch]


__all__ = ["CHECKPOINT_EVERY", "Append", "Appender", "append_postgres",
           "append_sqlite"]
