"""The score pad page (``/pad``), its service worker and the engine's scoring data for it.

``GET /api/pad/tables?rules={"preset": ..., "options": {...}}&players=n`` answers
:func:`rummy500.pad_tables.pad_tables`: the page scores with it alone, offline too (the
service worker keeps each answer, and the page keeps the tables of each pad with the pad).
"""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..errors import PadError
from ..pad import pad_from_json
from ..pad_tables import pad_tables
from ..rules import RulesError
from .pages import STATIC, _page, error_json, json_response

MAX_RULES_TEXT = 4096


async def pad_page(request: Request) -> Response:
    return _page("pad.html")


async def service_worker(request: Request) -> Response:
    body = (STATIC / "js" / "pad" / "sw.js").read_bytes()
    response = Response(body, media_type="text/javascript; charset=utf-8")
    response.headers["Cache-Control"] = "no-cache"
    return response


async def tables(request: Request) -> Response:
    text = request.query_params.get("rules", '{"preset": "classic"}')
    players_text = request.query_params.get("players", "2")
    if len(text) > MAX_RULES_TEXT or not players_text.isdigit() or len(players_text) > 2:
        return error_json(400, "bad_request", "send rules (JSON, a preset and options) and "
                          "players (a number from 2 to 8)")
    try:
        rules_json = json.loads(text)
        players = int(players_text)
        pad = pad_from_json({"format": "rummy500-pad", "version": 1, "rules": rules_json,
                             "players": [f"Seat {seat + 1}" for seat in range(players)],
                             "deals": []})
        data = pad_tables(pad.rules, players)
    except json.JSONDecodeError:
        return error_json(400, "bad_request", "rules must be JSON: a preset and options")
    except (PadError, RulesError) as error:
        return error_json(422, "bad_rules", str(error))
    response = json_response(data)
    response.headers["Cache-Control"] = "no-cache"
    return response


pad_routes: list[BaseRoute] = [
    Route("/pad", pad_page, methods=["GET"]),
    Route("/pad-sw.js", service_worker, methods=["GET"]),
    Route("/api/pad/tables", tables, methods=["GET"]),
]
"""The pad's routes, included by :func:`rummy500.web.pages.page_routes`."""
