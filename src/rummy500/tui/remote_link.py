"""An online seat's connection (``rummy500 play --join URL``): the seat's WebSocket, read
frame by frame, tried again and again when it drops (the welcome that follows is the whole
truth, so nothing is missed), and moves sent as ``move`` frames with the last ``seq`` seen.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from textual.widgets import Input

from ..net.client import Closed, TableConnection
from .remote_seat import SeatScreen
from .told import own_undo

UNAUTHORIZED = 4401
AWAY = "reconnecting…"
"""The status line while the connection is down."""
RETRY_FIRST = 0.5
RETRY_MOST = 5.0


class LinkedSeatScreen(SeatScreen):
    """A seat's screen kept in touch with the server."""

    async def keep_connected(self) -> None:
        """Connect, read every frame, and connect again whenever the connection drops."""
        from websockets.exceptions import WebSocketException

        joined = self.joined
        wait = RETRY_FIRST
        while not self.fatal:
            try:
                self.connection = await TableConnection.open(joined.base, joined.table,
                                                             joined.token, open_timeout=10)
            except Closed as closed:
                self.dropped(closed.code)
            except (OSError, TimeoutError, WebSocketException) as error:
                self.dropped(None, str(getattr(error, "strerror", None) or error))
            else:
                wait = RETRY_FIRST
                try:
                    if self.closing():
                        return
                    self.welcomed()
                    while True:
                        frame = await self.connection.next()
                        if self.closing():
                            return
                        self.received(frame)
                except Closed as closed:
                    self.dropped(closed.code)
                except (OSError, WebSocketException) as error:
                    self.dropped(None, str(error))
                finally:
                    connection, self.connection = self.connection, None
                    if connection is not None:  # also when the app closes (a cancel)
                        with contextlib.suppress(Exception):
                            await connection.close()
            if self.fatal:
                break
            await asyncio.sleep(wait)
            wait = min(wait * 2, RETRY_MOST)

    def closing(self) -> bool:
        """The app is shutting down: its widgets may be gone before this screen is."""
        return not self.app.is_running

    def dropped(self, code: int | None, why: str = "") -> None:
        if code == UNAUTHORIZED:
            self.fatal = True
            self.seat_unknown()
            self.status = "refused"
            self.refuse("the server does not know this seat any more (its table or token is "
                        "gone)")
            self.log_line("Connection lost" + (f" ({why})" if why else "") + ".")
        else:
            if self.note is not None and self.note is self.warning:
                self.note = self.warning = None  # the clock is the server's: it stopped
            if self.pending is not None:
                self.pending = None
                self.say("The connection dropped before your move was answered: the table "
                         "shows whether it was made.", "italic")
            if self.status != AWAY:  # said once, not at every try
                self.log_line("Connection lost" + (f" ({why})" if why else "")
                              + "; reconnecting…")
            self.status = AWAY
        self.update_table()

    def welcomed(self) -> None:
        assert self.connection is not None
        first = self.seq < 0
        away = self.status == AWAY
        self.status = ""
        if away:
            self.note = None  # what was said while away (not connected, …) is past
        self.clock_read()
        self.take_state(self.connection.state, self.connection.seq)
        self.hear(self.connection.state.get("chat") or (), self.joined.seat, first=first)
        if not first:
            self.log_line(f"Connected again at change {self.seq}.")
            self.continue_again()
        self.update_table()

    def received(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        connection = self.connection
        if kind in ("ack", "refused") and self.leave_answered(frame):
            pass
        elif kind in ("welcome", "update", "seats", "next", "waiting") and connection is not None:
            if kind != "seats" and kind != "next":
                self.clock_read()
            before = self.state.history if self.state is not None else ()
            self.take_state(connection.state, connection.seq)
            event = frame.get("event")
            if kind == "update" and isinstance(event, dict) and "undo" in event:
                mine = (own_undo(before, int(event.get("undo") or 0), self.names())
                        if event.get("seat") == self.joined.seat else None)
                self.log_line(mine or str(event.get("text") or "Moves were taken back."))
        elif kind == "chat":
            self.hear([frame], self.joined.seat)
        elif kind == "refused" and frame.get("id") in self.aside:
            self.aside.discard(str(frame.get("id")))
            self.refuse(str(frame.get("message") or frame.get("code")))
        elif kind == "ack" and frame.get("id") == self.pending:
            self.pending = None
            if self.pending_typed:
                self.query_one("#command", Input).value = ""
                self.hand.focus()
        elif kind == "refused" and frame.get("id") == self.pending:
            self.pending = None
            self.refuse(str(frame.get("message") or frame.get("code")))
            if self.pending_typed:
                self.query_one("#command", Input).select_all()
        elif kind == "error":
            self.pending = None
            self.refuse(str(frame.get("message") or frame.get("code")))
        self.update_table()

    async def send(self, text: str, typed: bool = False) -> None:
        """Send a move (``typed``: from the move box)."""
        await self.send_frame({"type": "move", "seq": self.seq, "move": text}, typed=typed)

    async def send_frame(self, frame: dict[str, Any], *, pending: bool = True,
                         typed: bool = False) -> None:
        """Send ``frame`` with an id of its own; ``pending``: a move or an undo, answered
        by an ack or a refusal (one at a time), else a line or a ``continue`` (whose
        refusal is shown too)."""
        connection = self.connection
        if connection is None:
            self.refuse("not connected to the server: wait for the connection to come back")
            return
        ident = f"t{next(self._ids)}"
        frame = {**frame, "id": ident}
        if pending:
            self.pending = ident
            self.pending_typed = typed
            self.note = None
            self.update_table()
        else:
            self.aside.add(ident)
        try:
            await connection.send(frame)
        except Exception as error:  # the reader sees the drop and reconnects
            if pending:
                self.pending = None
            self.refuse(f"not sent: {error}")

    def seat_unknown(self) -> None:
        """The server closed the connection for an unknown token (its table is gone)."""

    def leave_answered(self, frame: dict[str, Any]) -> bool:
        """Take the answer to a ``leave`` this seat sent (:mod:`.remote_leave`); False:
        ``frame`` is not one."""
        return False


__all__ = ["AWAY", "RETRY_FIRST", "RETRY_MOST", "UNAUTHORIZED", "LinkedSeatScreen"]
