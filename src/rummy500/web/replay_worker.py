"""Replays of posted records, made in a worker process so that no table waits for them
(:class:`rummy500.server.children.ChildPool`).

The server's replays go through one pool of :data:`REPLAY_WORKERS` child(ren):
:func:`start` it when the application starts (or let the first replay start it) and
:func:`close` it when the application stops.
"""

from __future__ import annotations

import atexit
import time

from ..server import metrics
from ..server.children import (
    Busy,
    ChildPool,
    DeadlineExceeded,
    OutOfMemory,
    PoolError,
)
from ..server.settings import ServerSettings
from .replay import ReplayAnswer, answer_request

REPLAY_WORKERS = 1
"""Replays made at a time, server-wide (the others wait their turn)."""
REPLAY_WAITING = 16
"""Replays that may wait for a worker; more are refused ``busy`` at once."""
REPLAY_MEMORY = 512 * 1024 * 1024
"""The address space of a replay worker (the largest replay allowed peaks under 60 MB)."""


# -- the server's replays ---------------------------------------------------------------------

_replays: ChildPool | None = None


def start(workers: int = REPLAY_WORKERS) -> ChildPool:
    """The replay pool, started now (call it when the application starts)."""
    global _replays
    if _replays is None:
        _replays = ChildPool(size=workers, max_waiting=REPLAY_WAITING,
                             memory_limit=REPLAY_MEMORY, preload=("rummy500.web.replay",))
        atexit.unregister(close)
        atexit.register(close)
    _replays.start()
    return _replays


def close() -> None:
    """Stop the replay pool's workers (call it when the application stops)."""
    global _replays
    if _replays is not None:
        _replays.close()
        _replays = None


async def replay(body: bytes, settings: ServerSettings, *, gzip_ok: bool) -> ReplayAnswer:
    """The answer to ``POST /api/replay`` with ``body``, made in a worker process within
    ``settings.replay_timeout_s``: the replay (200), a refusal of the record (400, 422),
    or 503 when no worker is free in that time or the replay ran over it."""
    pool = _replays if _replays is not None else start()
    began = time.monotonic()
    try:
        answer = await pool.run(answer_request, body, settings.replay_max_deals, gzip_ok,
                                timeout=settings.replay_timeout_s,
                                wait=settings.replay_timeout_s)
    except PoolError as error:
        answer = _pool_refusal(error, settings)
    outcome = _OUTCOMES.get(answer.code, "bad_record")
    metrics.replayed(outcome, None if outcome == "busy" else time.monotonic() - began)
    if answer.code in _LIMITS:
        metrics.limit_hit(_LIMITS[answer.code])
    return answer


def _pool_refusal(error: PoolError, settings: ServerSettings) -> ReplayAnswer:
    if isinstance(error, Busy):
        return ReplayAnswer.refusal(503, "busy", "the server is making other replays; "
                                                 "try again in a moment")
    if isinstance(error, DeadlineExceeded):
        return ReplayAnswer.refusal(
            503, "timeout", f"the replay took longer than {settings.replay_timeout_s:g} s "
                            "and was stopped: send fewer deals, or try again later")
    if isinstance(error, OutOfMemory):
        return ReplayAnswer.refusal(422, "too_long", "this record needs more memory to "
                                                     "replay than the server allows")
    return ReplayAnswer.refusal(503, "unavailable", "the replay failed on the server; "
                                                    "try again later")


_OUTCOMES = {"ok": "ok", "too_many_deals": "too_many_deals", "too_long": "too_large",
             "timeout": "timeout", "busy": "busy", "unavailable": "failed"}
"""rummy500_replays_total's outcome for each answer's code (any other: ``bad_record``)."""
_LIMITS = {"too_many_deals": "replay_max_deals", "timeout": "replay_timeout"}


def count_refusal(outcome: str, limit: str) -> None:
    """A replay refused by ``limit`` before it reached a worker (its size, its address's
    rate)."""
    metrics.replayed(outcome)
    metrics.limit_hit(limit)


__all__ = ["REPLAY_MEMORY", "REPLAY_WAITING", "REPLAY_WORKERS", "close", "count_refusal",
           "replay", "start"]
