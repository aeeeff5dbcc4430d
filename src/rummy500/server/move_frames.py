"""A seat's ``move`` and ``undo`` frames: refused in words, or stored, acknowledged and
broadcast by the table master (:mod:`.master`), and counted for the operator
(:mod:`.metrics`)."""

from __future__ import annotations

import time
from typing import Any

from ..session.refusal import NOT_SEATED, Refusal
from . import metrics
from .connections import Client
from .frame_routes import Routes, refuse, unless_away
from .leaving import left_refusal
from .master import Master
from .talk_store import TalkStore


class MoveFrames:
    """The moves and undos of the clients of this process."""

    def __init__(self, master: Master, changes: TalkStore) -> None:
        self.master = master
        self.changes = changes
        """Where an undo is stored (with the talk's changes)."""

    def route(self, routes: Routes) -> None:
        routes.on("move", self.move)
        routes.on("undo", self.undo)

    async def move(self, client: Client, frame: dict[str, Any]) -> None:
        """A client's move: refused, or stored, acknowledged and broadcast."""
        started = time.monotonic()
        try:
            if client.seat is None:
                outcome: Refusal | int = Refusal(NOT_SEATED, "a spectator cannot move")
            elif gone := left_refusal(self.master.live.get(client.table_id), client.seat):
                outcome = gone
            else:
                outcome = await unless_away(self.master.submit(
                    client.table_id, client.seat, frame["seq"], frame["move"], mover=client))
            if isinstance(outcome, Refusal):
                metrics.refused(outcome.code)
                refuse(client, frame["id"], outcome)
            else:
                # The ack goes out with the mover's update, in one write to its socket.
                client.send({"type": "ack", "id": frame["id"], "seq": outcome})
                metrics.moved("person")
                metrics.acked(time.monotonic() - started)
        finally:
            client.release()

    async def undo(self, client: Client, frame: dict[str, Any]) -> None:
        """A seat takes its last move back (counted with the moves refused when refused)."""
        outcome = await unless_away(self._undo(client))
        if isinstance(outcome, Refusal):
            metrics.refused(outcome.code)
            refuse(client, frame["id"], outcome)
        else:
            client.send({"type": "ack", "id": frame["id"], "seq": outcome})

    async def _undo(self, client: Client) -> Refusal | int:
        seated = await self.master.seated_table(client, "undo")
        if isinstance(seated, Refusal):
            return seated
        table, seat = seated
        return await self.master.take_back(self.changes, table.id, seat)


__all__ = ["MoveFrames"]
