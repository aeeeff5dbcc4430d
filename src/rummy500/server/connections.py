"""The WebSocket connections of one serve process: each client's outbox, the clients of each
table, and how many connections each address holds.

Frames go out through each connection's own bounded queue, so a slow client never holds
up a table: one that falls too far behind is closed (1013).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..net.protocol import V2
from ..session.seat_state import encode

QUEUE_LIMIT = 512
"""Frames waiting for a client that reads too slowly; beyond it the client is dropped."""

CLOSE_NORMAL = 1000
CLOSE_GOING_AWAY = 1001
CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
CLOSE_TOO_SLOW = 1013
CLOSE_UNKNOWN_TOKEN = 4401


@dataclass(eq=False)
class Client:
    """One WebSocket connection: its table, its seat (None: watching) and its outbox."""

    table_id: str
    address: str = ""
    seat: int | None = None
    joined: bool = False
    version: int = V2
    """The protocol version it asked for in its hello."""
    outbox: asyncio.Queue[bytes | int] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))
    """JSON text frames (UTF-8) to send, or a close code that ends the connection."""
    send_now: Callable[[Sequence[bytes]], bool] | None = None
    """Writes frames to the socket at once if it can (:data:`.transport.SEND_NOW`): used
    while nothing waits in the outbox and the writer is not sending, so frames keep
    their order."""
    writing: bool = False
    """The writer has taken a frame from the outbox and is sending it."""
    held: list[bytes] | None = None
    """Frames kept back by :meth:`hold` until :meth:`release`."""

    def send(self, frame: dict[str, Any] | bytes) -> None:
        data = frame if isinstance(frame, bytes) else encode(frame)
        if self.held is not None:
            self.held.append(data)
        else:
            self._out([data])

    def hold(self) -> None:
        """Keep the frames sent from now until :meth:`release`, to go out together (in one
        write to the socket, when it can be written at once)."""
        if self.held is None:
            self.held = []

    def release(self) -> None:
        """Send the frames kept since :meth:`hold`, in order."""
        held, self.held = self.held, None
        if held:
            self._out(held)

    def _out(self, frames: list[bytes]) -> None:
        if (self.send_now is not None and not self.writing and self.outbox.empty()
                and self.send_now(frames)):
            return
        for data in frames:
            try:
                self.outbox.put_nowait(data)
            except asyncio.QueueFull:
                self.close(CLOSE_TOO_SLOW)
                return

    def close(self, code: int) -> None:
        while True:
            try:
                self.outbox.put_nowait(code)
                return
            except asyncio.QueueFull:
                self.outbox.get_nowait()


class AddressTally:
    """Open connections of one kind: in all, and from each address."""

    def __init__(self) -> None:
        self._by_address: dict[str, int] = {}
        self.open = 0

    def admit(self, address: str, per_address: int | None) -> bool:
        """Count a new connection from ``address``, unless it holds ``per_address``
        already (None: no limit per address)."""
        held = self._by_address.get(address, 0)
        if per_address is not None and held >= per_address:
            return False
        self._by_address[address] = held + 1
        self.open += 1
        return True

    def release(self, address: str) -> None:
        held = self._by_address.get(address, 0) - 1
        if held > 0:
            self._by_address[address] = held
        else:
            self._by_address.pop(address, None)
        self.open = max(0, self.open - 1)


class Connections:
    """Every open WebSocket of this process, by table, and the tallies of connections
    (WebSockets, and plain HTTP ones counted by :mod:`.transport`)."""

    def __init__(self) -> None:
        self._by_table: dict[str, set[Client]] = defaultdict(set)
        self.sockets = AddressTally()
        self.plain = AddressTally()

    @property
    def total(self) -> int:
        """Open connections of both kinds: what ``max_connections`` bounds."""
        return self.sockets.open + self.plain.open

    def add(self, client: Client) -> None:
        self._by_table[client.table_id].add(client)

    def discard(self, client: Client) -> None:
        clients = self._by_table.get(client.table_id)
        if clients is not None:
            clients.discard(client)
            if not clients:
                del self._by_table[client.table_id]

    def of(self, table_id: str) -> list[Client]:
        return list(self._by_table.get(table_id, ()))

    def watched(self, table_id: str) -> bool:
        return bool(self._by_table.get(table_id))

    def broadcast(self, table_id: str, frame: dict[str, Any] | bytes) -> None:
        data = frame if isinstance(frame, bytes) else encode(frame)
        for client in self.of(table_id):
            client.send(data)

    def everyone(self) -> Iterator[Client]:
        for clients in list(self._by_table.values()):
            yield from list(clients)

    def tables(self) -> list[str]:
        return list(self._by_table)


__all__ = [
    "CLOSE_GOING_AWAY",
    "CLOSE_NORMAL",
    "CLOSE_POLICY",
    "CLOSE_TOO_BIG",
    "CLOSE_TOO_SLOW",
    "CLOSE_UNKNOWN_TOKEN",
    "QUEUE_LIMIT",
    "AddressTally",
    "Client",
    "Connections",
]
