"""Running the server: uvicorn on the application, with a shutdown that finishes what is
being written and closes every WebSocket with 1001 (going away)."""

from __future__ import annotations

import asyncio
import socket
import sys
from types import FrameType

import uvicorn

from ..web.pages import page_routes
from .app import create_app
from .hub import Hub
from .logs import configure as configure_logging
from .security import FRAME_LIMIT
from .settings import ServerSettings
from .store import Store
from .transport import uvicorn_options


class Server(uvicorn.Server):
    """uvicorn's server, saying where it listens and going away politely."""

    def __init__(self, config: uvicorn.Config, hub: Hub) -> None:
        super().__init__(config)
        self.hub = hub
        self.stopping = False
        self.stop_task: asyncio.Future[None] | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.should_exit:
            return
        for server in self.servers:
            for sock in server.sockets:
                host, port = sock.getsockname()[:2]
                shown = f"[{host}]" if ":" in host else host
                scheme = "https" if self.config.is_ssl else "http"
                print(f"rummy500 serve: listening on {scheme}://{shown}:{port}/", flush=True)
                return

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


def serve(settings: ServerSettings) -> int:
    """Serve the tables of ``settings.database`` until SIGINT or SIGTERM."""
    assert settings.database is not None
    configure_logging(settings.log_level, settings.log_format)
    store = Store(settings.database)
    hub = Hub(store, settings=settings)
    app = create_app(store, hub=hub, settings=settings, extra_routes=page_routes())
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
