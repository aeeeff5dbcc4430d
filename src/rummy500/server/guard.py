"""The guard in front of every route (pure ASGI, so WebSockets pass through it too).

- Only the hosts the operator names are served (DNS rebinding: a page elsewhere whose
  name resolves to this server must not read its answers).
- A request that changes anything (POST) must be JSON and, from a browser, come from
  this server's own pages: a form or a ``no-cors`` fetch from another site cannot send
  ``application/json``, and its Origin names the other site.
- Every HTTP answer carries the security headers, JSON and errors included.
- An error in a route is an answer in JSON, never a traceback: ``unavailable`` (503)
  when the database cannot be reached, ``internal`` (500) otherwise; the table is
  untouched (a move is only ever acknowledged after its commit).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import metrics
from .connections import CLOSE_POLICY
from .security import origin_allowed
from .settings import ServerSettings

log = logging.getLogger("rummy500.server")

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


def unreachable_database(error: BaseException) -> bool:
    """Whether ``error`` says the database cannot be reached (or refused us for now)."""
    if isinstance(error, SQLAlchemyError | OSError | TimeoutError | ConnectionError):
        return True
    module = type(error).__module__
    return module.startswith("asyncpg") or module.startswith("sqlite3")


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
            await self.app(scope, receive, send)
            return
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            status, code, message = refusal
            metrics.limit_hit(code)
            await send_json(send, status, {"error": code, "message": message})
            return
        await self._guarded(scope, receive, send)

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
            if unreachable_database(error):
                log.warning("the database is unreachable: %s", error)
                await send_json(send, 503, {
                    "error": "unavailable",
                    "message": "the database cannot be reached just now: try again shortly"},
                    {"Retry-After": "2"})
            else:
                log.exception("a request failed")
                await send_json(send, 500, {"error": "internal",
                                            "message": "the server failed on this request"})


__all__ = ["CONTENT_SECURITY_POLICY", "SECURITY_HEADERS", "Guard", "send_json",
           "unreachable_database"]
