"""uvicorn's HTTP protocol with the bounds of a server open to the internet: at most
``max_connections`` connections in all and ``connections_per_address`` from one
address, and ``header_timeout_s`` to send a request's headers (a client that trickles
them in, or opens connections and sends nothing, is closed). WebSockets, once
upgraded, are bounded by :mod:`.table_socket`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from . import metrics
from .addresses import address_key
from .connections import Connections
from .settings import ServerSettings


def _admit(connections: Connections, address: str, settings: ServerSettings) -> str | None:
    """Count a plain connection, or the name of the limit it is over. Behind a proxy every
    connection comes from the proxy: the limit per address is then the WebSockets' (by
    the forwarded address) and the proxy's own."""
    if connections.total >= settings.max_connections:
        return "connections"
    per_address = None if settings.forwarded_allow_ips else settings.connections_per_address
    if not connections.plain.admit(address, per_address):
        return "connections_per_address"
    return None


def guarded_http(settings: ServerSettings,
                 connections: Connections) -> type[HttpToolsProtocol]:
    """The HTTP protocol class for uvicorn's ``http`` setting, bounded by ``settings``
    (``max_connections`` with the WebSockets of ``connections``)."""

    class GuardedHttp(HttpToolsProtocol):
        _address = ""
        _counted = False
        _timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._address = address_key(self.client[0] if self.client else None)
            over = _admit(connections, self._address, settings)
            if over is not None:
                metrics.limit_hit(over)
                transport.close()
                return
            self._counted = True
            metrics.connection_opened("http")
            self._start_timer()

        def _start_timer(self) -> None:
            self._stop_timer()
            self._timer = self.loop.call_later(settings.header_timeout_s, self._too_slow)

        def _stop_timer(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _too_slow(self) -> None:
            self._timer = None
            metrics.limit_hit("header_timeout")
            self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._start_timer()

        def on_headers_complete(self) -> None:
            self._stop_timer()
            super().on_headers_complete()

        def _release(self) -> None:
            self._stop_timer()
            if self._counted:
                self._counted = False
                connections.plain.release(self._address)
                metrics.connection_closed("http")

        def connection_lost(self, exc: Exception | None) -> None:
            self._release()
            super().connection_lost(exc)

        def handle_websocket_upgrade(self) -> None:
            self._release()  # the WebSocket is counted as one from here on
            super().handle_websocket_upgrade()

    return GuardedHttp


def uvicorn_options(settings: ServerSettings, connections: Connections) -> dict[str, Any]:
    return {"http": guarded_http(settings, connections), "timeout_keep_alive": 5}


__all__ = ["guarded_http", "uvicorn_options"]
