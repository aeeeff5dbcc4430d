"""The ASGI application: the JSON API and the WebSocket of docs/protocol.md."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bots import BOT_NAMES
from ..rules import RulesError, rules_from_record
from .hub import CLOSE_POLICY, CLOSE_UNKNOWN_TOKEN, Client, Hub, UnknownToken
from .live import BOT, PERSON, SEED_LIMIT, Seat, Spec
from .security import (
    FRAME_LIMIT,
    BadFrame,
    BadName,
    RateLimit,
    clean_name,
    origin_allowed,
    parse_frame,
)
from .store import Store

log = logging.getLogger("rummy500.server")

BODY_LIMIT = 16 * 1024
TAKEOVER_LIMIT = 24 * 3600
TOKEN_LIMIT = 128
CLOSE_TOO_BIG = 1009
TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


async def read_json(request: Request) -> dict[str, Any]:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > BODY_LIMIT:
            raise ApiError(413, "too_large", f"a request body is at most {BODY_LIMIT} bytes")
    if not body.strip():
        return {}
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise ApiError(400, "bad_json", "the request body is not JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "bad_request", "the request body is one JSON object")
    return data


def table_spec(data: dict[str, Any]) -> tuple[Spec, list[Seat]]:
    """A new table's set-up from a POST /api/tables body, or :class:`ApiError` saying why."""
    rules_data = data.get("rules", {"preset": "classic"})
    try:
        rules = rules_from_record(rules_data)
    except (RulesError, TypeError, ValueError) as error:
        raise ApiError(400, "bad_rules", f"rules: {error}") from None
    players = data.get("players", 4 if rules.partnership else 2)
    if not isinstance(players, int) or isinstance(players, bool):
        raise ApiError(400, "bad_players", "players must be a whole number")
    try:
        rules.check_players(players)
    except RulesError as error:
        raise ApiError(400, "bad_players", str(error)) from None
    takeover = data.get("takeover_s", 60)
    if (not isinstance(takeover, int | float) or isinstance(takeover, bool)
            or not 0 <= takeover <= TAKEOVER_LIMIT):
        raise ApiError(400, "bad_takeover",
                       f"takeover_s must be a number of seconds from 0 to {TAKEOVER_LIMIT}")
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                             or not 0 <= seed < SEED_LIMIT):
        raise ApiError(400, "bad_seed", "seed must be a whole number from 0 to 2**63 - 1")
    seats = _seats(data.get("seats"), players)
    spec = Spec(rules=rules.to_record(), players=players,
                seed=secrets.randbelow(SEED_LIMIT) if seed is None else seed,
                takeover_s=float(takeover), seeded=seed is not None)
    return spec, seats


def _seats(given: Any, players: int) -> list[Seat]:
    if given is None:
        return [Seat(seat, PERSON) for seat in range(players)]
    if not isinstance(given, list) or len(given) != players:
        raise ApiError(400, "bad_seats", f"seats must list one entry for each of the {players} "
                                         "players")
    seats = []
    for index, entry in enumerate(given):
        if not isinstance(entry, dict):
            raise ApiError(400, "bad_seats", f"seat {index} must be an object with a kind")
        kind = entry.get("kind")
        if kind == PERSON:
            name = entry.get("name")
            seats.append(Seat(index, PERSON, name=None if name is None else _name(name)))
        elif kind == BOT:
            bot = entry.get("bot", "expert")
            if bot not in BOT_NAMES:
                raise ApiError(400, "bad_seats", f"seat {index}: unknown computer player "
                               f"{str(bot)[:40]!r}; the computer players are: "
                               f"{', '.join(BOT_NAMES)}")
            seats.append(Seat(index, BOT, bot=str(bot)))
        else:
            raise ApiError(400, "bad_seats", f"seat {index}: kind must be person or bot")
    return seats


def _name(value: Any) -> str:
    try:
        return clean_name(value)
    except BadName as error:
        raise ApiError(400, "bad_name", str(error)) from None


def _table_id(request: Request) -> str:
    table_id = str(request.path_params["table"])
    if not TABLE_ID.match(table_id):
        raise ApiError(404, "not_found", "there is no such table")
    return table_id


def create_app(store: Store, *, pace: float = 0.8, extra_routes: list[BaseRoute] | None = None,
               hub: Hub | None = None) -> Starlette:
    """The server for the tables in ``store``."""
    hub = hub if hub is not None else Hub(store, pace=pace)

    async def create_table(request: Request) -> Response:
        spec, seats = table_spec(await read_json(request))
        table, seat, token = await hub.create(spec, seats)
        return JSONResponse({"table": table.id, "url": f"/t/{table.id}", "seat": seat,
                             "token": token}, status_code=201)

    async def take_seat(request: Request) -> Response:
        table_id = _table_id(request)
        try:
            seat = int(request.path_params["seat"])
        except ValueError:
            raise ApiError(404, "not_found", "there is no such seat") from None
        data = await read_json(request)
        name = data.get("name")
        name = None if name is None else _name(name)
        table = await hub.table(table_id)
        if table is None:
            raise ApiError(404, "not_found", "there is no such table")
        if not 0 <= seat < table.spec.players:
            raise ApiError(404, "not_found", f"seats are numbered 0 to {table.spec.players - 1}")
        if table.seats[seat].kind != PERSON:
            raise ApiError(409, "not_a_person_seat", "a computer player sits there")
        outcome, token = await hub.take_seat(table_id, seat, name)
        if outcome == "unknown":
            raise ApiError(404, "not_found", "there is no such table")
        if outcome == "taken":
            raise ApiError(409, "seat_taken", "someone already sits there")
        return JSONResponse({"seat": seat, "token": token})

    async def again(request: Request) -> Response:
        table_id = _table_id(request)
        data = await read_json(request)
        table = await hub.table(table_id)
        if table is None:
            raise ApiError(404, "not_found", "there is no such table")
        token = data.get("token")
        if not isinstance(token, str) or not 0 < len(token) <= TOKEN_LIMIT:
            raise ApiError(400, "bad_request",
                           'send {"token": "<your seat token at this table>"}')
        seat = await hub.seat_of(table_id, token)
        if seat is None:
            raise ApiError(403, "bad_token", "that token holds no seat at this table")
        if not table.game.finished:
            raise ApiError(409, "not_over", "the next game can start once this one is over")
        outcome, next_id, new_token = await hub.again(table, seat)
        if outcome == "unknown" or next_id is None:
            raise ApiError(404, "not_found", "there is no such table")
        if outcome == "taken":
            raise ApiError(409, "seat_taken", "your seat at the next game is taken already")
        return JSONResponse({"table": next_id, "url": f"/t/{next_id}", "seat": seat,
                             "token": new_token},
                            status_code=201 if outcome == "created" else 200)

    async def summary(request: Request) -> Response:
        table = await hub.table(_table_id(request))
        if table is None:
            raise ApiError(404, "not_found", "there is no such table")
        return JSONResponse(table.summary())

    async def record(request: Request) -> Response:
        table = await hub.table(_table_id(request))
        if table is None:
            raise ApiError(404, "not_found", "there is no such table")
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

            listener = Listener(store.url, hub.heard)
            await listener.start()
        try:
            yield
        finally:
            await hub.stop()
            if listener is not None:
                await listener.stop()
            await store.close()

    routes: list[BaseRoute] = [
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table}", summary, methods=["GET"]),
        Route("/api/tables/{table}/record", record, methods=["GET"]),
        Route("/api/tables/{table}/seats/{seat}", take_seat, methods=["POST"]),
        Route("/api/tables/{table}/again", again, methods=["POST"]),
        WebSocketRoute("/ws/{table}", socket),
        *(extra_routes or []),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={ApiError: api_error, HTTPException: http_error})
    app.state.hub = hub
    return app


async def serve_socket(hub: Hub, websocket: WebSocket) -> None:
    """One WebSocket connection, from the origin check to the close."""
    table_id = str(websocket.path_params["table"])
    if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host")):
        await websocket.close(code=CLOSE_POLICY)  # before accept: an HTTP 403
        return
    await websocket.accept()
    if not TABLE_ID.match(table_id) or await hub.table(table_id) is None:
        await websocket.close(code=CLOSE_UNKNOWN_TOKEN, reason="there is no such table")
        return
    client = Client(table_id)
    writer = asyncio.ensure_future(_write(websocket, client))
    try:
        await _read(hub, websocket, client)
    except WebSocketDisconnect:
        pass
    finally:
        await hub.leave(client)
        if not writer.done():
            client.close(1000)
        try:
            await asyncio.wait_for(writer, 5)
        except (TimeoutError, asyncio.CancelledError, Exception):
            writer.cancel()


async def _write(websocket: WebSocket, client: Client) -> None:
    while True:
        item = await client.outbox.get()
        if isinstance(item, int):
            with contextlib.suppress(Exception):  # already closed by the other side
                await websocket.close(code=item)
            return
        try:
            await websocket.send_text(item)
        except Exception:
            return


async def _read(hub: Hub, websocket: WebSocket, client: Client) -> None:
    limit = RateLimit()
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:
            data = message.get("bytes") or b""
            if len(data) > FRAME_LIMIT:
                client.close(CLOSE_TOO_BIG)
                return
            client.send({"type": "error", "code": "bad_frame",
                         "message": "frames are JSON text, not binary"})
            continue
        if len(text) > FRAME_LIMIT or len(text.encode("utf-8")) > FRAME_LIMIT:
            client.close(CLOSE_TOO_BIG)
            return
        verdict = limit.check()
        if verdict == "close":
            client.close(CLOSE_POLICY)
            return
        if verdict == "drop":
            client.send({"type": "error", "code": "rate_limited",
                         "message": "at most 20 frames a second: this one was dropped"})
            continue
        frame = parse_frame(text)
        if isinstance(frame, BadFrame):
            client.send({"type": "error", "code": frame.code, "message": frame.message})
            continue
        kind = frame["type"]
        if kind == "ping":
            client.send({"type": "pong"})
        elif kind == "hello":
            try:
                await hub.join(client, frame["token"])
            except UnknownToken:
                client.close(CLOSE_UNKNOWN_TOKEN)
                return
        elif not client.joined:
            client.send({"type": "error", "code": "hello_first",
                         "message": "say hello first: {\"type\": \"hello\", \"token\": ...}"})
        else:
            await hub.move(client, frame["id"], frame["seq"], frame["move"])


__all__ = ["ApiError", "create_app", "table_spec"]
