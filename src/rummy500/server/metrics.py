"""The server's Prometheus metrics, in a registry of their own, and the small calls the rest
of the server makes to move them (``GET /metrics``, on a port of its own, renders them;
docs/deploy.md says what to watch).

Every label takes its values from a fixed set, so no client can grow the number of
series: a refusal code, limit or replay outcome this module does not know is counted
as ``other``. Every known series exists from the start (at 0), so that ``rate()`` sees
the first event.

>>> moved("person")
>>> b'rummy500_moves_total{by="person"}' in render()[0]
True
>>> refusal_label("no such code")
'other'
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import Literal, get_args

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
)

from ..session.refusal import (
    BAD_MOVE,
    ILLEGAL,
    NOT_SEATED,
    NOT_STARTED,
    NOT_YOUR_TURN,
    OVER,
    STALE,
)

log = logging.getLogger("rummy500.server.metrics")

# The ``*_created`` series (when each counter was made) only clutter a scrape.
disable_created_metrics()  # type: ignore[no-untyped-call]

OTHER = "other"
"""The label of any value outside a label's fixed set."""

Mover = Literal["person", "bot"]
MOVERS: tuple[Mover, ...] = ("person", "bot")
REFUSAL_CODES = (STALE, NOT_YOUR_TURN, BAD_MOVE, ILLEGAL, NOT_STARTED, OVER, NOT_SEATED,
                 "unavailable", "unknown_table", "undo_blocked")
"""The ``refused`` codes of docs/protocol.md."""
ConnectionKind = Literal["http", "websocket"]
CONNECTION_KINDS: tuple[ConnectionKind, ...] = ("http", "websocket")
TABLE_STATUSES = ("waiting", "playing", "over")
"""live.py's statuses (not imported: every server module imports this one)."""
LIMITS = (
    "connections", "connections_per_address", "header_timeout", "header_size", "body_timeout",
    "hello_timeout", "frames", "frame_size", "body_size", "slow_reader", "host",
    "bad_content_type", "cross_origin", "tables_per_hour", "open_tables", "hints",
    "replays_per_minute", "replay_max_bytes", "replay_max_deals", "replay_timeout", "thinking",
    "chat_lines_per_seat", "chat_lines_per_address", "reviews_per_hour",
)
"""The limits and guards a request or connection can run into (most are named as the
setting that sets them); a new limit's name goes here, or it is counted as ``other``."""
REPLAY_OUTCOMES = ("ok", "bad_record", "too_large", "too_many_deals", "timeout",
                   "rate_limited", "busy", "failed")

ACK_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds from a person's move frame in to its ack out: the target is under 0.1 at p99."""
THINK_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
REPLAY_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)  # the standard process_* series: memory, CPU, open files

MOVES = Counter("rummy500_moves_total", "moves stored, by who made them", ["by"],
                registry=REGISTRY)
REFUSALS = Counter("rummy500_refusals_total", "moves refused, by the refusal's code", ["code"],
                   registry=REGISTRY)
_MOVES_BY = {by: MOVES.labels(by=by) for by in get_args(Mover)}
"""Each mover's series, looked up once (every move counts one)."""
MOVE_ACK = Histogram("rummy500_move_ack_seconds",
                     "seconds from a person's move frame in to its ack out",
                     buckets=ACK_BUCKETS, registry=REGISTRY)
CONNECTIONS = Gauge("rummy500_connections", "open connections, HTTP requests and WebSockets",
                    ["kind"], registry=REGISTRY)
TABLES = Gauge("rummy500_tables", "tables in this process's memory, by status", ["status"],
               registry=REGISTRY)
BOT_QUEUE = Gauge("rummy500_bot_queue", "computer players' decisions waiting to be thought",
                  registry=REGISTRY)
BOT_THINK = Histogram("rummy500_bot_think_seconds",
                      "seconds a computer player's decision took, waiting included",
                      buckets=THINK_BUCKETS, registry=REGISTRY)
LIMITS_HIT = Counter("rummy500_limits_hit_total", "requests and connections refused or cut "
                     "by a limit, by the limit", ["limit"], registry=REGISTRY)
REPLAYS = Counter("rummy500_replays_total", "replays asked for (POST /api/replay), by outcome",
                  ["outcome"], registry=REGISTRY)
REPLAY_TIME = Histogram("rummy500_replay_seconds", "seconds a replay took",
                        buckets=REPLAY_BUCKETS, registry=REGISTRY)

for _labels, _values in ((MOVES.labels, [{"by": v} for v in MOVERS]),
                         (REFUSALS.labels, [{"code": v} for v in (*REFUSAL_CODES, OTHER)]),
                         (CONNECTIONS.labels, [{"kind": v} for v in CONNECTION_KINDS]),
                         (TABLES.labels, [{"status": v} for v in TABLE_STATUSES]),
                         (LIMITS_HIT.labels, [{"limit": v} for v in (*LIMITS, OTHER)]),
                         (REPLAYS.labels, [{"outcome": v} for v in (*REPLAY_OUTCOMES, OTHER)])):
    for _given in _values:
        _labels(**_given)  # every known series shows, at 0, from the start

_before_render: list[Callable[[], None]] = []


_unknown_seen: set[str] = set()


def _bounded(value: str, known: tuple[str, ...]) -> str:
    if value in known:
        return value
    if len(_unknown_seen) < 100 and value not in _unknown_seen:
        _unknown_seen.add(value)  # once each: a name missing from the lists above
        log.warning("metrics: %r is not a known label value; counted as %r", value[:60], OTHER)
    return OTHER


def refusal_label(code: str) -> str:
    return _bounded(code, REFUSAL_CODES)


# -- the calls the server makes --------------------------------------------------------------


def moved(by: Mover, count: int = 1) -> None:
    """``count`` moves were stored, made by a ``person`` or a ``bot`` (a stand-in is a bot)."""
    _MOVES_BY[by].inc(count)


def refused(code: str) -> None:
    """A move was refused with ``code``."""
    REFUSALS.labels(code=refusal_label(code)).inc()


def acked(seconds: float) -> None:
    """A person's move was acknowledged ``seconds`` after its frame came in."""
    MOVE_ACK.observe(seconds)


def connection_opened(kind: ConnectionKind) -> None:
    CONNECTIONS.labels(kind=kind).inc()


def connection_closed(kind: ConnectionKind) -> None:
    CONNECTIONS.labels(kind=kind).dec()


def tables_by_status(counts: Mapping[str, int]) -> None:
    """The tables in memory now, by status (a status not given has none)."""
    for status in TABLE_STATUSES:
        TABLES.labels(status=status).set(counts.get(status, 0))


def bot_queued(waiting: int) -> None:
    """Computer players' decisions waiting now."""
    BOT_QUEUE.set(waiting)


def bot_thought(seconds: float) -> None:
    """A computer player decided, ``seconds`` after it was asked to."""
    BOT_THINK.observe(seconds)


def limit_hit(name: str) -> None:
    """A request or connection ran into the limit ``name`` (one of :data:`LIMITS`)."""
    LIMITS_HIT.labels(limit=_bounded(name, LIMITS)).inc()


def replayed(outcome: str, seconds: float | None = None) -> None:
    """A replay ended with ``outcome`` (one of :data:`REPLAY_OUTCOMES`); ``seconds`` it
    took, if it was worked on at all."""
    REPLAYS.labels(outcome=_bounded(outcome, REPLAY_OUTCOMES)).inc()
    if seconds is not None:
        REPLAY_TIME.observe(seconds)


def before_render(update: Callable[[], None]) -> Callable[[], None]:
    """Call ``update`` before each rendering: for gauges read from the server's state
    (``lambda: tables_by_status(hub.status_counts())``) rather than kept up to date.
    Returns the call that stops it (for an application's shutdown)."""
    _before_render.append(update)

    def stop() -> None:
        if update in _before_render:
            _before_render.remove(update)

    return stop


def render() -> tuple[bytes, str]:
    """The metrics in Prometheus' text format: the body and its content type."""
    for update in list(_before_render):
        try:
            update()
        except Exception:  # a stale gauge is better than no metrics at all
            log.exception("updating the metrics failed")
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


# -- the operator's port ---------------------------------------------------------------------

SCRAPERS = 8
"""Scrapes answered at a time; a connection beyond them is closed at once."""
SCRAPE_TIMEOUT_S = 5.0
"""Seconds a scraper has to send its request's head (at most 8 KiB)."""


async def serve_metrics(host: str, port: int) -> asyncio.Server:
    """``GET /metrics`` on a port of its own, apart from the tables' (which never serve it):
    the operator chooses who reaches it (``--metrics-host``, loopback by default). Plain
    HTTP/1.0 answers, one a connection; anything else is a 404."""
    open_now = 0

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal open_now
        if open_now >= SCRAPERS:
            writer.close()
            return
        open_now += 1
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), SCRAPE_TIMEOUT_S)
            method, _, rest = head.partition(b" ")
            path = rest.split(b" ", 1)[0].split(b"?", 1)[0]
            if method == b"GET" and path == b"/metrics":
                body, content_type = render()
                status = b"200 OK"
            else:
                body, content_type, status = b"not found\n", "text/plain", b"404 Not Found"
            writer.write(b"HTTP/1.1 " + status + b"\r\nContent-Type: " + content_type.encode()
                         + b"\r\nContent-Length: " + str(len(body)).encode()
                         + b"\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n" + body)
            await asyncio.wait_for(writer.drain(), SCRAPE_TIMEOUT_S)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        finally:
            open_now -= 1
            writer.close()

    return await asyncio.start_server(answer, host, port, limit=8192)


__all__ = ["CONNECTION_KINDS", "LIMITS", "OTHER", "REFUSAL_CODES", "REGISTRY",
           "REPLAY_OUTCOMES", "TABLE_STATUSES", "acked", "before_render", "bot_queued",
           "bot_thought", "connection_closed", "connection_opened", "limit_hit", "moved",
           "refusal_label", "refused", "render", "replayed", "serve_metrics",
           "tables_by_status"]
