"""The moves of many tables stored in one commit (a group commit).

Appends that arrive while a commit is under way are committed together in the next
transaction: one commit for many tables, each caller answered after that commit. While
other tables' moves come in, a commit also waits ``GATHER_S`` for more to share it: a
commit costs more CPU than the moves it stores (a hand-off to SQLite's thread and back,
or a round trip to PostgreSQL, and a wake of the event loop for its outcome), and at a
few hundred moves a second most commits would otherwise hold one or two moves. The
wait ends early only when the batch is full. A table played alone never waits: its next
move comes only once this one is stored.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

from .appends import Append
from .live import Change

BATCH_LIMIT = 256
"""Appends committed together in one transaction at most."""
GATHER_S = 0.005
GATHER_WHEN_S = 0.01
"""A commit waits ``GATHER_S`` for more appends when another table (one with no append
waiting) appended in the last ``GATHER_WHEN_S``: CPU traded for a few milliseconds of
each move's answer (the README's "The server under load" gives the measured trade)."""


class GroupCommit:
    """Appends waiting for the next commit, committed a batch at a time by ``commit``
    (each append's outcome: stored, or not because its table moved on)."""

    def __init__(self, commit: Callable[[Sequence[Append]], Awaitable[list[bool]]]) -> None:
        self.commit = commit
        self._pending: list[Append] = []
        self._writer: asyncio.Task[None] | None = None
        self._recent: dict[str, float] = {}
        """The tables that appended in the last ``GATHER_WHEN_S``, and when."""
        self._gathering: asyncio.Future[None] | None = None
        """Set while a batch waits for more: a full batch ends the wait."""

    async def append(self, table_id: str, after: int, made: Sequence[Change],
                     status: str) -> bool:
        """Store ``made`` if the table's last change is still ``after``; False if not.
        Returns once the change is committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bool] = loop.create_future()
        self._pending.append(Append(table_id, after, tuple(made), status, future))
        self._recent[table_id] = loop.time()
        gathering = self._gathering
        if (gathering is not None and len(self._pending) >= BATCH_LIMIT
                and not gathering.done()):
            gathering.set_result(None)
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_pending())
        return await future

    async def _write_pending(self) -> None:
        """Commit waiting appends, a batch at a time, until none waits."""
        while self._pending:
            if len(self._pending) < BATCH_LIMIT and self._others_moving():
                await self._gather()
            batch = self._pending[:BATCH_LIMIT]
            del self._pending[:BATCH_LIMIT]
            try:
                outcomes: list[bool | BaseException] = list(await self.commit(batch))
            except asyncio.CancelledError:
                for one in batch:
                    if not one.future.done():
                        one.future.cancel()
                raise
            except Exception:
                # One bad append must not fail the others: each on its own.
                outcomes = []
                for one in batch:
                    try:
                        outcomes.extend(await self.commit([one]))
                    except Exception as error:
                        outcomes.append(error)
            for one, outcome in zip(batch, outcomes, strict=True):
                if one.future.done():
                    continue
                if isinstance(outcome, BaseException):
                    one.future.set_exception(outcome)
                else:
                    one.future.set_result(outcome)

    async def _gather(self) -> None:
        """Wait ``GATHER_S``, or until the batch is full, for more appends to share the
        commit."""
        loop = asyncio.get_running_loop()
        self._gathering = gathering = loop.create_future()
        timer = loop.call_later(GATHER_S, _end, gathering)
        try:
            await gathering
        finally:
            timer.cancel()
            self._gathering = None

    def _others_moving(self) -> bool:
        """Whether a table with no append waiting appended in the last ``GATHER_WHEN_S``
        (the tables that did not are forgotten)."""
        since = asyncio.get_running_loop().time() - GATHER_WHEN_S
        waiting = {one.table_id for one in self._pending}
        others = False
        for table_id, when in list(self._recent.items()):
            if when < since:
                del self._recent[table_id]
            elif table_id not in waiting:
                others = True
        return others


def _end(waiting: asyncio.Future[None]) -> None:
    if not waiting.done():
        waiting.set_result(None)


__all__ = ["BATCH_LIMIT", "GATHER_S", "GATHER_WHEN_S", "GroupCommit"]
