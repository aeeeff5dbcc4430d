"""Talk at the table: chat lines and quick reactions from the people seated, heard by
every client of the table through every process, the last lines kept in the database
(a client that connects gets them with its welcome, as ``state.chat``).

What people write is cleaned where names are (:func:`.security.printable_text`):
control, format (bidi) and other unprintable characters are dropped.

>>> chat_text("  hello\\u202e  you ")
'hello you'
>>> chat_text("x" * 201).code
'bad_chat'
"""

from __future__ import annotations

from typing import Any

from ..session.refusal import NOT_SEATED, Refusal
from .connections import Connections
from .live import LiveTable
from .messages import Said
from .security import printable_text
from .talk_store import TalkStore

CHAT_LIMIT = 200
"""The most characters in a chat line (after cleaning)."""
BAD_CHAT = "bad_chat"
BAD_REACTION = "bad_reaction"

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
    return text


class Talk:
    """The chat of every table this process serves."""

    def __init__(self, store: TalkStore, connections: Connections) -> None:
        self.store = store
        self.connections = connections

    async def say(self, table: LiveTable, seat: int | None, text: str | None = None,
                  react: str | None = None) -> Refusal | dict[str, Any]:
        """``seat`` says ``text`` (or reacts with ``react``): stored, then heard by every
        client of the table (here at once, elsewhere through the database's messages)."""
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
        name = str(table.seats_json()[seat]["name"])
        line = await self.store.say(table.id, seat, name, said, react)
        self.connections.broadcast(table.id, {"type": "chat", **line})
        return line

    def heard(self, message: Said) -> None:
        """A line stored by another process: this process's clients of the table hear it."""
        if message.process != self.store.process:
            self.connections.broadcast(message.table, {"type": "chat", **message.line})

    async def history(self, table_id: str) -> list[dict[str, Any]]:
        return await self.store.lines(table_id)


__all__ = ["BAD_CHAT", "BAD_REACTION", "CHAT_LIMIT", "REACTIONS", "Talk", "chat_text"]
