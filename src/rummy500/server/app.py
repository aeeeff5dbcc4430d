"""The ASGI application: the JSON API and the WebSocket of docs/protocol.md, behind the
guard (:mod:`.guard`), with the operator's routes (:mod:`.ops`) and the pages.

Every error is ``{"error": code, "message": words}`` with its status.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from . import metrics
from .addresses import client_address, creator_id
from .apierror import ApiError, error_response
from .bodies import read_object
from .guard import Guard
from .hub import Hub
from .ids import valid_id, valid_token
from .live import PERSON, LiveTable
from .logs import RequestContext, about_table
from .ops import Health, ops_routes
from .rate import RateWindow
from .reviewing import review_routes
from .settings import ServerSettings
from .store import Store
from .table_socket import serve_socket
from .tables import check_name_free, check_table_limits, person_name, table_spec
from .thinking import Question, ThinkingBusy, address_party, seed_number

BODY_LIMIT = 16 * 1024
HINT_BOT = "expert"
HINT_BUDGET_S = 1.0


def _table_id(request: Request) -> str:
    table_id = str(request.path_params["table"])
    if not valid_id(table_id):
        raise ApiError(404, "not_found", "there is no such table")
    return table_id


def _token(data: dict[str, Any], what: str = "your seat token at this table") -> str:
    token = data.get("token")
    if not valid_token(token):
        raise ApiError(400, "bad_request", f'send {{"token": "<{what}>"}}')
    assert isinstance(token, str)
    return token


def create_app(store: Store, *, settings: ServerSettings | None = None,
               extra_routes: list[BaseRoute] | None = None, hub: Hub | None = None,
               on_close: Sequence[Callable[[], None]] = ()) -> Starlette:
    """The server for the tables in ``store``; ``extra_routes`` (the pages) are served
    beside its API, and ``on_close`` called when it stops (their own workers)."""
    settings = settings if settings is not None else ServerSettings()
    hub = hub if hub is not None else Hub(store, settings=settings)
    health = Health(store)
    hints = RateWindow(settings.hints_per_minute, 60.0)
    reviewing, reviews = review_routes(hub, settings)
    # The limits per address are checked and the table made as one step: else requests
    # sent all at once would each pass the check before any of their tables exists.
    creating = asyncio.Lock()

    async def known_table(request: Request) -> LiveTable:
        table = await hub.table(_table_id(request))
        if table is None:
            raise ApiError(404, "not_found", "there is no such table")
        return table

    async def create_table(request: Request) -> Response:
        data = await read_object(request, BODY_LIMIT)
        if data.get("moves") is None:
            spec, seats = table_spec(data, allow_seeds=settings.allow_seeds)
        else:  # up to MOVES_LIMIT moves played and checked: not on the event loop
            spec, seats = await asyncio.to_thread(table_spec, data,
                                                  allow_seeds=settings.allow_seeds)
        if not any(seat.kind == PERSON for seat in seats):
            raise ApiError(400, "needs_person", "a table needs at least one person seat: "
                           "computer players play only with people")
        creator = creator_id(client_address(request.scope))
        async with creating:
            await check_table_limits(store, settings, creator)
            table, seat, token = await hub.master.create(spec, seats, creator)
        about_table(table.id)
        return JSONResponse({"table": table.id, "url": f"/t/{table.id}", "seat": seat,
                             "token": token}, status_code=201)

    async def take_seat(request: Request) -> Response:
        table_id = _table_id(request)
        try:
            seat = int(request.path_params["seat"])
        except ValueError:
            raise ApiError(404, "not_found", "there is no such seat") from None
        data = await read_object(request, BODY_LIMIT)
        name = data.get("name")
        name = None if name is None else person_name(name)
        table = await known_table(request)
        if not 0 <= seat < table.spec.players:
            raise ApiError(404, "not_found", f"seats are numbered 0 to {table.spec.players - 1}")
        if table.seats[seat].kind != PERSON:
            raise ApiError(409, "not_a_person_seat", "a computer player sits there")
        await check_name_free(store, table_id, seat, name)
        outcome, token = await hub.master.take_seat(table_id, seat, name)
        if outcome == "unknown":
            raise ApiError(404, "not_found", "there is no such table")
        if outcome == "name_taken":
            raise ApiError(409, "name_taken", "another player at this table has that name, "
                           "or one that looks like it: choose another name")
        if outcome == "taken":
            raise ApiError(409, "seat_taken", "someone already sits there")
        if outcome == "reserved":
            raise ApiError(409, "seat_kept", "this seat is kept for the person who held it at "
                           "the last game: take another, or wait until they decline")
        return JSONResponse({"seat": seat, "token": token})

    async def again(request: Request) -> Response:
        data = await read_object(request, BODY_LIMIT)
        table = await known_table(request)
        token = _token(data)
        seat = await hub.master.seat_of(table, token)
        if seat is None:
            raise ApiError(403, "bad_token", "that token holds no seat at this table")
        if not table.game.finished:
            raise ApiError(409, "not_over", "the next game can start once this one is over")
        if data.get("decline") is True:
            if table.next_table is None:
                raise ApiError(409, "no_next_game", "nobody has asked for the next game yet: "
                               "there is no seat to decline")
            released = await hub.master.decline(table, token)
            return JSONResponse({"declined": released, "table": table.next_table})
        if table.next_table is None:  # this request makes the next table: it counts
            creator = creator_id(client_address(request.scope))
            async with creating:
                await check_table_limits(store, settings, creator)
                outcome, next_id, new_token = await hub.master.again(table, seat, token,
                                                                     creator=creator)
        else:
            outcome, next_id, new_token = await hub.master.again(table, seat, token)
        if outcome == "unknown" or next_id is None:
            raise ApiError(404, "not_found", "there is no such table")
        if outcome in ("taken", "reserved"):
            raise ApiError(409, "seat_taken", "your seat at the next game is taken already")
        return JSONResponse({"table": next_id, "url": f"/t/{next_id}", "seat": seat,
                             "token": new_token},
                            status_code=201 if outcome == "created" else 200)

    async def hint(request: Request) -> Response:
        """What ``expert`` would play in the seat's position, and why: thought out in the
        computer players' workers, ahead of their own moves."""
        data = await read_object(request, 4096)
        table = await known_table(request)
        token = _token(data, "your seat token")
        seat = await hub.master.seat_of(table, token)
        if seat is None:
            raise ApiError(403, "bad_token", "that token holds no seat at this table")
        game = table.game
        if not game.deals or game.finished or game.deal.over or game.turn != seat:
            raise ApiError(409, "not_your_turn", "hints are for your own turn")
        if not hints.allow(client_address(request.scope)):
            metrics.limit_hit("hints")
            raise ApiError(429, "too_many_hints", f"at most {settings.hints_per_minute} hints "
                           "a minute")
        seq = table.seq
        question = Question(HINT_BOT, seed_number(f"{table.id} hint {seq}"), HINT_BUDGET_S,
                            game.view(seat), f"{table.id} hint {seq}")
        try:  # in the turn of the asker's address, ahead of its own tables
            answer = await hub.thinking.ask(
                table.id, question, urgent=True,
                party=address_party(creator_id(client_address(request.scope))))
        except ThinkingBusy:
            raise ApiError(503, "busy", "too many decisions from your address are waiting: "
                           "ask again in a moment") from None
        return JSONResponse({"seq": seq, "move": answer.move, "reason": answer.reason})

    async def summary(request: Request) -> Response:
        return JSONResponse((await known_table(request)).summary())

    async def record(request: Request) -> Response:
        table = await known_table(request)
        if not table.game.finished:
            raise ApiError(409, "not_over", "the record is given once the game is over")
        return JSONResponse(table.record())

    async def socket(websocket: WebSocket) -> None:
        await serve_socket(hub, websocket)

    async def api_error(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return error_response(exc.status, exc.code, exc.message)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        codes = {404: "not_found", 405: "method_not_allowed"}
        return error_response(exc.status_code, codes.get(exc.status_code, "bad_request"),
                              str(exc.detail))

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await store.open()
        await hub.start()
        listener = None
        if store.postgres:
            from .notifier import Listener

            listener = Listener(store.url, hub.heard, on_reconnect=hub.resync)
            await listener.start()
        try:
            yield
        finally:
            reviews.close()
            await hub.stop()
            for close in on_close:
                close()
            if listener is not None:
                await listener.stop()
            health.close()
            await store.close()

    routes: list[BaseRoute] = [
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table}", summary, methods=["GET"]),
        Route("/api/tables/{table}/record", record, methods=["GET"]),
        Route("/api/tables/{table}/seats/{seat}", take_seat, methods=["POST"]),
        Route("/api/tables/{table}/again", again, methods=["POST"]),
        Route("/api/tables/{table}/hint", hint, methods=["POST"]),
        *reviewing,
        WebSocketRoute("/ws/{table}", socket),
        *ops_routes(store, health),
        *(extra_routes or []),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(RequestContext), Middleware(Guard, settings=settings)],
                    exception_handlers={ApiError: api_error, HTTPException: http_error})
    app.router.redirect_slashes = False  # a redirect would be built from the Host header
    app.state.hub = hub
    app.state.settings = settings
    return app



__all__ = ["ApiError", "create_app"]
