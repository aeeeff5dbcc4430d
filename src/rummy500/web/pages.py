"""The browser pages of ``rummy500 serve``: the static files, the page routes, and the little
JSON the pages need beyond PROTOCOL.md (the rule options to offer, replays of records).

The pages are plain ES modules and CSS under ``static/``; every response carries a strict
Content-Security-Policy (no inline script or style, nothing from elsewhere). The server's
application includes :data:`routes`.
"""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from .. import safejson
from ..bots.registry import BOT_NAMES
from ..errors import Rummy500Error
from ..rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTION_DOCS,
    OPTION_NAMES,
    PRESET_DOCS,
    PRESETS,
    Rules,
    RulesError,
    rules_from_record,
)
from ..tui.words import rules_summary
from .replay import ReplayRequestError, replay_request

STATIC = Path(__file__).parent / "static"
MAX_RECORD_BYTES = 4 * 1024 * 1024

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
}


def _secured(response: Response) -> Response:
    response.headers.update(SECURITY_HEADERS)
    return response


def _page(name: str) -> Response:
    response = FileResponse(STATIC / name, media_type="text/html; charset=utf-8")
    response.headers["Cache-Control"] = "no-cache"
    return _secured(response)


async def lobby(request: Request) -> Response:
    return _page("index.html")


async def table_page(request: Request) -> Response:
    return _page("table.html")


async def replay_page(request: Request) -> Response:
    return _page("replay.html")


class _SecuredStatic(StaticFiles):
    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers["Cache-Control"] = "no-cache"
        return _secured(response)


def json_response(data: Any, status: int = 200) -> Response:
    return _secured(JSONResponse(data, status_code=status))


def error_json(status: int, code: str, message: str) -> Response:
    return json_response({"error": code, "message": message}, status)


def rules_catalogue() -> dict[str, Any]:
    """The presets (with a line each), every rule option with its meaning and each preset's
    value, the computer players and the player counts: what the lobby offers."""
    defaults = {name: dataclasses.asdict(rules) for name, rules in PRESETS.items()}
    return {
        "presets": [
            {"name": name, "description": PRESET_DOCS[name],
             "max_players": rules.max_players, "partnership": rules.partnership,
             "values": {option: defaults[name][option] for option in OPTION_NAMES}}
            for name, rules in PRESETS.items()
        ],
        "options": [
            {"name": option, "meaning": OPTION_DOCS[option][0], "values": OPTION_DOCS[option][2],
             **_option_kind(option)}
            for option in OPTION_NAMES
        ],
        "bots": list(BOT_NAMES),
        "default_bot": "expert",
        "min_players": MIN_PLAYERS,
        "max_players": MAX_PLAYERS,
    }


def _option_kind(option: str) -> dict[str, Any]:
    """How the lobby asks for an option: a choice, a yes/no, or a number (perhaps empty)."""
    hint = typing.get_type_hints(Rules)[option]
    args = typing.get_args(hint)
    if typing.get_origin(hint) is typing.Literal:
        return {"kind": "choice", "choices": list(args)}
    if hint is bool:
        return {"kind": "bool"}
    return {"kind": "number", "empty": type(None) in args}


async def rules_info(request: Request) -> Response:
    return json_response(rules_catalogue())


async def explain_rules(request: Request) -> Response:
    """``POST {"rules": {...}, "players": n}``: how that game is played, or why it cannot be."""
    body = await read_json(request, 16 * 1024)
    if isinstance(body, Response):
        return body
    if not isinstance(body, dict):
        return error_json(400, "bad_request", "send {\"rules\": {...}, \"players\": n}")
    players = body.get("players", 2)
    try:
        rules = rules_from_record(body.get("rules", {"preset": "classic"}))
        rules.check_players(players)
    except RulesError as error:
        return error_json(422, "bad_rules", str(error))
    sides = [[seat for seat in range(players) if rules.side_of(seat) == side]
             for side in range(rules.sides(players))]
    return json_response({"rules": rules.to_record(), "players": players, "preset": rules.preset,
                  "description": PRESET_DOCS.get(rules.preset, ""),
                  "partnership": rules.partnership, "sides": sides,
                  "target_score": rules.target_score, "max_deals": rules.max_deals,
                  "rummy_calls": rules.rummy_calls, "jokers": rules.jokers,
                  "topics": [{"topic": topic, "text": text}
                             for topic, text in rules_summary(rules, players)]})


async def replay_record(request: Request) -> Response:
    """``POST`` a game record (or ``{"record": ..., "names": [...]}``): every step of it."""
    body = await read_json(request, MAX_RECORD_BYTES)
    if isinstance(body, Response):
        return body
    try:
        answer = replay_request(body)
    except ReplayRequestError as error:
        return error_json(400, "bad_request", str(error))
    if not answer["ok"]:
        return error_json(422, "bad_record", answer["error"])
    return json_response(answer)


async def read_json(request: Request, limit: int) -> Any:
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > limit:
        return error_json(413, "too_large", f"the request is larger than {limit // 1024} KiB")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return error_json(413, "too_large", f"the request is larger than {limit // 1024} KiB")
    try:
        return safejson.loads(body, what="the request", max_bytes=limit)
    except Rummy500Error as error:
        return error_json(400, "bad_json", str(error))


def page_routes() -> list[BaseRoute]:
    """Every route of the browser table, for the server's application to include."""
    from .hints import hint

    return [*routes, Route("/api/tables/{table}/hint", hint, methods=["POST"])]


routes: list[BaseRoute] = [
    Route("/", lobby, methods=["GET"]),
    Route("/t/{table}", table_page, methods=["GET"]),
    Route("/t/{table}/replay", replay_page, methods=["GET"]),
    Route("/replay", replay_page, methods=["GET"]),
    Route("/api/rules", rules_info, methods=["GET"]),
    Route("/api/rules/explain", explain_rules, methods=["POST"]),
    Route("/api/replay", replay_record, methods=["POST"]),
    Mount("/static", app=_SecuredStatic(directory=STATIC), name="static"),
]
