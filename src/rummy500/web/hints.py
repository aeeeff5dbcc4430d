"""Hints for the browser table: what ``expert`` would play in a seat's position, and why.

``POST /api/tables/<id>/hint`` with ``{"token": "<seat token>"}`` answers
``{"seq": n, "move": "<notation>", "reason": "<one line>"}`` for the seat whose token it is,
on its own turn. The expert sees that seat's view only (what the seat may know), and
thinks in a worker thread so that the event loop serves other tables meanwhile.
"""

from __future__ import annotations

import asyncio
import hashlib

from starlette.requests import Request
from starlette.responses import Response

from ..bots.registry import make_bot
from ..view import PlayerView

HINT_BOT = "expert"
HINT_BUDGET_S = 1.0


def decide(view: PlayerView, seed: str) -> dict[str, str]:
    """The hint bot's move for ``view`` and its one-line reason."""
    bot = make_bot(HINT_BOT, int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big"),
                   HINT_BUDGET_S)
    decision = bot.decide(view)
    return {"move": str(decision.move), "reason": decision.reason}


async def hint(request: Request) -> Response:
    from .pages import error_json, json_response, read_json

    body = await read_json(request, 4096)
    if isinstance(body, Response):
        return body
    token = body.get("token") if isinstance(body, dict) else None
    if not isinstance(token, str) or not 0 < len(token) <= 128:
        return error_json(400, "bad_request", "send {\"token\": \"<your seat token>\"}")
    hub = getattr(request.app.state, "hub", None)
    table = None if hub is None else await hub.table(str(request.path_params["table"]))
    if hub is None or table is None:
        return error_json(404, "not_found", "there is no such table")
    seat = await hub.seat_of(table.id, token)
    if seat is None:
        return error_json(403, "unknown_token", "that token holds no seat at this table")
    game = table.game
    if not game.deals or game.finished or game.deal.over or game.turn != seat:
        return error_json(409, "not_your_turn", "hints are for your own turn")
    seq = table.seq
    view = game.view(seat)
    answer = await asyncio.to_thread(decide, view, f"{table.id} hint {seq}")
    return json_response({"seq": seq, **answer})
