"""The server's logs: plain text, or one JSON object a line (``--log-format json``) that
names the request and the table it is about.

:class:`RequestContext` (ASGI middleware) gives every HTTP request and WebSocket a
request id (the client's ``X-Request-ID`` when it is a sane one, else a random one,
sent back on HTTP answers) and the table id of its path, in context variables that
every log line written while serving it reads. (Connections are counted where they
are admitted: transport.py and table_socket.py.)

>>> table_of_path("/api/tables/abc_123/record"), table_of_path("/ws/abc"), table_of_path("/")
('abc_123', 'abc', None)
>>> request_id_from_header(b"0f3c-42"), request_id_from_header(b"bad id\\n")
('0f3c-42', None)
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import sys
import time
from contextvars import ContextVar
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

REQUEST_ID: ContextVar[str | None] = ContextVar("rummy500_request_id", default=None)
TABLE_ID: ContextVar[str | None] = ContextVar("rummy500_table_id", default=None)

access_log = logging.getLogger("rummy500.server.access")
"""One line a request or WebSocket, once it is over, at INFO."""

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
REQUEST_ID_HEADER = b"x-request-id"
CONTEXT_FIELDS = ("request_id", "table_id", "method", "path", "status", "seconds")
"""Record attributes a JSON line carries when they are set (the last four: access lines)."""
_SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:+/=-]{1,128}")
ACCESS_PATH_LIMIT = 200
"""Characters of a path an access line keeps."""
_TABLE_PATH = re.compile(r"/(?:api/tables|ws|t)/([A-Za-z0-9_-]{1,64})(?:/|$)")


def about_table(table_id: str) -> None:
    """Name the table that what runs from here on (this request, this task) is about:
    for a table made by this request, or a task that serves one table."""
    TABLE_ID.set(table_id)


def table_of_path(path: str) -> str | None:
    """The table id in ``/api/tables/<id>…``, ``/ws/<id>`` or ``/t/<id>``, if well formed."""
    found = _TABLE_PATH.match(path)
    return found.group(1) if found else None


def request_id_from_header(value: bytes) -> str | None:
    """A client's or proxy's request id, if it is short and only of safe characters."""
    try:
        text = value.decode("ascii")
    except UnicodeDecodeError:
        return None
    return text if _SANE_REQUEST_ID.fullmatch(text) else None


# -- formatting ------------------------------------------------------------------------------


class ContextFilter(logging.Filter):
    """Puts the request and table ids of the running context on each record (unless the
    call named them itself, with ``extra=``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = REQUEST_ID.get()
        if not hasattr(record, "table_id"):
            record.table_id = TABLE_ID.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, the request
    and table ids when known (and an access line's method, path, status and seconds),
    and an exception's traceback as one string."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": _utc(record.created),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in CONTEXT_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str)


def _utc(created: float) -> str:
    seconds = int(created)
    milliseconds = int((created - seconds) * 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{milliseconds:03d}Z"


def configure(level: str, log_format: str) -> None:
    """Send every log record at ``level`` or above to standard error, as ``text`` or
    ``json``, in place of any handler set up before. uvicorn's own loggers must
    propagate here (``uvicorn.Config(log_config=None)``)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter() if log_format == "json" else
                         logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=getattr(logging, level.upper(), logging.WARNING),
                        handlers=[handler], force=True)


# -- the middleware --------------------------------------------------------------------------


class RequestContext:
    """ASGI middleware: each HTTP request and WebSocket gets its request and table ids in
    the context variables, and a line in the access log once it is over. Pure ASGI (not
    Starlette's ``BaseHTTPMiddleware``), so WebSockets pass through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = _given_request_id(scope) or secrets.token_hex(8)
        request_token = REQUEST_ID.set(request_id)
        table_token = TABLE_ID.set(table_of_path(scope.get("path", "")))
        started = time.monotonic()
        answer = _Answer()
        try:
            await self.app(scope, receive, answer.watching(send, request_id))
        finally:
            if access_log.isEnabledFor(logging.INFO):
                _log_access(scope, answer.status, time.monotonic() - started)
        # Reset only after a normal end: after an error the ids stay, so that the
        # server's log of the traceback names them (each connection is a task of its
        # own under uvicorn, so they go no further).
        REQUEST_ID.reset(request_token)
        TABLE_ID.reset(table_token)


def _given_request_id(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == REQUEST_ID_HEADER:
            return request_id_from_header(value)
    return None


class _Answer:
    """What the application answered: an HTTP status, or how a WebSocket began."""

    def __init__(self) -> None:
        self.status: int | None = None

    def watching(self, send: Send, request_id: str) -> Send:
        """``send`` that notes the status and puts the request id on HTTP answers."""

        async def sending(message: Message) -> None:
            kind = message["type"]
            if kind == "http.response.start":
                self.status = int(message["status"])
                headers = list(message.get("headers", ()))
                if not any(name.lower() == REQUEST_ID_HEADER for name, _ in headers):
                    headers.append((REQUEST_ID_HEADER, request_id.encode("ascii")))
                message = {**message, "headers": headers}
            elif kind == "websocket.accept":
                self.status = 101
            elif kind == "websocket.close" and self.status is None:
                self.status = 403  # closed before the handshake: refused
            await send(message)

        return sending


def _log_access(scope: Scope, status: int | None, seconds: float) -> None:
    method = scope.get("method", "WEBSOCKET")
    path = str(scope.get("path", ""))[:ACCESS_PATH_LIMIT]
    shown = "-" if status is None else str(status)
    access_log.info("%s %s %s %.3fs", method, path, shown, seconds,
                    extra={"method": method, "path": path, "status": status,
                           "seconds": round(seconds, 6)})


__all__ = ["REQUEST_ID", "TABLE_ID", "ContextFilter", "JsonFormatter", "RequestContext",
           "about_table", "configure", "request_id_from_header", "table_of_path"]
