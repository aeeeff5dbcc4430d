"""A batch of moves stored through the database's driver directly, bypassing SQLAlchemy's
execute on the path every move takes (:meth:`.store.Store.append`): its CPU, and on SQLite
the calls to aiosqlite's thread, cost more than the statements themselves.

The batches go through one connection kept out of the pool for them (:class:`Appender`):
taking a connection from the pool and giving it back costs more CPU than storing a
move (about 80 µs on SQLite; on PostgreSQL a ping to the server too), and at a few
hundred moves a second most batches hold one move.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .live import Change
from .messages import NOTIFY_CHANNEL, Changed, encode

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

    def __init__(self, engine: AsyncEngine, *, postgres: bool) -> None:
        self.engine = engine
        self.postgres = postgres
        self._held: tuple[AsyncConnection, Any] | None = None

    async def store(self, batch: Sequence[Append], now: float) -> list[bool] | None:
        """Each append of ``batch`` stored if its table is still where it follows (SQLite:
        None when some table is not: nothing was stored, and the caller goes one by one)."""
        database = await self._driver()
        try:
            if self.postgres:
                return await append_postgres(database, batch, now)
            return [True] * len(batch) if await append_sqlite(database, batch, now) else None
        except BaseException:
            await self.close()
            raise

    async def _driver(self) -> Any:
        held = self._held
        if held is not None and not _closed(held[1]):
            return held[1]
        await self.close()
        conn = await self.engine.connect()
        try:
            database = (await conn.get_raw_connection()).driver_connection
        except BaseException:
            await conn.close()
            raise
        self._held = (conn, database)
        return database

    async def close(self) -> None:
        """Let the kept connection go (it is not given back to the pool: its state is
        not known)."""
        held, self._held = self._held, None
        if held is not None:
            with contextlib.suppress(Exception):
                await held[0].invalidate()
            with contextlib.suppress(Exception):
                await held[0].close()


def _closed(database: Any) -> bool:
    if isinstance(database, aiosqlite.Connection):
        return not database._running or database._connection is None
    return bool(database.is_closed())


async def append_sqlite(database: aiosqlite.Connection, batch: Sequence[Append],
                        now: float) -> bool:
    """SQLite: the whole batch stored and committed if every table is still where it
    follows (False: none is, and the caller goes table by table). Written to the
    driver directly, all of it in one call to its thread: each call costs a hand-off
    to the thread and back (more CPU than the statements), and SQLAlchemy's execute
    makes sixteen (a cursor made and closed for each statement, the result read)."""
    seqs = [(one.made[-1].seq, one.status, now, one.table_id, one.after) for one in batch]
    rows = [(one.table_id, c.seq, c.seat, c.move, now, 1 if c.standin else None,
             c.spent or None) for one in batch for c in one.made]
    # aiosqlite has no public call for several statements in one hand-off.
    in_thread: Callable[..., Awaitable[bool]] = database._execute
    return await in_thread(_store_batch, database, seqs, rows)


def _store_batch(database: aiosqlite.Connection, seqs: list[tuple[Any, ...]],
                 rows: list[tuple[Any, ...]]) -> bool:
    """In aiosqlite's thread: :func:`append_sqlite`'s statements and commit."""
    connection = database._conn
    if connection.executemany(_SQLITE_SET_SEQ, seqs).rowcount != len(seqs):
        connection.rollback()
        return False
    connection.executemany(_SQLITE_ADD_CHANGE, rows)
    connection.commit()
    return True


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


__all__ = ["Append", "Appender", "append_postgres", "append_sqlite"]
