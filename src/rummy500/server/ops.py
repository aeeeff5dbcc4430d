"""The routes an operator's tools call: ``/healthz`` (the process answers), ``/readyz`` (and
its database too) and ``/metrics`` (Prometheus' text format).

A load balancer or orchestrator restarts a process whose ``/healthz`` fails and sends
no players to one whose ``/readyz`` fails; a database that is down makes every
process unready but none of them dead, since restarting them would not help.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from . import metrics
from .store import Store

READY_TIMEOUT = 2.0
"""Seconds the database has to answer ``/readyz``."""

HEADERS = {"Cache-Control": "no-store"}
"""Never kept by a cache (the guard adds the security headers, as to every answer)."""


def ops_routes(store: Store) -> list[BaseRoute]:
    """``GET /healthz``, ``GET /readyz`` and ``GET /metrics`` for the tables in ``store``."""

    async def healthz(_request: Request) -> Response:
        return JSONResponse({"ok": True}, headers=HEADERS)

    async def readyz(_request: Request) -> Response:
        if await store.ping(READY_TIMEOUT):
            return JSONResponse({"ok": True}, headers=HEADERS)
        return JSONResponse({"error": "unavailable",
                             "message": "the database does not answer"},
                            status_code=503, headers=HEADERS)

    async def metrics_text(_request: Request) -> Response:
        body, content_type = metrics.render()
        return Response(body, headers={**HEADERS, "Content-Type": content_type})

    return [
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/metrics", metrics_text, methods=["GET"]),
    ]


__all__ = ["READY_TIMEOUT", "ops_routes"]
