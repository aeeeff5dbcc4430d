"""Helpers of the talk, pacing and undo tests: waiting for a kind of frame, and the
serve processes of a test (two on PostgreSQL, so that what crosses processes is tried;
one on SQLite)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from typing import Any

from rummy500.net.client import TableConnection
from serverkit import ServerProcess, Servers

_ids = itertools.count(1)


async def frame_of(connection: TableConnection, kind: str, timeout: float = 30.0,
                   where: Callable[[dict[str, Any]], bool] = lambda frame: True,
                   ) -> dict[str, Any]:
    """The next frame of type ``kind`` (that ``where`` accepts), reading the others."""
    async def read() -> dict[str, Any]:
        while True:
            frame = await connection.next()
            if frame.get("type") == kind and where(frame):
                return frame

    return await asyncio.wait_for(read(), timeout)


async def send(connection: TableConnection, kind: str, **fields: Any) -> str:
    """Send a talk frame (``chat``, ``react``, ``continue``, ``undo``): its client id."""
    client_id = f"t{next(_ids)}"
    await connection.send({"type": kind, "id": client_id, **fields})
    return client_id


async def answer_to(connection: TableConnection, client_id: str,
                    timeout: float = 30.0) -> dict[str, Any]:
    """The ``ack`` or ``refused`` of the frame ``client_id`` (or an ``error``)."""
    return await asyncio.wait_for(_answer(connection, client_id), timeout)


async def _answer(connection: TableConnection, client_id: str) -> dict[str, Any]:
    while True:
        frame = await connection.next()
        if frame.get("type") == "error" or (frame.get("id") == client_id
                                            and frame.get("type") in ("ack", "refused")):
            return frame


def processes(servers: Servers, database_url: str, **options: Any) -> tuple[ServerProcess,
                                                                            ServerProcess]:
    """Two serve processes of one PostgreSQL database, or the one process of a SQLite file
    (given twice)."""
    first = servers.start(database_url, **options)
    if database_url.startswith("sqlite"):
        return first, first
    return first, servers.start(database_url, **options)
