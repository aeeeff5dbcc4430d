"""The score pad page (``/pad``), its service worker and the engine's scoring data for it.

``GET /api/pad/tables?rules={"preset": ..., "options": {...}}&players=n`` answers
:func:`rummy500.pad_tables.pad_tables`: the page scores with it alone, offline too (the
service worker keeps each answer, and the page keeps the tables of each pad with the pad).
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..errors import PadError
from ..pad import pad_from_json
from ..pad_tables import pad_tables
from ..rules import RulesError
from ..server import pad_share
from ..server.addresses import client_address
from ..server.apierror import ApiError
from ..server.bodies import read_json
from ..server.ids import valid_id, valid_token
from ..server.rate import RateWindow
from ..server.store import Store
from .responses import STATIC, error_json, json_response, page_response

MAX_RULES_TEXT = 4096


async def pad_page(request: Request) -> Response:
    return page_response("pad.html")


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


# -- shared pads: the scorekeeper's phone writes, anyone with the link follows --------------

WRITES_PER_MINUTE = 120
"""Writes of shared pads one address may make in a minute (a tap a second, with room)."""


def _store(request: Request) -> Store:
    store: Store = request.app.state.hub.store
    return store


def _writes(request: Request) -> RateWindow:
    state = request.app.state
    window: RateWindow | None = getattr(state, "pad_writes", None)
    if window is None:
        window = state.pad_writes = RateWindow(WRITES_PER_MINUTE, 60.0)
    return window


async def _pad_body(request: Request) -> Any:
    address = client_address(request.scope)
    if not _writes(request).allow(address):
        raise ApiError(429, "too_many_writes",
                       f"at most {WRITES_PER_MINUTE} writes of shared pads a minute")
    body = await read_json(request, pad_share.MAX_PAD_BYTES + 4096)
    if not isinstance(body, dict) or "pad" not in body:
        raise ApiError(400, "bad_request", 'send {"pad": the pad\'s file}')
    return body


async def share_pad(request: Request) -> Response:
    body = await _pad_body(request)
    answer = await pad_share.share(_store(request), client_address(request.scope), body["pad"])
    return json_response(answer, 201)


async def write_pad(request: Request) -> Response:
    pad_id = request.path_params["pad"]
    body = await _pad_body(request)
    token = body.get("token")
    if not valid_id(pad_id) or not valid_token(token):
        raise ApiError(404, "no_pad", "no shared pad has this link (or it was deleted)")
    version = await pad_share.write(_store(request), pad_id, str(token), body["pad"])
    return json_response({"version": version})


async def follow_pad(request: Request) -> Response:
    pad_id = request.path_params["pad"]
    since_text = request.query_params.get("since", "0")
    if not valid_id(pad_id) or not since_text.isdigit() or len(since_text) > 9:
        raise ApiError(404, "no_pad", "no shared pad has this link (or it was deleted)")
    answer = await pad_share.read(_store(request), pad_id, int(since_text))
    response = json_response(answer)
    response.headers["Cache-Control"] = "no-store"
    return response


pad_routes += [
    Route("/api/pads", share_pad, methods=["POST"]),
    Route("/api/pads/{pad}", write_pad, methods=["PUT"]),
    Route("/api/pads/{pad}", follow_pad, methods=["GET"]),
]
