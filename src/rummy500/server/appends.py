"""A batch of moves stored through the database's driver directly, bypassing SQLAlchemy's
execute on the path every move takes (:meth:`.store.Store.append`): its CPU, and on SQLite
the calls to aiosqlite's thread, cost more than the statements themselves."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite
from sqlalchemy.ext.asyncio import AsyncEngine

from .live import Change
from .messages import NOTIFY_CHANNEL, Changed, encode

_SQLITE_SET_SEQ = "UPDATE tables SET seq = ?, status = ?, updated = ? WHERE id = ? AND seq = ?"
_SQLITE_ADD_CHANGE = ("INSERT INTO changes (table_id, seq, seat, move, at, standin, spent) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?)")
""":data:`.store._SET_SEQ` and the insert of :func:`.store._change_row`, as SQLite's
driver takes them."""

_PG_LOCK = "SELECT id FROM tables WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE"
_PG_SET_SEQ = ("UPDATE tables SET seq = w.seq, status = w.status, updated = $5 "
               "FROM unnest($1::text[], $2::int[], $3::int[], $4::text[]) "
               "AS w(id, after, seq, status) "
               "WHERE tables.id = w.id AND tables.seq = w.after RETURNING tables.id")
_PG_ADD_CHANGES = ("INSERT INTO changes (table_id, seq, seat, move, at, standin, spent) "
                   "SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::text[], "
                   "$5::float8[], $6::int[], $7::float8[])")
_PG_NOTIFY = "SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p"
"""The batch of appends in PostgreSQL, one statement for each step (asyncpg's form)."""


@dataclass(frozen=True, slots=True)
class Append:
    """One table's changes waiting for the next commit, and who waits for it."""

    table_id: str
    after: int
    made: tuple[Change, ...]
    status: str
    future: asyncio.Future[bool]


async def append_sqlite(engine: AsyncEngine, batch: Sequence[Append], now: float) -> bool:
    """SQLite: the whole batch stored and committed if every table is still where it
    follows (False: none is, and the caller goes table by table). Written to the
    driver directly, all of it in one call to its thread: each call costs a hand-off
    to the thread and back (more CPU than the statements), and SQLAlchemy's execute
    makes sixteen (a cursor made and closed for each statement, the result read)."""
    seqs = [(one.made[-1].seq, one.status, now, one.table_id, one.after) for one in batch]
    rows = [(one.table_id, c.seq, c.seat, c.move, now, 1 if c.standin else None,
             c.spent or None) for one in batch for c in one.made]
    async with engine.connect() as conn:
        database = (await conn.get_raw_connection()).driver_connection
        assert isinstance(database, aiosqlite.Connection)
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


async def append_postgres(engine: AsyncEngine, batch: Sequence[Append],
                      now: float) -> list[bool]:
    """PostgreSQL: each append whose table is still where it follows, stored in one
    transaction of five statements whatever the batch's size, written to the driver
    directly (SQLAlchemy's execute costs more CPU than the statement): the tables'
    rows locked in the order of their ids (as in every process: no deadlock), moved
    on where they still are, then those tables' changes and notifications."""
    order = sorted(batch, key=lambda one: one.table_id)
    async with engine.connect() as conn:
        database = (await conn.get_raw_connection()).driver_connection
        assert database is not None
        async with database.transaction():
            await database.execute(_PG_LOCK, [one.table_id for one in order])
            moved = {row[0] for row in await database.fetch(
                _PG_SET_SEQ, [one.table_id for one in order],
                [one.after for one in order], [one.made[-1].seq for one in order],
                [one.status for one in order], now)}
            done = [one for one in order if one.table_id in moved]
            if done:
                rows = [(one.table_id, c) for one in done for c in one.made]
                await database.execute(
                    _PG_ADD_CHANGES, [table_id for table_id, _ in rows],
                    [c.seq for _, c in rows], [c.seat for _, c in rows],
                    [c.move for _, c in rows], [now] * len(rows),
                    [1 if c.standin else None for _, c in rows],
                    [c.spent or None for _, c in rows])
                await database.execute(_PG_NOTIFY, NOTIFY_CHANNEL, [
                    encode(Changed(one.table_id, one.made[-1].seq)) for one in done])
    return [one.table_id in moved for one in batch]


__all__ = ["Append", "append_postgres", "append_sqlite"]
