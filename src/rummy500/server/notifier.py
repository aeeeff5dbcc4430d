"""Hearing every process's changes: PostgreSQL LISTEN on the tables' channel.

A change is stored and notified in the same transaction, so a notification always
names a change that is already readable. The connection is kept: when it drops,
it is opened again and every live table catches up from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg  # type: ignore[import-untyped]

from .store import NOTIFY_CHANNEL, plain_postgres_url

log = logging.getLogger("rummy500.server")

Handler = Callable[[dict[str, Any]], Awaitable[None]]


class Listener:
    def __init__(self, url: str, handler: Handler, on_reconnect: Callable[[], Awaitable[None]]
                 | None = None) -> None:
        self.url = plain_postgres_url(url)
        self.handler = handler
        self.on_reconnect = on_reconnect
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.worker: asyncio.Task[None] | None = None
        self.connection: Any = None
        self.ready = asyncio.Event()

    async def start(self) -> None:
        self.worker = asyncio.ensure_future(self._work())
        self.task = asyncio.ensure_future(self._listen())
        await asyncio.wait_for(self.ready.wait(), 30)

    async def stop(self) -> None:
        for task in (self.task, self.worker):
            if task is not None:
                task.cancel()
        if self.connection is not None:
            with contextlib.suppress(Exception):
                await self.connection.close(timeout=2)

    def _heard(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        try:
            data = json.loads(payload)
        except ValueError:
            return
        if isinstance(data, dict):
            self.queue.put_nowait(data)

    async def _listen(self) -> None:
        first = True
        while True:
            try:
                self.connection = await asyncpg.connect(self.url)
                await self.connection.add_listener(NOTIFY_CHANNEL, self._heard)
                self.ready.set()
                if not first and self.on_reconnect is not None:
                    await self.on_reconnect()
                first = False
                while not self.connection.is_closed():
                    await asyncio.sleep(1)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("listening to PostgreSQL failed (%s); trying again", error)
            await asyncio.sleep(1)

    async def _work(self) -> None:
        while True:
            data = await self.queue.get()
            try:
                await self.handler(data)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("handling a notification failed")
