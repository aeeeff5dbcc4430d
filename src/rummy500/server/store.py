"""The tables' database (SQLAlchemy 2, async): tables, seats with hashed tokens, and each
table's changes in order.

Every change is committed before anyone hears of it. The order of one table's
changes is kept by the database: a change is stored only if the table's ``seq`` is
still the one it follows (compare and set), and ``(table_id, seq)`` is the primary
key of the changes, so two processes can never both store change ``n``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    and_,
    bindparam,
    event,
    func,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from .appends import Append as _Append
from .appends import Appender
from .cleaning import name_clash
from .database import (
    async_url,
    changes,
    chat,
    private_sqlite_files,
    ready,
    seats,
    sqlite_pragmas,
    sqlite_reset,
    tables,
)
from .group_commit import GroupCommit
from .live import BOT, OVER, PLAYING, WAITING, Change, Seat, Spec
from .messages import NOTIFY_CHANNEL, Changed, Message, NextTable, encode

log = logging.getLogger("rummy500.server")

CONNECT_TIMEOUT_S = 10.0
"""A PostgreSQL connection not made by then is a failure (the request answers
``unavailable``) rather than a wait."""

_SET_SEQ = (update(tables)
            .where(tables.c.id == bindparam("b_id"), tables.c.seq == bindparam("b_after"))
            .values(seq=bindparam("b_seq"), status=bindparam("b_status"),
                    updated=bindparam("b_now")))


def _sqlite_engine(url: str) -> AsyncEngine:
    """An engine of one SQLite connection, for one writer at a time (waiting in Python for
    its turn is cheaper than retrying a busy database). A connection back in the pool is
    rolled back only if a transaction is open (rolling back none does nothing but costs
    a call to aiosqlite's thread)."""
    engine = create_async_engine(url, pool_size=1, max_overflow=0, pool_reset_on_return=None)
    event.listen(engine.sync_engine, "connect", sqlite_pragmas)
    event.listen(engine.sync_engine, "reset", sqlite_reset)
    return engine


@dataclass(frozen=True, slots=True)
class Stored:
    """One table as the database holds it."""

    spec: Spec
    seats: list[Seat]
    changes: list[Change]
    seq: int
    next_table: str | None = None
    """The table of the next game (``POST /api/tables/<id>/again``), once someone asked."""


class Store:
    """The database of tables; ``url`` is ``sqlite:///PATH`` or ``postgresql://…``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: AsyncEngine
        self._group = GroupCommit(self._append_batch)
        self.postgres = make_url(url).get_backend_name() in ("postgresql", "postgres")
        self._ping: asyncio.Task[bool] | None = None
        if self.postgres:
            # After the database restarts, every pooled connection is dead: each is tried
            # (a cheap ping) as it leaves the pool, and a dead one is replaced, so only a
            # request already under way when the database went down meets the failure.
            self.engine = create_async_engine(
                async_url(url), pool_size=10, max_overflow=10, pool_pre_ping=True,
                connect_args={"timeout": CONNECT_TIMEOUT_S})
            self.appender = Appender(self.engine, postgres=True)
        else:
            engine_url = async_url(url)  # checks that it names a file
            private_sqlite_files(make_url(engine_url).database or "")
            # The moves' batches through a connection of their own (:class:`.Appender`),
            # everything else through the other.
            self.engine = _sqlite_engine(engine_url)
            self.appender = Appender(_sqlite_engine(engine_url), postgres=False)

    async def open(self) -> None:
        """Create or migrate the schema (Alembic)."""
        from .migrations import upgrade

        async with self.engine.begin() as conn:
            if self.postgres:
                await conn.execute(text("SELECT pg_advisory_xact_lock(500500)"))
            await conn.run_sync(_run_upgrade, upgrade)

    async def close(self) -> None:
        await self.appender.close()
        await self.engine.dispose()
        if self.appender.engine is not self.engine:
            await self.appender.engine.dispose()

    async def ping(self, timeout: float) -> bool:
        """Whether the database answers ``SELECT 1`` within ``timeout`` seconds (for
        ``/readyz``). The query is not cancelled when time is up (a query cut off midway
        can spoil its pooled connection): the next ping waits for the same one."""
        if self._ping is None or self._ping.done():
            self._ping = asyncio.ensure_future(self._select_one())
        try:
            return await asyncio.wait_for(asyncio.shield(self._ping), timeout)
        except TimeoutError:
            return False

    async def _select_one(self) -> bool:
        try:
            async with self.engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
        except Exception:
            return False
        return True

    # -- writing ----------------------------------------------------------------------------

    async def create(self, table_id: str, spec: Spec, seat_rows: Sequence[Seat],
                     made: Sequence[Change], *, creator: str | None = None) -> None:
        async with self.engine.begin() as conn:
            await self._insert_table(conn, table_id, spec, seat_rows, made, creator)

    async def _insert_table(self, conn: AsyncConnection, table_id: str, spec: Spec,
                            seat_rows: Sequence[Seat], made: Sequence[Change],
                            creator: str | None = None) -> None:
        now = time.time()
        seq = made[-1].seq if made else 0
        await conn.execute(tables.insert().values(
            id=table_id, spec=json.dumps(spec.to_data()), seq=seq,
            status=PLAYING if made else WAITING, created=now, updated=now, creator=creator))
        await conn.execute(seats.insert(), [
            {"table_id": table_id, "seat": s.seat, "kind": s.kind, "bot": s.bot,
             "name": s.name, "token_hash": s.token_hash, "kept_for": s.kept_for,
             "kept_until": s.kept_until} for s in seat_rows])
        if made:
            await self._insert_changes(conn, table_id, made, now)

    async def create_next(self, old_id: str, table_id: str, spec: Spec,
                          seat_rows: Sequence[Seat], made: Sequence[Change], *,
                          creator: str | None = None) -> str | None:
        """Create ``table_id`` as the next game of ``old_id``, unless someone did first
        (compare and set on ``next_table IS NULL``, with the new table in the same
        transaction): the id of the next table, ours or the winner's; None if there is
        no table ``old_id``. ``creator``: who asked (counted by :meth:`made_by`)."""
        async with self.engine.connect() as conn:
            done = await conn.execute(
                update(tables).where(tables.c.id == old_id, tables.c.next_table.is_(None))
                .values(next_table=table_id))
            if done.rowcount == 1:
                await self._insert_table(conn, table_id, spec, seat_rows, made, creator)
                await self._notify(conn, encode(NextTable(old_id, table_id)))
                await conn.commit()
                return table_id
            await conn.rollback()  # another request won: its table is the next one
            row = (await conn.execute(
                select(tables.c.next_table).where(tables.c.id == old_id))).first()
            await conn.rollback()
        return None if row is None else row.next_table

    async def take_seat(self, table_id: str, seat: int, name: str, token_hash: str, *,
                        holder: str | None = None) -> tuple[str, list[Change]]:
        """Seat a person: ``("ok", the first deal's changes or [])``, ``("taken", [])``,
        ``("reserved", [])`` (kept for someone else), ``("name_taken", [])`` (another
        person at the table has that name, or one like it: :func:`.cleaning.name_clash`)
        or ``("unknown", [])``. The first deal is stored with the last seat taken (and the
        moves the table starts with: :attr:`.live.Spec.prefix`).
        ``holder``: the token hash of the person the seat may be kept for."""
        now = time.time()
        async with self.engine.begin() as conn:
            row = (await conn.execute(
                select(tables.c.seq, tables.c.status, tables.c.spec)
                .where(tables.c.id == table_id).with_for_update())).first()
            if row is None:
                return "unknown", []
            if name and holder is None:  # a kept seat keeps the name it had
                others = await conn.execute(
                    select(seats.c.name).where(seats.c.table_id == table_id,
                                               seats.c.seat != seat, seats.c.kind != BOT))
                if name_clash(name, [other.name for other in others]):
                    # The table's row is locked: two people cannot both take one name.
                    return "name_taken", []
            free = or_(seats.c.kept_for.is_(None), seats.c.kept_until < now)
            if holder is not None:
                free = or_(free, seats.c.kept_for == holder)
            done = await conn.execute(
                update(seats).where(seats.c.table_id == table_id, seats.c.seat == seat,
                                    seats.c.kind != BOT, seats.c.token_hash.is_(None), free)
                .values(name=name, token_hash=token_hash, kept_for=None, kept_until=None))
            if done.rowcount != 1:
                kept = (await conn.execute(
                    select(seats.c.seat).where(seats.c.table_id == table_id,
                                               seats.c.seat == seat,
                                               seats.c.token_hash.is_(None)))).first()
                return ("reserved" if kept is not None else "taken"), []
            still_open = (await conn.execute(
                select(seats.c.seat).where(seats.c.table_id == table_id, seats.c.kind != BOT,
                                           seats.c.token_hash.is_(None)))).first()
            start: list[Change] = []
            if still_open is None and row.status == WAITING:
                spec = Spec.from_data(json.loads(row.spec))
                start = [Change(row.seq + 1), *spec.prefix_changes(row.seq + 1)]
                await self._insert_changes(conn, table_id, start, now)
                await conn.execute(update(tables).where(tables.c.id == table_id)
                                   .values(seq=start[-1].seq, status=PLAYING, updated=now))
            await self._notify(conn, encode(Changed(table_id, start[-1].seq if start else row.seq,
                                                    seats=True)))
        return "ok", start

    async def leave(self, table_id: str, seat: int, holder: str, left: Change,
                    bot: str) -> bool:
        """The person of ``seat`` (``holder`` their token's hash) leaves the table for good:
        ``bot`` plays the seat from now on, their token acts no more, and ``left`` (the
        change that says so) is stored after the table's last change, all or nothing.
        False if the seat is not theirs or the table moved on first."""
        now = time.time()
        async with self.engine.connect() as conn:
            moved = await conn.execute(_SET_SEQ, {"b_id": table_id, "b_after": left.seq - 1,
                                                  "b_seq": left.seq, "b_status": PLAYING,
                                                  "b_now": now})
            if moved.rowcount != 1:
                await conn.rollback()
                return False
            done = await conn.execute(
                update(seats).where(seats.c.table_id == table_id, seats.c.seat == seat,
                                    seats.c.token_hash == holder)
                .values(kind=BOT, bot=bot, token_hash=None, left_at=now))
            if done.rowcount != 1:
                await conn.rollback()
                return False
            await self._insert_changes(conn, table_id, [left], now)
            await self._notify(conn, encode(Changed(table_id, left.seq, seats=True)))
            await conn.commit()
        return True

    async def append(self, table_id: str, after: int, made: Sequence[Change],
                     status: str) -> bool:
        """Store ``made`` if the table's last change is still ``after``; False if not.
        Returns once the change is committed, with other tables' (:mod:`.group_commit`)."""
        return await self._group.append(table_id, after, made, status)

    async def _append_batch(self, batch: Sequence[_Append]) -> list[bool]:
        """Store each append whose table is still where it follows, in one transaction."""
        now = time.time()
        stored = await self.appender.store(batch, now)
        if stored is not None:
            return stored
        async with self.engine.connect() as conn:  # some table moved on: one by one
            stored = await self._compare_and_set(conn, batch, now)
            done = [one for one, ok in zip(batch, stored, strict=True) if ok]
            if done:
                await conn.execute(changes.insert(), [
                    _change_row(one.table_id, c, now) for one in done for c in one.made])
            await conn.commit()
        return stored

    async def _compare_and_set(self, conn: AsyncConnection, batch: Sequence[_Append],
                               now: float) -> list[bool]:
        """Move each table's ``seq`` on if it is still ``after``: which ones moved."""
        # Rows are locked in the order of their ids, the same in every process, so two
        # processes' batches never wait for each other in a circle (a deadlock).
        stored = [False] * len(batch)
        for index in sorted(range(len(batch)), key=lambda i: batch[i].table_id):
            one = batch[index]
            done = await conn.execute(_SET_SEQ, {
                "b_id": one.table_id, "b_after": one.after, "b_seq": one.made[-1].seq,
                "b_status": one.status, "b_now": now})
            stored[index] = done.rowcount == 1
        return stored

    async def _insert_changes(self, conn: AsyncConnection, table_id: str,
                              made: Sequence[Change], now: float) -> None:
        await conn.execute(changes.insert(), [_change_row(table_id, c, now) for c in made])

    async def _notify(self, conn: AsyncConnection, payload: str) -> None:
        if self.postgres:
            await conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                               {"channel": NOTIFY_CHANNEL, "payload": payload})

    async def notify(self, message: Message) -> None:
        """Tell every process something that is not stored (who is connected)."""
        if self.postgres:
            async with self.engine.begin() as conn:
                await self._notify(conn, encode(message))

    # -- reading ----------------------------------------------------------------------------

    async def load(self, table_id: str) -> Stored | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(
                select(tables.c.spec, tables.c.seq, tables.c.next_table)
                .where(tables.c.id == table_id))).first()
            if row is None:
                return None
            seat_rows = await self._seats(conn, table_id)
            stored = await self._changes(conn, table_id, 0)
        return Stored(Spec.from_data(json.loads(row.spec)), seat_rows, stored, row.seq,
                      row.next_table)

    async def release(self, table_id: str, holder: str) -> bool:
        """The seat of ``table_id`` kept for ``holder`` is kept no longer (they declined)."""
        async with self.engine.begin() as conn:
            done = await conn.execute(
                update(seats).where(seats.c.table_id == table_id, seats.c.kept_for == holder,
                                    seats.c.token_hash.is_(None))
                .values(kept_for=None, kept_until=None))
            if done.rowcount:
                await self._notify(conn, encode(Changed(table_id, -1, seats=True)))
        return bool(done.rowcount)

    async def exists(self, table_id: str) -> bool:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tables.c.id).where(tables.c.id == table_id))).first()
        return row is not None

    async def creator_of(self, table_id: str, *, back: int = 16) -> str | None:
        """Who made ``table_id`` (the hash of their address), or None if nobody is known:
        for a Play again table stored without one, the maker of the game it follows (at
        most ``back`` games back)."""
        async with self.engine.connect() as conn:
            for _ in range(back + 1):
                row = (await conn.execute(select(tables.c.creator).where(
                    tables.c.id == table_id))).first()
                if row is None:
                    return None
                if row.creator is not None:
                    return str(row.creator)
                before = (await conn.execute(select(tables.c.id).where(
                    tables.c.next_table == table_id).limit(1))).first()
                if before is None:
                    return None
                table_id = before.id
        return None

    async def made_by(self, creator: str, since: float) -> tuple[int, int]:
        """How many tables ``creator`` made since ``since``, and how many of theirs are
        unfinished."""
        async with self.engine.connect() as conn:
            recent = (await conn.execute(
                select(func.count()).select_from(tables)
                .where(tables.c.creator == creator, tables.c.created >= since))).scalar_one()
            unfinished = (await conn.execute(
                select(func.count()).select_from(tables)
                .where(tables.c.creator == creator, tables.c.status != OVER))).scalar_one()
        return int(recent), int(unfinished)

    async def prune(self, *, finished_before: float, idle_before: float,
                    limit: int = 500) -> list[str]:
        """Delete finished tables last changed before ``finished_before`` and unfinished
        ones last changed before ``idle_before`` (at most ``limit`` at a time, their seats
        and changes with them): their ids."""
        async with self.engine.begin() as conn:
            old = or_(and_(tables.c.status == OVER, tables.c.updated < finished_before),
                      and_(tables.c.status != OVER, tables.c.updated < idle_before))
            gone = [row.id for row in await conn.execute(
                select(tables.c.id).where(old).limit(limit))]
            if gone:
                await conn.execute(chat.delete().where(chat.c.table_id.in_(gone)))
                await conn.execute(ready.delete().where(ready.c.table_id.in_(gone)))
                await conn.execute(changes.delete().where(changes.c.table_id.in_(gone)))
                await conn.execute(seats.delete().where(seats.c.table_id.in_(gone)))
                await conn.execute(tables.delete().where(tables.c.id.in_(gone)))
        return gone

    async def seats_of(self, table_id: str) -> list[Seat]:
        async with self.engine.connect() as conn:
            return await self._seats(conn, table_id)

    async def changes_after(self, table_id: str, seq: int) -> list[Change]:
        async with self.engine.connect() as conn:
            return await self._changes(conn, table_id, seq)

    async def playing(self) -> list[str]:
        """The tables whose game goes on."""
        async with self.engine.connect() as conn:
            result = await conn.execute(select(tables.c.id).where(tables.c.status == PLAYING))
            return [row.id for row in result]

    async def _seats(self, conn: AsyncConnection, table_id: str) -> list[Seat]:
        result = await conn.execute(
            select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat))
        return [Seat(row.seat, row.kind, row.bot, row.name, row.token_hash, row.kept_for,
                     row.kept_until, row.left_at) for row in result]

    async def _changes(self, conn: AsyncConnection, table_id: str, after: int) -> list[Change]:
        result = await conn.execute(
            select(changes.c.seq, changes.c.seat, changes.c.move, changes.c.standin,
                   changes.c.spent)
            .where(changes.c.table_id == table_id, changes.c.seq > after)
            .order_by(changes.c.seq))
        return [Change(row.seq, row.seat, row.move, bool(row.standin), row.spent or 0.0)
                for row in result]


def _change_row(table_id: str, change: Change, now: float) -> dict[str, Any]:
    return {"table_id": table_id, "seq": change.seq, "seat": change.seat, "move": change.move,
            "at": now, "standin": 1 if change.standin else None, "spent": change.spent or None}


def _run_upgrade(conn: Connection, upgrade: Any) -> None:
    upgrade(conn)


__all__ = ["Store", "Stored"]
