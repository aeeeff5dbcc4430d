"""The pages of the browser table. Until they are installed, ``/`` says how to use the API."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>rummy500 serve</title></head>
<body><h1>rummy500 serve</h1>
<p>This server runs 500 Rum tables. Create one with <code>POST /api/tables</code> and play
through the WebSocket <code>/ws/&lt;table&gt;</code> (see docs/protocol.md), or from a
terminal: <code>rummy500 play --join URL</code>.</p></body></html>
"""

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self'; "
                               "script-src 'self'; connect-src 'self'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


async def placeholder(_request: Request) -> Response:
    return HTMLResponse(PLACEHOLDER, headers=SECURITY_HEADERS)


def page_routes() -> list[BaseRoute]:
    return [Route("/", placeholder), Route("/t/{table}", placeholder)]
