"""A client's frames, each delivered to the part of the server that handles its kind: the
parts register for their kinds (:meth:`Routes.on`), as they do for what other processes say
(:mod:`.inbox`), so a frame goes from its socket (:mod:`.table_socket`) straight to its
part, and comes back to no switchboard on the way.

The answers every part gives alike are here too: a refusal (``refused``), and the refusal
when the database cannot be reached.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from ..session.refusal import Refusal
from .connections import Client
from .guard import unreachable_database

_T = TypeVar("_T")

UNAVAILABLE = "unavailable"
"""The refusal code of a change that could not be stored (the database is away)."""

Handler = Callable[[Client, dict[str, Any]], Awaitable[None]]


class Routes:
    """The part that handles each kind of frame (one part a kind)."""

    def __init__(self) -> None:
        self._handlers: dict[str, Handler] = {}

    def on(self, kind: str, handler: Handler) -> None:
        if kind in self._handlers:
            raise RuntimeError(f"frames of kind {kind!r} already go to a part")
        self._handlers[kind] = handler

    async def deliver(self, client: Client, frame: dict[str, Any]) -> None:
        """``frame`` (checked by :func:`.client_frames.parse_frame`) to its part."""
        handler = self._handlers.get(frame["type"])
        if handler is None:
            client.send({"type": "error", "code": "bad_frame",
                         "message": f"this server does not handle {frame['type']} frames"})
            return
        await handler(client, frame)


async def unless_away(work: Awaitable[_T]) -> _T | Refusal:
    """``work``'s outcome, or a refusal when the database cannot be reached (nothing made)."""
    try:
        return await work
    except Exception as error:
        if not unreachable_database(error):
            raise
        return Refusal(UNAVAILABLE, "the database cannot be reached just now: try again shortly")


def refuse(client: Client, client_id: str, refusal: Refusal) -> None:
    client.send({"type": "refused", "id": client_id, "code": refusal.code,
                 "message": refusal.message})


__all__ = ["UNAVAILABLE", "Handler", "Routes", "refuse", "unless_away"]
