"""The guard in front of every route (pure ASGI, so WebSockets pass through it too).

- Only the hosts the operator names are served (DNS rebinding: a page elsewhere whose
  name resolves to this server must not read its answers).
- A request that changes anything (POST) must be JSON and, from a browser, come from
  this server's own pages: a form or a ``no-cors`` fetch from another site cannot send
  ``application/json``, and its Origin names the other site.
- Every HTTP answer carries the security headers, JSON and errors included.
- One address has at most ``connections_per_address`` requests under way: behind a
  trusted proxy the forwarded address (the transport limits the proxy's connections in
  all only), else the peer (which the transport limits already).
- An error in a route is an answer in JSON, never a traceback: ``unavailable`` (503)
  when the database cannot be reached or its disk is full, ``internal`` (500)
  otherwise, a damaged database included (waiting will not mend it); the table is
  untouched (a move is only ever acknowledged after its commit). A WebSocket whose
  handler fails is closed with 1011 (1013 when the database is away for now).
"""

from __future__ import annotations

import contextlib
import json
import logging
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import metrics
from .addresses import client_address
from .client_frames import origin_allowed
from .connections import CLOSE_POLICY, AddressTally
from .settings import ServerSettings

log = logging.getLogger("rummy500.server")

CLOSE_INTERNAL = 1011
CLOSE_TRY_AGAIN = 1013

CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    # The table id in a page's address is the invitation: never send it to anyone else.
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
HSTS = "max-age=31536000"
"""Sent over HTTPS only: browsers then never try plain HTTP for this host again."""


FULL = "full"
DAMAGED = "damaged"
SQLITE_FAULTS = {13: FULL, 11: DAMAGED, 26: DAMAGED}
"""SQLite's primary result codes: SQLITE_FULL, SQLITE_CORRUPT, SQLITE_NOTADB."""
POSTGRES_FAULTS = {"53100": FULL, "XX001": DAMAGED, "XX002": DAMAGED}
"""PostgreSQL's SQLSTATEs: disk_full, data_corrupted, index_corrupted."""


def _causes(error: BaseException) -> list[BaseException]:
    """``error``, the driver's error it wraps (SQLAlchemy's ``orig``) and their causes."""
    seen: list[BaseException] = []
    todo: list[BaseException | None] = [error]
    while todo and len(seen) < 8:
        one = todo.pop()
        if one is None or any(one is known for known in seen):
            continue
        seen.append(one)
        orig = getattr(one, "orig", None)
        todo += [orig if isinstance(orig, BaseException) else None, one.__cause__]
    return seen


def storage_fault(error: BaseException) -> str | None:
    """``full`` when the database's disk is full, ``damaged`` when its file or pages are
    corrupt, else None: faults that waiting a moment does not mend (``/readyz`` reports
    them, :mod:`.ops` logs them once)."""
    for one in _causes(error):
        code = getattr(one, "sqlite_errorcode", None)
        if isinstance(code, int) and (code & 0xFF) in SQLITE_FAULTS:
            return SQLITE_FAULTS[code & 0xFF]
        state = getattr(one, "sqlstate", None)
        if isinstance(state, str) and state in POSTGRES_FAULTS:
            return POSTGRES_FAULTS[state]
    return None


def unreachable_database(error: BaseException) -> bool:
    """Whether ``error`` says the database cannot be reached (or refused us for now), so
    that "try again shortly" is true. A damaged database file is not (:func:`storage_fault`);
    a full disk is, once the operator has made room."""
    if storage_fault(error) == DAMAGED:
        return False
    if isinstance(error, SQLAlchemyError | OSError | TimeoutError | ConnectionError):
        return True
    module = type(error).__module__
    return module.startswith("asyncpg") or module.startswith("sqlite3")


def failure_answer(error: BaseException) -> tuple[int, dict[str, Any], dict[str, str]]:
    """The status, body and extra headers that answer a request ``error`` ended."""
    fault = storage_fault(error)
    if fault == DAMAGED:
        return 500, {"error": "internal", "message": "the server's database is damaged here: "
                     "its operator has been told; trying again will not help"}, {}
    if fault == FULL:
        return 503, {"error": "unavailable", "message": "the server cannot store anything "
                     "just now (its disk is full): its operator has been told"}, {}
    if unreachable_database(error):
        return 503, {"error": "unavailable", "message": "the database cannot be reached "
                     "just now: try again shortly"}, {"Retry-After": "2"}
    return 500, {"error": "internal", "message": "the server failed on this request"}, {}


async def send_json(send: Send, status: int, body: dict[str, Any],
                    extra: dict[str, str] | None = None) -> None:
    data = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(data)).encode())]
    headers += [(k.lower().encode(), v.encode()) for k, v in {**SECURITY_HEADERS,
                                                              **(extra or {})}.items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


class Guard:
    def __init__(self, app: ASGIApp, settings: ServerSettings) -> None:
        self.app = app
        self.settings = settings
        self.requests = AddressTally()
        """Requests under way, by the client's address: the forwarded one behind a trusted
        proxy, whose own connections the transport does not limit per address."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        if not self.settings.host_allowed(headers.get("host")):
            metrics.limit_hit("host")
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": CLOSE_POLICY})
            else:
                await send_json(send, 421, {
                    "error": "bad_host",
                    "message": "this server does not answer to that name (see --allowed-host)"})
            return
        if scope["type"] == "websocket":
            await self._socket(scope, receive, send)
            return
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            status, code, message = refusal
            metrics.limit_hit(code)
            await send_json(send, status, {"error": code, "message": message})
            return
        address = client_address(scope)
        if not self.requests.admit(address, self.settings.connections_per_address):
            metrics.limit_hit("connections_per_address")
            await send_json(send, 429, {
                "error": "too_many_connections",
                "message": f"at most {self.settings.connections_per_address} connections at "
                           "a time from one address"}, {"Retry-After": "2"})
            return
        try:
            await self._guarded(scope, receive, send)
        finally:
            self.requests.release(address)

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A WebSocket whose handler fails is closed with a code and a reason (1011, or 1013
        when the database is away for now), never dropped with a traceback for each."""
        state = {"accepted": False, "closed": False}

        async def watched(message: Message) -> None:
            if message["type"] == "websocket.accept":
                state["accepted"] = True
            elif message["type"] in ("websocket.close", "websocket.http.response.start"):
                state["closed"] = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as error:
            if state["closed"]:
                if storage_fault(error) is None:
                    log.exception("a WebSocket failed after it was closed")
                return
            status, body, _extra = failure_answer(error)
            if storage_fault(error) is None and status == 500:
                log.exception("a WebSocket failed")
            elif storage_fault(error) is None:
                log.warning("the database is unreachable: %s", error)
            code = CLOSE_TRY_AGAIN if status == 503 else CLOSE_INTERNAL
            with contextlib.suppress(Exception):  # the client may be gone already
                await send({"type": "websocket.close", "code": code,
                            "reason": body["message"][:120] if state["accepted"] else ""})

    def _refusal(self, scope: Scope, headers: Headers) -> tuple[int, str, str] | None:
        if scope["method"] not in CHANGING_METHODS:
            return None
        content_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if content_type != "application/json":
            return 415, "bad_content_type", "send the request body as application/json"
        origin = headers.get("origin")
        if origin is not None and not origin_allowed(origin, headers.get("host")):
            return 403, "cross_origin", "requests from another site's pages are refused"
        if headers.get("sec-fetch-site") == "cross-site":
            return 403, "cross_origin", "requests from another site's pages are refused"
        return None

    async def _guarded(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False
        secure = scope.get("scheme") == "https"

        async def send_secured(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    if name not in headers:
                        headers[name] = value
                if secure:
                    headers["Strict-Transport-Security"] = HSTS
            await send(message)

        try:
            await self.app(scope, receive, send_secured)
        except Exception as error:
            if started:
                raise
            status, body, extra = failure_answer(error)
            if storage_fault(error) is not None:
                pass  # ops.Health logs it, once
            elif status == 503:
                log.warning("the database is unreachable: %s", error)
            else:
                log.exception("a request failed")
            await send_json(send, status, body, extra)


__all__ = ["CONTENT_SECURITY_POLICY", "DAMAGED", "FULL", "SECURITY_HEADERS", "Guard",
           "failure_answer", "send_json", "storage_fault", "unreachable_database"]
