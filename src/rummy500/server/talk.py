"""Talk at the table: chat lines and quick reactions from the people seated, heard by
every client of the table through every process, the last lines kept in the database
(a client that connects gets them with its welcome, as ``state.chat``).

What people write is cleaned where names are (:func:`.cleaning.printable_text`):
control, format (bidi) and other unprintable characters are dropped, characters that show
nothing are spaces; a line that cannot be read (Zalgo text, a row of signs drawn many
letters wide: :func:`.cleaning.unreadable`) is refused. Each seat, and each address, may
say only so much (:data:`SEAT_LINES`, :data:`ADDRESS_LINES`), however many connections
it holds.

>>> chat_text("  hello\\u202e  you ")
'hello you'
>>> chat_text("x" * 201).code
'bad_chat'
>>> chat_text("\\ufdfd" * 200).message[:33]
'at most 3 of the signs drawn many'
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..session.refusal import NOT_SEATED, Refusal
from . import metrics
from .cleaning import WIDE_IN_CHAT, printable_text, unreadable
from .connections import Client, Connections
from .frame_routes import Routes, refuse, unless_away
from .inbox import Inbox
from .live import LiveTable
from .messages import Said
from .rate import RateWindow
from .talk_store import TalkStore

CHAT_LIMIT = 200
"""The most characters in a chat line (after cleaning)."""
BAD_CHAT = "bad_chat"
BAD_REACTION = "bad_reaction"
TOO_FAST = "rate_limited"

TALK_WINDOW_S = 10.0
SEAT_LINES = 6
"""A seat says at most this many lines (reactions included) in any 10 seconds, from all
its connections together (``--chat-lines-per-seat``): a burst of reactions passes, a
flood does not."""
ADDRESS_LINES = 20
"""An address says at most this many lines in any 10 seconds, whatever seats and tables
it speaks from (``--chat-lines-per-address``; several people behind one address still
each have their seat's)."""

REACTIONS: dict[str, str] = {
    "hello": "👋 Hello!",
    "nice": "👍 Nice!",
    "wow": "😮 Wow!",
    "oops": "😬 Oops!",
    "thinking": "🤔 Thinking…",
    "laugh": "😄",
    "hurry": "⏳ Your turn!",
    "gg": "🤝 Good game!",
}
"""The reactions the server takes (``react`` frames): each is shown as its text."""


def chat_text(value: str) -> str | Refusal:
    """A chat line as it is kept and shown, or why it is refused."""
    text = printable_text(value)
    if not text:
        return Refusal(BAD_CHAT, "say something: the line is empty once cleaned")
    if len(text) > CHAT_LIMIT:
        return Refusal(BAD_CHAT, f"a chat line holds at most {CHAT_LIMIT} characters")
    problem = unreadable(text, wide_allowed=WIDE_IN_CHAT)
    if problem:
        return Refusal(BAD_CHAT, problem)
    return text


class Talk:
    """The chat of every table this process serves."""

    def __init__(self, store: TalkStore, connections: Connections,
                 tables: Callable[[str], Awaitable[LiveTable | None]], *,
                 seat_lines: int = SEAT_LINES, address_lines: int = ADDRESS_LINES) -> None:
        self.store = store
        self.connections = connections
        self.tables = tables
        """A table by its id (None: there is no such table)."""
        self.seats = RateWindow(seat_lines, TALK_WINDOW_S)
        self.addresses = RateWindow(address_lines, TALK_WINDOW_S)

    async def say(self, table: LiveTable, seat: int | None, text: str | None = None,
                  react: str | None = None, address: str | None = None,
                  ) -> Refusal | dict[str, Any]:
        """``seat`` says ``text`` (or reacts with ``react``) from ``address``: stored,
        then heard by every client of the table (here at once, elsewhere through the
        database's messages); refused beyond its seat's and its address's lines in
        :data:`TALK_WINDOW_S` (counted in this process)."""
        if seat is None:
            return Refusal(NOT_SEATED, "spectators read the table's talk but cannot speak: "
                                       "take a seat to chat")
        if react is not None:
            if react not in REACTIONS:
                return Refusal(BAD_REACTION, f"the reactions are {', '.join(REACTIONS)}")
            said: str | Refusal = REACTIONS[react]
        else:
            said = chat_text(text or "")
        if isinstance(said, Refusal):
            return said
        if not self.seats.allow(f"{table.id} {seat}"):
            metrics.limit_hit("chat_lines_per_seat")
            return Refusal(TOO_FAST, f"slow down: a seat says at most {self.seats.count} "
                                     f"lines in {TALK_WINDOW_S:g} seconds")
        if address is not None and not self.addresses.allow(address):
            metrics.limit_hit("chat_lines_per_address")
            return Refusal(TOO_FAST, f"slow down: at most {self.addresses.count} lines in "
                                     f"{TALK_WINDOW_S:g} seconds come from one address")
        name = str(table.seats_json()[seat]["name"])
        line = await self.store.say(table.id, seat, name, said, react)
        self.connections.broadcast(table.id, {"type": "chat", **line})
        return line

    def listen(self, inbox: Inbox) -> None:
        inbox.on(Said, self.heard)

    def route(self, routes: Routes) -> None:
        """Hear the clients' ``chat`` and ``react`` frames."""
        routes.on("chat", self.frame)
        routes.on("react", self.frame)

    async def frame(self, client: Client, frame: dict[str, Any]) -> None:
        """A client's chat or react frame: said, or refused in words."""
        outcome = await unless_away(self._frame(client, frame))
        if isinstance(outcome, Refusal):
            refuse(client, frame["id"], outcome)

    async def _frame(self, client: Client, frame: dict[str, Any]) -> Refusal | None:
        table = await self.tables(client.table_id)
        if table is None:
            return Refusal("unknown_table", "this table no longer exists")
        said = await self.say(table, client.seat, frame.get("text"), frame.get("what"),
                              client.address)
        return said if isinstance(said, Refusal) else None

    def heard(self, message: Said) -> None:
        """A line stored by another process: this process's clients of the table hear it."""
        if message.process != self.store.process:
            self.connections.broadcast(message.table, {"type": "chat", **message.line})

    async def history(self, table_id: str) -> list[dict[str, Any]]:
        return await self.store.lines(table_id)


__all__ = ["ADDRESS_LINES", "BAD_CHAT", "BAD_REACTION", "CHAT_LIMIT", "REACTIONS", "SEAT_LINES",
           "TALK_WINDOW_S", "TOO_FAST", "Talk", "chat_text"]
