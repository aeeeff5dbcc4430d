"""The browser pages of ``rummy500 serve``: the static files, the page routes, and the little
JSON the pages need beyond PROTOCOL.md (the rule options to offer, replays of records).

The pages are ES modules (``static/js``, bundled into one script a page under
``static/dist`` by ``npm run bundle``) and CSS under ``static/``; every response carries a strict
Content-Security-Policy (no inline script or style, nothing from elsewhere). The server's
application includes :data:`routes`.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route

from ..bots.registry import BOT_NAMES
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
from ..server.addresses import client_address
from ..server.apierror import ApiError
from ..server.bodies import read_body, read_json
from ..server.ids import valid_id
from ..server.rate import RateWindow
from ..session.words import rules_summary
from . import learn, replay_worker
from .pad_page import pad_routes
from .page_files import PageFiles
from .responses import STATIC, error_json, json_response, page_body, page_response


async def lobby(request: Request) -> Response:
    return page_response("index.html")


async def table_page(request: Request) -> Response:
    table = request.path_params["table"]
    if not valid_id(table):
        return page_response("table.html")
    # The page's first request, for the table's summary, goes out beside the page's script
    # instead of after it (the script's fetch takes the preloaded answer).
    preload = f'<link rel="preload" href="/api/tables/{table}" as="fetch" crossorigin>\n'
    return page_response("table.html", preload)


async def replay_page(request: Request) -> Response:
    return page_response("replay.html")


async def learn_page(request: Request) -> Response:
    """The guided first game: the table page, driven by its own script (js/learn.js)."""
    body = (page_body("table.html")
            .replace(b"/static/dist/table.js", b"/static/dist/learn.js", 1)
            .replace(b"</head>", b'<link rel="stylesheet" href="/static/learn.css">\n</head>', 1))
    return Response(body, media_type="text/html; charset=utf-8",
                    headers={"Cache-Control": "no-cache"})


async def learn_steps(request: Request) -> Response:
    return json_response(learn.first_game())


OPTION_LABELS: dict[str, str] = {
    "decks": "Packs of cards",
    "jokers": "Jokers",
    "jokers_per_deck": "Jokers in each pack",
    "hand_size_two": "Cards dealt to each of two players",
    "hand_size": "Cards dealt to each of three or more players",
    "max_players": "Most players",
    "top_discard_must_be_used": "The top card, taken alone from the pile, must be used at once",
    "discard_taken_card": "The card taken from the pile may be discarded the same turn",
    "min_run": "Fewest cards in a run",
    "set_suits": "Suits in a set",
    "card_points": "Points of the cards 2 to 9",
    "ace_points": "Points of an ace (in a set, high in a run, or in hand)",
    "low_ace_points": "Points of an ace low in a run",
    "high_ace_only": "An ace scores its high points only high in a run",
    "joker_points": "Points of a joker",
    "point_divisor": "Every value divided by",
    "target_score": "The total that wins the game",
    "max_deals": "Most deals in a game",
    "discard_to_go_out": "You must discard to go out (Boathouse rule)",
    "stock_exhausted": "When the stock is empty",
    "add_hand_to_winner": "Whoever goes out adds the other hands (Add Opponent's Hand)",
    "going_out_bonus": "Bonus for going out",
    "final_bonus": "Bonus for the better total at the end",
    "rummy_calls": "Rummy calls",
    "partnership": "Partners: four players in two sides",
    "four_of_a_kind_doubles": "A set of four laid down at once scores double",
    "four_card_runs_double": "A run of four laid down at once scores double too",
}
"""Each rule option as the lobby names it (its field name means nothing to a player)."""


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
            {"name": option, "label": OPTION_LABELS.get(option, option),
             "meaning": OPTION_DOCS[option][0], "values": OPTION_DOCS[option][2],
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
    settings = getattr(request.app.state, "settings", None)
    return json_response({**rules_catalogue(),
                          "seeds": bool(settings is not None and settings.allow_seeds)})


async def explain_rules(request: Request) -> Response:
    """``POST {"rules": {...}, "players": n}``: how that game is played, or why it cannot be."""
    body = await read_json(request, 16 * 1024)
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
    """``POST`` a game record (or ``{"record": ..., "names": [...]}``): every step of it.
    The body is read here (bounded); the rest, parsing included, is done in a worker
    process (:mod:`.replay_worker`), so that the tables never wait for a replay."""
    settings = request.app.state.settings
    if not _replay_window(request).allow(client_address(request.scope)):
        replay_worker.count_refusal("rate_limited", "replays_per_minute")
        return error_json(429, "too_many_replays",
                          f"at most {settings.replays_per_minute} replays a minute")
    try:
        body = await read_body(request, settings.replay_max_bytes)
    except ApiError as error:
        if error.code == "too_large":
            replay_worker.count_refusal("too_large", "replay_max_bytes")
        raise
    gzip_ok = "gzip" in request.headers.get("accept-encoding", "").lower()
    answer = await replay_worker.replay(body, settings, gzip_ok=gzip_ok)
    response = Response(answer.body, answer.status, media_type="application/json")
    if answer.gzipped:
        response.headers["Content-Encoding"] = "gzip"
    response.headers["Vary"] = "Accept-Encoding"
    return response


def _replay_window(request: Request) -> RateWindow:
    """The replays each address asked for lately (one count for the application)."""
    state = request.app.state
    window: RateWindow | None = getattr(state, "replay_window", None)
    if window is None:
        window = state.replay_window = RateWindow(state.settings.replays_per_minute, 60.0)
    return window


def page_routes() -> list[BaseRoute]:
    """Every route of the browser table, for the server's application to include."""
    return [*routes, *pad_routes]


routes: list[BaseRoute] = [
    Route("/", lobby, methods=["GET"]),
    Route("/t/{table}", table_page, methods=["GET"]),
    Route("/t/{table}/replay", replay_page, methods=["GET"]),
    Route("/replay", replay_page, methods=["GET"]),
    Route("/learn", learn_page, methods=["GET"]),
    Route("/api/learn", learn_steps, methods=["GET"]),
    Route("/api/rules", rules_info, methods=["GET"]),
    Route("/api/rules/explain", explain_rules, methods=["POST"]),
    Route("/api/replay", replay_record, methods=["POST"]),
    Mount("/static", app=PageFiles(STATIC), name="static"),
]
