"""The routes an operator's tools call on the tables' port: ``/healthz`` (the process
answers) and ``/readyz`` (it can serve tables: its database answers, its disk is not full,
its database file is not damaged). The metrics are on a port of their own
(:func:`.metrics.serve_metrics`), never this one.

A load balancer or orchestrator restarts a process whose ``/healthz`` fails and sends
no players to one whose ``/readyz`` fails; a database that is down makes every
process unready but none of them dead, since restarting them would not help.

:class:`Health` learns of a full disk or a damaged database from every statement that
fails (SQLAlchemy's ``handle_error``, whichever part of the server ran it), logs each
such fault once, and keeps ``/readyz`` at 503 while it stands. With SQLite it also looks
at the free space of the database's disk at each ``/readyz``, and runs SQLite's
``quick_check`` now and then, apart from the tables' connection.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from .guard import DAMAGED, FULL, storage_fault
from .store import Store

log = logging.getLogger("rummy500.server")

READY_TIMEOUT = 2.0
"""Seconds the database has to answer ``/readyz``."""
MIN_FREE_BYTES = 1024 * 1024
"""Below this much free space on a SQLite database's disk, the disk counts as full."""
FULL_HOLD_S = 10.0
"""A full disk is reported until this long has passed without another "disk full" (and,
with SQLite, until the disk has room again)."""
QUICK_CHECK_EVERY_S = 600.0
"""How often ``/readyz`` has SQLite check its file's structure (in a thread, read only)."""

HEADERS = {"Cache-Control": "no-store"}
"""Never kept by a cache (the guard adds the security headers, as to every answer)."""

CAUSES = {FULL: "the disk that holds the database is full",
          DAMAGED: "the database file is damaged (restore it from a backup)"}
MENDED = {FULL: "the disk that holds the database has room again",
          DAMAGED: "the database file checks sound again"}


class Health:
    """Faults of the database that waiting a moment does not mend, as ``/readyz`` reports
    them: each logged once when it begins, and once when it ends."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.faults: dict[str, str] = {}
        """Fault kind → what the database said."""
        self.last_full = 0.0
        self.path: Path | None = None
        if not store.postgres:
            database = make_url(store.url).database
            self.path = Path(database).expanduser() if database else None
        self._checked = -QUICK_CHECK_EVERY_S
        self._check: asyncio.Future[str | None] | None = None
        self._filter = _Repeats(self)
        event.listen(store.engine.sync_engine, "handle_error", self._failed)
        logging.getLogger("rummy500.server").addFilter(self._filter)

    def close(self) -> None:
        event.remove(self.store.engine.sync_engine, "handle_error", self._failed)
        logging.getLogger("rummy500.server").removeFilter(self._filter)

    def _failed(self, context: Any) -> None:
        self.saw(context.original_exception)

    def saw(self, error: BaseException) -> None:
        """A statement failed with ``error``: a fault begins if it is one."""
        fault = storage_fault(error)
        if fault == FULL:
            self.last_full = time.monotonic()
        if fault is not None:
            self._begin(fault, str(error).splitlines()[0][:200])

    def _begin(self, fault: str, said: str) -> None:
        if fault not in self.faults:
            self.faults[fault] = said
            log.error("not ready: %s (%s)", CAUSES[fault], said)

    def _end(self, fault: str) -> None:
        if self.faults.pop(fault, None) is not None:
            log.warning("ready again: %s", MENDED[fault])

    def free_bytes(self) -> int | None:
        """Free space on a SQLite database's disk (None for PostgreSQL)."""
        if self.path is None:
            return None
        try:
            found = os.statvfs(self.path.parent)
        except OSError:
            return None
        return found.f_bavail * found.f_frsize

    async def problems(self) -> list[str]:
        """What keeps the process from serving tables now (empty: ready)."""
        free = self.free_bytes()
        if free is not None and free < MIN_FREE_BYTES:
            self._begin(FULL, f"{free // 1024} KiB free")
        elif FULL in self.faults and time.monotonic() - self.last_full > FULL_HOLD_S:
            self._end(FULL)
        self._quick_check()
        return [f"{CAUSES[fault]}: {said}" for fault, said in self.faults.items()]

    def _quick_check(self) -> None:
        """Start SQLite's quick_check if its last one is old (its outcome counts from the
        next ``/readyz``: none waits for it)."""
        if self.path is None or (self._check is not None and not self._check.done()):
            return
        now = time.monotonic()
        if now - self._checked < QUICK_CHECK_EVERY_S:
            return
        self._checked = now
        self._check = asyncio.ensure_future(asyncio.to_thread(_quick_check, self.path))
        self._check.add_done_callback(self._checked_file)

    def _checked_file(self, done: asyncio.Future[str | None]) -> None:
        if done.cancelled() or done.exception() is not None:
            return
        said = done.result()
        if said is not None:
            self._begin(DAMAGED, said)


def _quick_check(path: Path) -> str | None:
    """SQLite's verdict on its file, on a connection of its own: None if sound."""
    try:
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=5)
        try:
            rows = conn.execute("PRAGMA quick_check(3)").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as error:
        return str(error) if storage_fault(error) == DAMAGED else None
    said = "; ".join(str(row[0]) for row in rows)
    return None if said == "ok" else said[:200]


class _Repeats(logging.Filter):
    """Drops the server's own log lines about a fault :class:`Health` has logged already (a
    full disk fails every table's store, again at each try)."""

    def __init__(self, health: Health) -> None:
        super().__init__()
        self.health = health

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, tuple) else ()
        errors = [arg for arg in args if isinstance(arg, BaseException)]
        if record.exc_info and record.exc_info[1] is not None:
            errors.append(record.exc_info[1])
        for error in errors:
            fault = storage_fault(error)
            if fault is not None:
                self.health.saw(error)
                return False
        return True


def ops_routes(store: Store, health: Health | None = None) -> list[BaseRoute]:
    """``GET /healthz`` and ``GET /readyz`` for the tables in ``store``."""

    async def healthz(_request: Request) -> Response:
        return JSONResponse({"ok": True}, headers=HEADERS)

    async def readyz(_request: Request) -> Response:
        if not await store.ping(READY_TIMEOUT):
            return JSONResponse({"error": "unavailable",
                                 "message": "the database does not answer"},
                                status_code=503, headers=HEADERS)
        problems = [] if health is None else await health.problems()
        if problems:
            return JSONResponse({"error": "unavailable", "message": "; ".join(problems)},
                                status_code=503, headers=HEADERS)
        return JSONResponse({"ok": True}, headers=HEADERS)

    return [
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
    ]


__all__ = ["FULL_HOLD_S", "MIN_FREE_BYTES", "READY_TIMEOUT", "Health", "ops_routes"]
