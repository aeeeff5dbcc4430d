"""What talk, pacing and undo keep in the tables' database: the last chat lines of each
table, who has said ``continue`` after each finished deal, and the taking back of
changes (an undo), each committed and announced to the other processes in one
transaction, as :class:`~rummy500.server.store.Store` does for changes.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, desc, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from .database import changes, chat, ready, tables
from .live import Change
from .messages import Changed, Ready, Said, encode
from .store import Store

HISTORY_LINES = 100
"""Chat lines kept for each table (older ones are deleted as new ones come)."""
SAY_ATTEMPTS = 5
"""Times a line is numbered again when another process took its number meanwhile."""


def iso_time(when: float) -> str:
    return datetime.fromtimestamp(when, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


class TalkStore:
    """The talk of the tables in ``store``'s database."""

    def __init__(self, store: Store, process: str) -> None:
        self.store = store
        self.process = process

    async def say(self, table_id: str, seat: int, name: str, text: str,
                  react: str | None) -> dict[str, Any]:
        """Store a line and announce it: the line as clients hear it (without ``type``).
        Its ``n`` is the table's next line number (1 for its first): two processes that
        number a line alike at once cannot both store it (a unique index), and the later
        one numbers it again."""
        for attempt in range(SAY_ATTEMPTS):
            try:
                return await self._say(table_id, seat, name, text, react)
            except IntegrityError:
                if attempt == SAY_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    async def _say(self, table_id: str, seat: int, name: str, text: str,
                   react: str | None) -> dict[str, Any]:
        now = time.time()
        async with self.store.engine.begin() as conn:
            last = (await conn.execute(
                select(func.max(chat.c.n)).where(chat.c.table_id == table_id))).scalar()
            number = (last or 0) + 1
            await conn.execute(insert(chat).values(
                table_id=table_id, seat=seat, name=name, text=text, react=react, at=now,
                n=number))
            # Keep the newest HISTORY_LINES: the line numbers only grow.
            await conn.execute(delete(chat).where(chat.c.table_id == table_id,
                                                  chat.c.n <= number - HISTORY_LINES))
            line = _line(number, seat, name, text, react, now)
            await self.store._notify(conn, encode(Said(table_id, self.process, line)))
        return line

    async def lines(self, table_id: str) -> list[dict[str, Any]]:
        """The table's last :data:`HISTORY_LINES` lines, oldest first."""
        async with self.store.engine.connect() as conn:
            rows = list(await conn.execute(
                select(chat).where(chat.c.table_id == table_id)
                .order_by(desc(chat.c.n)).limit(HISTORY_LINES)))
        return [_line(row.n, row.seat, row.name, row.text, row.react, row.at)
                for row in reversed(rows)]

    async def ready(self, table_id: str, deal: int, seat: int) -> bool:
        """``seat`` is ready after deal ``deal``: False if it had said so already."""
        try:
            async with self.store.engine.begin() as conn:
                await conn.execute(insert(ready).values(table_id=table_id, deal=deal, seat=seat,
                                                        at=time.time()))
                await self.store._notify(conn, encode(Ready(table_id, deal, seat)))
        except IntegrityError:
            return False
        return True

    async def pause_facts(self, table_id: str, deal: int) -> tuple[float | None, set[int]]:
        """When the deal in play was dealt (Unix time) and who is ready after ``deal``."""
        async with self.store.engine.connect() as conn:
            dealt = (await conn.execute(
                select(changes.c.at).where(changes.c.table_id == table_id,
                                           changes.c.move.is_(None))
                .order_by(desc(changes.c.seq)).limit(1))).scalar_one_or_none()
            seats = {row.seat for row in await conn.execute(
                select(ready.c.seat).where(ready.c.table_id == table_id, ready.c.deal == deal))}
        return dealt, seats

    async def take_back(self, table_id: str, after: int, target: int,
                        marker: Change) -> bool:
        """Delete the table's changes after ``target`` and store ``marker`` (change
        ``after + 1``), if the table is still at ``after`` (compare and set); announced
        as a change. False if the table moved on."""
        now = time.time()
        async with self.store.engine.connect() as conn:
            done = await conn.execute(
                update(tables).where(tables.c.id == table_id, tables.c.seq == after)
                .values(seq=marker.seq, updated=now))
            if done.rowcount != 1:
                await conn.rollback()
                return False
            await conn.execute(delete(changes).where(changes.c.table_id == table_id,
                                                     changes.c.seq > target))
            await conn.execute(insert(changes).values(table_id=table_id, seq=marker.seq,
                                                      seat=marker.seat, move=marker.move,
                                                      at=now))
            await self.store._notify(conn, encode(Changed(table_id, marker.seq)))
            await conn.commit()
        return True

    async def all_changes(self, table_id: str) -> Sequence[Change]:
        return await self.store.changes_after(table_id, 0)


def _line(number: int, seat: int, name: str, text: str, react: str | None,
          at: float) -> dict[str, Any]:
    line: dict[str, Any] = {"n": number, "seat": seat, "name": name, "text": text,
                            "at": iso_time(at)}
    if react is not None:
        line["react"] = react
    return line


__all__ = ["HISTORY_LINES", "TalkStore", "iso_time"]
