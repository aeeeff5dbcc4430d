"""uvicorn's protocols with the bounds of a server open to the internet.

Every socket is counted and timed from the moment it is accepted until it is closed,
whatever state its request or WebSocket handshake is in:

- At most ``max_connections`` in all and ``connections_per_address`` from one peer
  address: a socket over either is closed at once. A trusted proxy's own connections
  (``--forwarded-allow-ips``) are not limited per address: the forwarded address is, by
  the guard (requests) and :mod:`.table_socket` (WebSockets).
- ``header_timeout_s`` to send a request's headers (a client that trickles them in, or
  opens connections and sends nothing, is closed) and, for a WebSocket upgrade, to have
  the handshake done.
- A WebSocket upgrade stays counted here until the application takes it into its own
  count (:mod:`.table_socket`, in the first step of its task). An upgrade that
  websockets' parser refuses (a request line over 8 KiB, a header line over 8 KiB, more
  than 128 headers) is answered (414, 431 or 400) and closed: uvicorn's own protocol
  never answers it nor closes it.

Once a WebSocket is open, :mod:`.table_socket` bounds it (hello timeout, frame limits) and
uvicorn pings it; its socket is no longer read while :data:`RECEIVED_AHEAD` messages wait
for the application. Its scope carries :data:`SEND_NOW`, a text frame written at once rather
than through the ASGI ``send`` and its layers (the frames of every move go that way).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidMessage
from websockets.protocol import State

from . import metrics
from .addresses import TrustedProxies, address_key
from .connections import AddressTally, Connections
from .settings import ServerSettings

BAD_UPGRADE = (b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
               b"Content-Length: 30\r\nConnection: close\r\n\r\nnot a valid WebSocket request\n")
"""The answer to an upgrade request websockets could not read, when it gives none."""

SEND_NOW = "rummy500.send_now"
"""The scope extension of an open WebSocket's ``send_now(frames) -> bool``: text frames
(each given as its UTF-8 bytes) written to the socket at once, in one write, or False
when they cannot be now (the handshake not done, closing, or the peer reading too slowly:
the transport paused writing), when the caller sends them through the ASGI ``send``,
which waits."""


RECEIVED_AHEAD = 8
"""Messages of one WebSocket waiting for the application before its socket is no longer
read (uvicorn stops after each one, until the application takes it: two changes to the
event loop's watch of the socket for every frame)."""


class Held:
    """One accepted socket's place in the count and its deadline, handed from the HTTP
    protocol to the WebSocket one with the socket."""

    def __init__(self, tally: AddressTally, address: str, loop: asyncio.AbstractEventLoop,
                 transport: asyncio.BaseTransport) -> None:
        self.tally = tally
        self.address = address
        self.loop = loop
        self.transport = transport
        self.counted = True
        self.timer: asyncio.TimerHandle | None = None

    def deadline(self, seconds: float) -> None:
        """Close the socket unless :meth:`on_time` is called within ``seconds``."""
        self.on_time()
        self.timer = self.loop.call_later(seconds, self._too_slow)

    def on_time(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _too_slow(self) -> None:
        self.timer = None
        metrics.limit_hit("header_timeout")
        self.transport.close()

    def uncount(self) -> None:
        """The socket leaves this count (closed, or counted as a WebSocket now)."""
        if self.counted:
            self.counted = False
            self.tally.release(self.address)
            metrics.connection_closed("http")

    def release(self) -> None:
        self.on_time()
        self.uncount()


def _admit(connections: Connections, address: str, per_address: int | None,
           settings: ServerSettings) -> str | None:
    """Count an accepted socket, or the name of the limit it is over."""
    if connections.total >= settings.max_connections:
        return "connections"
    if not connections.plain.admit(address, per_address):
        return "connections_per_address"
    return None


def guarded_protocols(settings: ServerSettings, connections: Connections,
                      ) -> tuple[type[HttpToolsProtocol], type[WebSocketsSansIOProtocol]]:
    """The HTTP and WebSocket protocol classes for uvicorn's ``http`` and ``ws`` settings,
    bounded by ``settings`` (``max_connections`` with the WebSockets of ``connections``)."""
    proxies = TrustedProxies(settings.forwarded_allow_ips)
    handed: dict[asyncio.BaseTransport, Held] = {}

    class GuardedHttp(HttpToolsProtocol):
        _held: Held | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            peer = self.client[0] if self.client else None
            address = address_key(peer)
            per_address = None if peer in proxies else settings.connections_per_address
            over = _admit(connections, address, per_address, settings)
            if over is not None:
                metrics.limit_hit(over)
                transport.close()
                return
            metrics.connection_opened("http")
            self._held = Held(connections.plain, address, self.loop, transport)
            self._held.deadline(settings.header_timeout_s)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self._held is not None:
                self._held.deadline(settings.header_timeout_s)

        def on_headers_complete(self) -> None:
            # An upgrade keeps its deadline until the WebSocket handshake is done.
            upgrading = self.parser.should_upgrade() and self._should_upgrade()
            if self._held is not None and not upgrading:
                self._held.on_time()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._held is not None:
                self._held.release()
            super().connection_lost(exc)

        def handle_websocket_upgrade(self) -> None:
            held, self._held = self._held, None
            if held is None:  # not counted: refused at once (cannot happen), so closed
                self.transport.close()
                return
            handed[self.transport] = held  # for GuardedWebSocket.connection_made
            try:
                super().handle_websocket_upgrade()
            finally:
                handed.pop(self.transport, None)

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        _held: Held | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            self._held = handed.pop(transport, None)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if (not self.handshake_initiated and not self.close_sent
                    and self.conn.handshake_exc is not None):
                self._refuse(self.conn.handshake_exc)

        def _refuse(self, error: Exception) -> None:
            """websockets could not read the request: answer it (its 414 or 431, else a
            400) and close, as uvicorn does not."""
            if not isinstance(error, InvalidMessage):
                metrics.limit_hit("header_size")
            answer = b"".join(self.conn.data_to_send())
            if not answer.startswith(b"HTTP/"):
                answer = BAD_UPGRADE
            self.handshake_complete = True
            self.close_sent = True  # uvicorn's shutdown then only closes the socket
            if self._held is not None:
                self._held.on_time()
            self.transport.write(answer)
            self.transport.close()

        def send_receive_event_to_app(self) -> None:
            paused, self.read_paused = self.read_paused, True  # uvicorn's pause skipped
            try:
                super().send_receive_event_to_app()
            finally:
                self.read_paused = paused
            if not paused and self.queue.qsize() >= RECEIVED_AHEAD:
                self.read_paused = True
                self.transport.pause_reading()

        def handle_connect(self, event: Any) -> None:
            # The application counts the WebSocket from its first step (table_socket):
            # it leaves this count as its task is made. The deadline still runs.
            if self._held is not None:
                self._held.uncount()
            super().handle_connect(event)
            if self.handshake_initiated and not self.handshake_complete:  # accepted
                extensions: Any = self.scope["extensions"]
                extensions[SEND_NOW] = self.send_now

        def send_now(self, frames: Sequence[bytes]) -> bool:
            if (not self.handshake_complete or self.close_sent or self.disconnected
                    or not self.writable.is_set() or self.conn.state is not State.OPEN):
                return False
            for data in frames:
                self.conn.send_text(data)
            self.transport.write(b"".join(self.conn.data_to_send()))
            return True

        async def send(self, message: Any) -> None:
            await super().send(message)
            if self.handshake_complete and self._held is not None:
                self._held.on_time()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._held is not None:
                self._held.release()
            super().connection_lost(exc)

    return GuardedHttp, GuardedWebSocket


def uvicorn_options(settings: ServerSettings, connections: Connections) -> dict[str, Any]:
    http, ws = guarded_protocols(settings, connections)
    return {"http": http, "ws": ws, "timeout_keep_alive": 5}


__all__ = ["RECEIVED_AHEAD", "SEND_NOW", "Held", "guarded_protocols", "uvicorn_options"]
