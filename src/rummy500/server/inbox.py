"""What other serve processes say (:mod:`.messages`), delivered to the parts of this one
that handle it: each part registers for the kinds of message it handles
(:meth:`Inbox.on`), and a message goes to each of them, in the order they registered.
A kind nobody registered for is passed over.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from .messages import Message

_M = TypeVar("_M")


class Inbox:
    def __init__(self) -> None:
        self._handlers: dict[type, list[Callable[[Any], Awaitable[None] | None]]] = {}

    def on(self, kind: type[_M], handler: Callable[[_M], Awaitable[None] | None]) -> None:
        """``handler`` hears every message of ``kind`` (after those registered before)."""
        self._handlers.setdefault(kind, []).append(handler)

    async def deliver(self, message: Message) -> None:
        for handler in self._handlers.get(type(message), ()):
            outcome = handler(message)
            if inspect.isawaitable(outcome):
                await outcome


__all__ = ["Inbox"]
