"""One WebSocket connection of docs/protocol.md, from its admission to its close.

A connection is admitted only within the limits per address and per server, must say
hello within ``hello_timeout_s``, and sends at most ``frames_per_second`` frames a second
(20 unless the operator says otherwise) of at most 4 KiB.
"""

from __future__ import annotations

import asyncio
import contextlib

from starlette.websockets import WebSocket, WebSocketDisconnect

from . import metrics
from .addresses import client_address
from .client_frames import DROPS_BEFORE_CLOSE, FRAME_LIMIT, BadFrame, origin_allowed, parse_frame
from .connections import (
    CLOSE_NORMAL,
    CLOSE_POLICY,
    CLOSE_TOO_BIG,
    CLOSE_UNKNOWN_TOKEN,
    Client,
)
from .guard import unreachable_database
from .hub import Hub, UnknownToken
from .ids import valid_id
from .rate import RateWindow
from .transport import SEND_NOW

CLOSE_TRY_AGAIN = 1013


async def serve_socket(hub: Hub, websocket: WebSocket) -> None:
    table_id = str(websocket.path_params["table"])
    if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host")):
        await websocket.close(code=CLOSE_POLICY)  # before accept: an HTTP 403
        return
    settings = hub.settings
    address = client_address(websocket.scope)
    connections = hub.connections
    if connections.total >= settings.max_connections:
        metrics.limit_hit("connections")
        await websocket.close(code=CLOSE_TRY_AGAIN)
        return
    if not connections.sockets.admit(address, settings.connections_per_address):
        metrics.limit_hit("connections_per_address")
        await websocket.close(code=CLOSE_POLICY)
        return
    metrics.connection_opened("websocket")
    try:
        await websocket.accept()
        if not valid_id(table_id) or await hub.table(table_id) is None:
            await websocket.close(code=CLOSE_UNKNOWN_TOKEN, reason="there is no such table")
            return
        await _serve(hub, websocket, Client(table_id, address))
    finally:
        connections.sockets.release(address)
        metrics.connection_closed("websocket")


async def _serve(hub: Hub, websocket: WebSocket, client: Client) -> None:
    client.send_now = websocket.scope.get("extensions", {}).get(SEND_NOW)
    writer = asyncio.ensure_future(_write(websocket, client))
    try:
        await _read(hub, websocket, client)
    except WebSocketDisconnect:
        pass
    finally:
        await hub.leave(client)
        if not writer.done():
            client.close(CLOSE_NORMAL)
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
        client.writing = True
        try:
            await websocket.send_text(item.decode())
        except Exception:
            return
        finally:
            client.writing = False


async def _read(hub: Hub, websocket: WebSocket, client: Client) -> None:
    per_second = hub.settings.frames_per_second
    frames, drops = RateWindow(per_second, 1.0), RateWindow(DROPS_BEFORE_CLOSE, 1.0)
    hello_by = asyncio.get_running_loop().time() + hub.settings.hello_timeout_s
    while True:
        if client.joined:
            message = await websocket.receive()
        else:
            try:
                message = await asyncio.wait_for(
                    websocket.receive(), max(0.0, hello_by - asyncio.get_running_loop().time()))
            except TimeoutError:
                metrics.limit_hit("hello_timeout")
                client.close(CLOSE_POLICY)
                return
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
        # A character is at most 4 bytes of UTF-8: most frames need not be encoded to tell.
        if len(text) > FRAME_LIMIT or (len(text) * 4 > FRAME_LIMIT and len(
                text.encode("utf-8", "surrogatepass")) > FRAME_LIMIT):
            client.close(CLOSE_TOO_BIG)
            return
        if not frames.allow():
            metrics.limit_hit("frames")
            if not drops.allow():  # it keeps on
                client.close(CLOSE_POLICY)
                return
            client.send({"type": "error", "code": "rate_limited",
                         "message": f"at most {per_second} frames a second: this one "
                                    "was dropped"})
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
                await hub.join(client, frame["token"], frame["v"])
            except UnknownToken:
                client.close(CLOSE_UNKNOWN_TOKEN)
                return
            except Exception as error:
                if not unreachable_database(error):
                    raise
                client.send({"type": "error", "code": "unavailable",
                             "message": "the database cannot be reached just now: say hello "
                                        "again shortly"})
        elif not client.joined:
            client.send({"type": "error", "code": "hello_first",
                         "message": "say hello first: {\"type\": \"hello\", \"token\": ...}"})
        else:
            await hub.routes.deliver(client, frame)


__all__ = ["serve_socket"]
