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


class _Counts:
    def __init__(self, connections: Connections) -> None:
        self.by_address: dict[str, int] = {}
        self.connections = connections

    def admit(self, address: str, settings: ServerSettings) -> str | None:
        """Count a connection, or the name of the limit it is over. Behind a proxy every
        connection comes from the proxy: the limit per address is then the WebSockets'
        (by the forwarded address) and the proxy's own."""
        if self.connections.total >= settings.max_connections:
            return "connections"
        held = self.by_address.get(address, 0)
        if held >= settings.connections_per_address and not settings.forwarded_allow_ips:
            return "connections_per_address"
        self.by_address[address] = held + 1
        self.connections.http_open += 1
        return None

    def release(self, address: str) -> None:
        held = self.by_address.get(address, 0) - 1
        if held > 0:
            self.by_address[address] = held
        else:
            self.by_address.pop(address, None)
        self.connections.http_open = max(0, self.connections.http_open - 1)


def guarded_http(settings: ServerSettings,
                 connections: Connections) -> type[HttpToolsProtocol]:
    """The HTTP protocol class for uvicorn's ``http`` setting, bounded by ``settings``
    (``max_connections`` with the WebSockets of ``connections``)."""
    counts = _Counts(connections)

    class GuardedHttp(HttpToolsProtocol):
        _address = ""
        _counted = False
        _timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._address = address_key(self.client[0] if self.client else None)
            over = counts.admit(self._address, settings)
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
                counts.release(self._address)
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
