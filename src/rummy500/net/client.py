"""A Python client of ``rummy500 serve`` (asyncio): the HTTP API and a seat's WebSocket.

Used by ``rummy500 play --join``, the tests and the load benchmark. Needs the
``websockets`` package (the ``[web]`` extra)::

    api = Api("http://127.0.0.1:8500")
    made = await api.create_table({"players": 2, "seats": [{"kind": "person"},
                                                            {"kind": "bot", "bot": "expert"}]})
    async with await TableConnection.open(api.base, made["table"], made["token"]) as seat:
        while not seat.state["over"]:
            if seat.state.get("legal"):
                await seat.move(seat.state["legal"][0])
            else:
                await seat.next()
"""

from __future__ import annotations

import asyncio
import itertools
import json
import ssl
import urllib.error
import urllib.request
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..errors import BadInputError
from .protocol import LATEST, V2, Gap, apply_frame


class ServerError(Exception):
    """The server answered with an error (``status``, ``code``, its words)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


class Closed(Exception):
    """The server closed the WebSocket (``code``)."""

    def __init__(self, code: int | None, reason: str = "") -> None:
        said = f": {reason}" if reason else ""
        super().__init__(f"the server closed the connection ({code}{said})")
        self.code = code
        self.reason = reason


def _closed(closed: Any) -> Closed:
    """:class:`Closed` with the code and reason the server closed with (websockets'
    ``ConnectionClosed``)."""
    received = closed.rcvd
    return Closed(received.code if received else None, received.reason if received else "")


def split_table_url(url: str) -> tuple[str, str]:
    """``http://host:port/t/<id>`` as the server's base URL and the table id."""
    parts = urlsplit(url)
    pieces = [p for p in parts.path.split("/") if p]
    if parts.scheme not in ("http", "https") or len(pieces) < 2 or pieces[-2] != "t":
        raise BadInputError(f"{url!r} is not a table link: it looks like http://HOST:PORT/t/ID")
    base = urlunsplit((parts.scheme, parts.netloc, "", "", ""))
    return base, pieces[-1]


class Api:
    """The JSON API of one server (``base`` like ``http://127.0.0.1:8500``).

    ``ssl_context``, for an ``https://`` server, is the trust to check its certificate
    against (a self-signed one, say); by default the system's."""

    def __init__(self, base: str, timeout: float = 30.0, *,
                 ssl_context: ssl.SSLContext | None = None) -> None:
        self.base = base.rstrip("/")
        self.timeout = timeout
        self.ssl_context = ssl_context

    async def call(self, method: str, path: str, body: dict[str, Any] | None = None,
                   ) -> dict[str, Any]:
        return await asyncio.to_thread(self._call, method, path, body)

    def _call(self, method: str, path: str, body: dict[str, Any] | None) -> dict[str, Any]:
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout,
                                        context=self.ssl_context) as answer:
                result: dict[str, Any] = json.loads(answer.read() or b"{}")
                return result
        except urllib.error.HTTPError as error:
            try:
                problem = json.loads(error.read())
                code, message = str(problem["error"]), str(problem["message"])
            except (ValueError, KeyError, TypeError):
                code, message = "http", str(error)
            raise ServerError(error.code, code, message) from None

    async def create_table(self, body: dict[str, Any]) -> dict[str, Any]:
        return await self.call("POST", "/api/tables", body)

    async def take_seat(self, table: str, seat: int, name: str | None = None) -> dict[str, Any]:
        return await self.call("POST", f"/api/tables/{table}/seats/{seat}",
                               {} if name is None else {"name": name})

    async def again(self, table: str, token: str) -> dict[str, Any]:
        """The next game of the finished ``table``, with this seat's own seat taken in it:
        ``{"table", "url", "seat", "token"}`` (made by this call, or by someone before)."""
        return await self.call("POST", f"/api/tables/{table}/again", {"token": token})

    async def summary(self, table: str) -> dict[str, Any]:
        return await self.call("GET", f"/api/tables/{table}")

    async def record(self, table: str) -> dict[str, Any]:
        return await self.call("GET", f"/api/tables/{table}/record")


def socket_url(base: str, table: str) -> str:
    parts = urlsplit(base)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return urlunsplit((scheme, parts.netloc, f"/ws/{table}", "", ""))


class TableConnection:
    """One seat's (or a spectator's) WebSocket: the latest ``state`` and ``seq``, and moves."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.state: dict[str, Any] = {}
        self.seq = -1
        self.seat: int | None = None
        self.frames: list[dict[str, Any]] = []
        """Every frame received, in order (for tests and tools that want them)."""
        self.keep_frames = False
        self.version = LATEST
        """The protocol version this connection asked for in its hello."""
        self.resyncs = 0
        """How many times a missed change made it ask for the whole state again."""
        self._resyncing = False
        self._ids = itertools.count(1)

    @classmethod
    async def open(cls, base: str, table: str, token: str | None, *,
                   origin: str | None = None, keep_frames: bool = False,
                   open_timeout: float = 30.0, version: int = LATEST,
                   ssl_context: ssl.SSLContext | None = None) -> TableConnection:
        """Connect and say hello; returns once the welcome is in. ``ssl_context`` as
        for :class:`Api` (``wss://`` for an ``https://`` base); ``version``: of the
        protocol (3: updates carry the change, folded here into :attr:`state`)."""
        import websockets

        headers = {"Origin": origin} if origin else None
        # websockets wants no ssl argument at all unless there is a context to give.
        tls: dict[str, Any] = {} if ssl_context is None else {"ssl": ssl_context}
        socket = await websockets.connect(socket_url(base, table), additional_headers=headers,
                                          open_timeout=open_timeout, max_size=2**24, **tls)
        connection = cls(socket)
        connection.keep_frames = keep_frames
        connection.version = version
        hello: dict[str, Any] = {"type": "hello", "token": token}
        if version != V2:
            hello["v"] = version
        await connection.send(hello)
        while connection.seq < 0:
            await connection.next()
        return connection

    async def __aenter__(self) -> TableConnection:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        await self.close()

    async def close(self) -> None:
        await self.socket.close()

    async def send(self, frame: dict[str, Any]) -> None:
        """Send a frame; :class:`Closed` if the server has closed the connection (it may
        close at once, for an unknown table, before the hello is out)."""
        import websockets

        try:
            await self.socket.send(json.dumps(frame))
        except websockets.ConnectionClosed as closed:
            raise _closed(closed) from None

    async def next(self, timeout: float | None = None) -> dict[str, Any]:
        """The next frame (state and seq follow welcomes and updates)."""
        import websockets

        try:
            text = await asyncio.wait_for(self.socket.recv(), timeout)
        except websockets.ConnectionClosed as closed:
            raise _closed(closed) from None
        frame: dict[str, Any] = json.loads(text)
        if self.keep_frames:
            self.frames.append(frame)
        if frame.get("type") == "welcome":
            self.seat = frame["seat"]
            self._resyncing = False
        elif self._resyncing and frame.get("type") == "update":
            return frame  # the welcome asked for is the whole truth
        try:
            self.state, self.seq = apply_frame(self.state, self.seq, frame)
        except Gap:
            self.resyncs += 1
            self._resyncing = True
            await self.send({"type": "resync"})
        return frame

    @property
    def my_turn(self) -> bool:
        return bool(self.state.get("legal"))

    async def move(self, move: str, seq: int | None = None,
                   timeout: float | None = 60.0) -> dict[str, Any]:
        """Send ``move`` and wait for its ``ack`` or ``refused`` (reading updates meanwhile)."""
        client_id = f"m{next(self._ids)}"
        await self.send({"type": "move", "id": client_id,
                         "seq": self.seq if seq is None else seq, "move": move})
        return await self._answer(client_id, timeout)

    async def send_leave(self, client_id: str | None = None) -> str:
        """Ask to leave the table for good (docs/protocol.md, "Leaving a table"): a computer
        player is to play this seat for the rest of the game, and its token acts no more.
        Only sends the ``leave`` frame, with ``client_id`` (else one of this connection's),
        and returns that id: the answer, an ``ack`` or a ``refused`` with it, comes to
        whoever reads this connection's frames (:meth:`leave` reads them itself)."""
        client_id = client_id or f"l{next(self._ids)}"
        await self.send({"type": "leave", "id": client_id})
        return client_id

    async def leave(self, timeout: float | None = 60.0) -> dict[str, Any]:
        """Leave the table for good and wait for the answer: the ``ack`` (the seat is a
        computer player's now; a welcome as a spectator follows it) or the ``refused``,
        whose ``message`` says why (``not_playing`` before the game starts or after it
        ends)."""
        return await self._answer(await self.send_leave(), timeout)

    async def _answer(self, client_id: str, timeout: float | None) -> dict[str, Any]:
        """The ``ack`` or ``refused`` of the frame sent with ``client_id`` (or an
        ``error``), reading the frames before it."""
        while True:
            frame = await self.next(timeout)
            if frame.get("id") == client_id and frame.get("type") in ("ack", "refused"):
                return frame
            if frame.get("type") == "error":
                return frame

    async def until(self, seq: int, timeout: float | None = 60.0) -> None:
        """Read frames until the table has reached change ``seq``."""
        while self.seq < seq:
            await self.next(timeout)


__all__ = ["Api", "Closed", "ServerError", "TableConnection", "socket_url", "split_table_url"]
