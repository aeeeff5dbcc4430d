"""Running the server: uvicorn on the application (its protocols bounded by :mod:`.transport`),
the metrics on a port of their own, and a shutdown that finishes what is being written and
closes every WebSocket with 1001 (going away)."""

from __future__ import annotations

import asyncio
import gc
import logging
import socket
import sys
from collections.abc import Callable, Sequence
from types import FrameType

import uvicorn
from starlette.routing import BaseRoute

from . import metrics
from .addresses import TrustedProxies
from .app import create_app
from .client_frames import FRAME_LIMIT
from .hub import Hub
from .logs import configure as configure_logging
from .settings import ServerSettings
from .store import Store
from .transport import uvicorn_options

log = logging.getLogger("rummy500.server")

GC_THRESHOLDS = (50_000, 20, 20)
"""The cycle collector's thresholds while serving (Python's default: 700, 10, 10)."""


class Server(uvicorn.Server):
    """uvicorn's server, saying where it listens (the tables, and apart from them the
    metrics) and going away politely."""

    def __init__(self, config: uvicorn.Config, hub: Hub) -> None:
        super().__init__(config)
        self.hub = hub
        self.stopping = False
        self.stop_task: asyncio.Future[None] | None = None
        self.metrics_server: asyncio.Server | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.should_exit:
            return
        # Every move makes a few hundred short-lived objects and the tables in memory
        # are many long-lived ones: with Python's default thresholds the cycle collector
        # ran hundreds of times a second and its full passes over every table stopped the
        # loop for up to 200 ms (the p99 of a move's ack). What the server holds from its
        # start is never scanned again, and the collector runs far less often.
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        settings = self.hub.settings
        try:
            self.metrics_server = await metrics.serve_metrics(settings.metrics_host,
                                                              settings.metrics_port)
        except OSError as error:
            log.error("--metrics-host %s --metrics-port %d: %s", settings.metrics_host,
                      settings.metrics_port, error)
            await self.lifespan.shutdown()
            sys.exit(1)
        for sock in self.metrics_server.sockets[:1]:
            print(f"rummy500 serve: metrics on {_url('http', sock)}metrics", flush=True)
        for server in self.servers:
            for sock in server.sockets[:1]:
                scheme = "https" if self.config.is_ssl else "http"
                print(f"rummy500 serve: listening on {_url(scheme, sock)}", flush=True)
                return

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self.metrics_server is not None:
            self.metrics_server.close()
        await super().shutdown(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self.stopping:  # a second signal: stop now
            self.force_exit = True
            self.should_exit = True
            return
        self.stopping = True
        asyncio.get_event_loop().call_soon_threadsafe(self._begin_stop)

    def _begin_stop(self) -> None:
        self.stop_task = asyncio.ensure_future(self._stop())

    async def _stop(self) -> None:
        try:
            await asyncio.wait_for(self.hub.stop(), 10)
            await asyncio.sleep(0.3)  # let the close frames go out
        finally:
            self.should_exit = True


def _url(scheme: str, sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"{scheme}://{shown}:{port}/"


def warn_of_any_proxy(settings: ServerSettings) -> None:
    """``--forwarded-allow-ips *`` believes every client's X-Forwarded-For: anyone who
    reaches the port chooses the address the limits per address count."""
    if TrustedProxies(settings.forwarded_allow_ips).anyone:
        log.warning("--forwarded-allow-ips '*' believes the X-Forwarded-For of every client: "
                    "anyone who reaches port %d directly chooses the address that the limits "
                    "per address count, and is not limited per address itself. Name the "
                    "proxy's address instead, unless nothing but the proxy can reach the "
                    "port.", settings.port)


def serve(settings: ServerSettings, *, extra_routes: list[BaseRoute] | None = None,
          on_close: Sequence[Callable[[], None]] = ()) -> int:
    """Serve the tables of ``settings.database`` until SIGINT or SIGTERM, with
    ``extra_routes`` (the pages) beside the API and ``on_close`` called as it stops."""
    assert settings.database is not None
    configure_logging(settings.log_level, settings.log_format)
    warn_of_any_proxy(settings)
    store = Store(settings.database)
    hub = Hub(store, settings=settings)
    app = create_app(store, hub=hub, settings=settings, extra_routes=extra_routes,
                     on_close=on_close)
    proxied = bool(settings.forwarded_allow_ips)
    config = uvicorn.Config(app, host=settings.host, port=settings.port, ws_max_size=FRAME_LIMIT,
                            log_level=settings.log_level, access_log=False, lifespan="on",
                            log_config=None,  # uvicorn logs through configure_logging's handler
                            ws_ping_interval=20, ws_ping_timeout=20,
                            timeout_graceful_shutdown=5, server_header=False,
                            proxy_headers=proxied,
                            forwarded_allow_ips=settings.forwarded_allow_ips or None,
                            ssl_certfile=settings.certfile, ssl_keyfile=settings.keyfile,
                            **uvicorn_options(settings, hub.connections))
    server = Server(config, hub)
    server.run()
    if not server.started:
        print("rummy500 serve: the server did not start (see above)", file=sys.stderr)
        return 1
    return 0
