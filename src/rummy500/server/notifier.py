"""Hearing every process's changes: PostgreSQL LISTEN on the tables' channel.

A change is stored and notified in the same transaction, so a notification always
names a change that is already readable. PostgreSQL does not keep notifications for
a listener that is away: whatever was said while the connection was down (the
database restarted, the network dropped) is lost. So the connection is watched (the
driver says at once when it closes, and a cheap query every few seconds finds one
that died silently), opened again with a short backoff, and after every new LISTEN
``on_reconnect`` runs: it reads back from the database whatever was missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg  # type: ignore[import-untyped]

from .database import plain_postgres_url
from .messages import NOTIFY_CHANNEL, Message, decode

log = logging.getLogger("rummy500.server")

Handler = Callable[[Message], Awaitable[None]]

CHECK_EVERY_S = 5.0
"""How often an idle listening connection is asked ``SELECT 1`` (a connection whose
server vanished without closing it tells nothing until it is used)."""
CHECK_TIMEOUT_S = 5.0
"""A check or a connect that takes longer than this counts as a dead connection."""
BACKOFF_FIRST_S = 0.05
BACKOFF_MAX_S = 2.0
"""Waits between attempts to listen again double from the first to the most."""
APPLICATION_NAME = "rummy500 listen"
"""How the listening connection names itself (``pg_stat_activity.application_name``)."""


class Listener:
    """LISTEN on the tables' channel, each message heard given to ``handler`` in order.

    ``on_reconnect`` runs after every LISTEN that follows another (a dropped connection
    opened again), and after the first one too: the tables loaded before it began may
    have missed changes. Until it has run once without failing it is tried again.
    """

    def __init__(self, url: str, handler: Handler, on_reconnect: Callable[[], Awaitable[None]]
                 | None = None) -> None:
        self.url = plain_postgres_url(url)
        self.handler = handler
        self.on_reconnect = on_reconnect
        self.queue: asyncio.Queue[Message] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.worker: asyncio.Task[None] | None = None
        self.connection: Any = None
        self.ready = asyncio.Event()
        self.reconnects = 0
        """How many times listening began again after a drop."""

    async def start(self) -> None:
        self.worker = asyncio.ensure_future(self._work())
        self.task = asyncio.ensure_future(self._listen())
        await asyncio.wait_for(self.ready.wait(), 30)

    async def stop(self) -> None:
        for task in (self.task, self.worker):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await _close(self.connection)

    def _heard(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        message = decode(payload)
        if message is not None:
            self.queue.put_nowait(message)

    async def _listen(self) -> None:
        """Listen, watch, and listen again, for as long as the server runs."""
        delay = BACKOFF_FIRST_S
        dropped_at: float | None = None
        while True:
            try:
                connection = await asyncpg.connect(
                    self.url, timeout=CHECK_TIMEOUT_S,
                    server_settings={"application_name": APPLICATION_NAME})
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if dropped_at is None:
                    dropped_at = time.monotonic()
                    log.warning("cannot listen to PostgreSQL (%s): trying again", error)
                await asyncio.sleep(delay * random.uniform(0.8, 1.2))  # jitter: processes apart
                delay = min(delay * 2, BACKOFF_MAX_S)
                continue
            self.connection = connection
            try:
                await self._session(connection, dropped_at)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("listening to PostgreSQL failed (%s)", error)
            finally:
                await _close(connection)
            dropped_at = time.monotonic()
            delay = BACKOFF_FIRST_S
            log.warning("lost the PostgreSQL connection that listens for other processes' "
                        "changes: listening again, then every table catches up")

    async def _session(self, connection: Any, dropped_at: float | None) -> None:
        """LISTEN on a new connection, catch up, and return once it is gone."""
        lost = asyncio.Event()
        connection.add_termination_listener(lambda _connection: lost.set())
        await connection.add_listener(NOTIFY_CHANNEL, self._heard)
        self.ready.set()
        if dropped_at is not None:
            self.reconnects += 1
            log.info("listening to PostgreSQL again after %.1f s: every table catches up",
                     time.monotonic() - dropped_at)
        await self._catch_up(connection, lost)
        await self._watch(connection, lost)

    async def _catch_up(self, connection: Any, lost: asyncio.Event) -> None:
        """Run ``on_reconnect`` until it succeeds (or the connection drops: then the next
        one will run it)."""
        if self.on_reconnect is None:
            return
        delay = BACKOFF_FIRST_S
        while not lost.is_set() and not connection.is_closed():
            try:
                await self.on_reconnect()
                return
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("catching the tables up after listening again failed: trying "
                            "again", exc_info=True)
            await _wait(lost, delay)
            delay = min(delay * 2, BACKOFF_MAX_S)

    async def _watch(self, connection: Any, lost: asyncio.Event) -> None:
        """Return once the connection is gone: closed (the driver tells at once) or not
        answering a cheap query."""
        while not lost.is_set() and not connection.is_closed():
            if await _wait(lost, CHECK_EVERY_S):
                return
            try:
                await connection.fetchval("SELECT 1", timeout=CHECK_TIMEOUT_S)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("the PostgreSQL connection that listens does not answer (%s)",
                            error)
                return

    async def _work(self) -> None:
        while True:
            message = await self.queue.get()
            try:
                await self.handler(message)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("handling a notification failed")


async def _wait(event: asyncio.Event, seconds: float) -> bool:
    """Wait for ``event`` at most ``seconds``: whether it was set."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), seconds)
    return event.is_set()


async def _close(connection: Any) -> None:
    if connection is None or connection.is_closed():
        return
    try:
        await connection.close(timeout=2)
    except Exception:
        connection.terminate()
