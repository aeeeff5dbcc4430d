"""Running the server: uvicorn on the application, with a shutdown that finishes what is
being written and closes every WebSocket with 1001 (going away)."""

from __future__ import annotations

import asyncio
import logging
import socket
import sys
from types import FrameType

import uvicorn

from ..web.pages import page_routes
from .app import create_app
from .hub import Hub
from .security import FRAME_LIMIT
from .store import Store


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
                print(f"rummy500 serve: listening on http://{shown}:{port}/", flush=True)
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


def serve(database: str, host: str = "127.0.0.1", port: int = 8500, *, pace: float = 0.8,
          log_level: str = "warning") -> int:
    """Serve the tables of ``database`` until SIGINT or SIGTERM."""
    logging.basicConfig(level=getattr(logging, log_level.upper(), logging.WARNING),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    store = Store(database)
    hub = Hub(store, pace=pace)
    app = create_app(store, hub=hub, extra_routes=page_routes())
    config = uvicorn.Config(app, host=host, port=port, ws_max_size=FRAME_LIMIT,
                            log_level=log_level, access_log=False, lifespan="on",
                            ws_ping_interval=20, ws_ping_timeout=20,
                            timeout_graceful_shutdown=5)
    server = Server(config, hub)
    server.run()
    if not server.started:
        print("rummy500 serve: the server did not start (see above)", file=sys.stderr)
        return 1
    return 0
