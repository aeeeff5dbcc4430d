"""The client frames' routes (server/frame_routes.py): each kind goes to the one part that
registered for it, a kind taken twice is refused at start, and a kind nobody handles is
answered in words (never a traceback that closes the socket)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from rummy500.server.connections import Client
from rummy500.server.frame_routes import Routes


def test_a_frame_goes_to_the_part_that_handles_its_kind() -> None:
    heard: list[tuple[str, dict[str, Any]]] = []

    async def moves(client: Client, frame: dict[str, Any]) -> None:
        heard.append(("moves", frame))

    async def talk(client: Client, frame: dict[str, Any]) -> None:
        heard.append(("talk", frame))

    routes = Routes()
    routes.on("move", moves)
    routes.on("chat", talk)
    client = Client("t")
    asyncio.run(routes.deliver(client, {"type": "chat", "id": "c1", "text": "hi"}))
    asyncio.run(routes.deliver(client, {"type": "move", "id": "m1", "seq": 0, "move": "draw"}))
    assert heard == [("talk", {"type": "chat", "id": "c1", "text": "hi"}),
                     ("moves", {"type": "move", "id": "m1", "seq": 0, "move": "draw"})]
    assert client.outbox.empty()


def test_one_part_a_kind() -> None:
    async def part(client: Client, frame: dict[str, Any]) -> None:
        return None

    routes = Routes()
    routes.on("undo", part)
    with pytest.raises(RuntimeError, match="'undo' already go to a part"):
        routes.on("undo", part)


def test_a_kind_nobody_handles_is_answered_in_words() -> None:
    client = Client("t")
    asyncio.run(Routes().deliver(client, {"type": "continue", "id": "", "deal": 1}))
    frame = client.outbox.get_nowait()
    assert isinstance(frame, bytes)
    answer = json.loads(frame)
    assert answer == {"type": "error", "code": "bad_frame",
                      "message": "this server does not handle continue frames"}
