"""What the tests of ``rummy500 play --join`` share: the table screen and its message line,
waiting on the pilot, and a seat that plays its own turns (meld, lay off, draw, else
discard) until something has happened."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static

from rummy500.tui.remote import RemoteApp, RemoteTableScreen


def screen_of(app: RemoteApp) -> RemoteTableScreen:
    screen = app.screen
    assert isinstance(screen, RemoteTableScreen), screen
    return screen


def message(screen: RemoteTableScreen) -> str:
    return str(screen.query_one("#message", Static).render())


async def until(pilot: Pilot[Any], done: Callable[[], bool], what: str,
                timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not done():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause()
        await asyncio.sleep(0.02)


async def play_turns_until(pilot: Pilot[Any], screen: RemoteTableScreen,
                           stop: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    """Make this seat's moves (a meld, else a lay-off, else a draw, else a discard, else the
    first legal move) until ``stop()``."""
    await until(pilot, lambda: screen.state is not None and bool(screen.state.hand), "the deal")
    while not stop():
        await until(pilot, lambda: screen.acting() or stop(), f"my turn or {what}", timeout)
        if stop():
            break
        assert screen.state is not None and screen.state.legal is not None
        legal = screen.state.legal
        choice = next((move for kind in ("meld", "layoff", "draw", "discard")
                       for move in legal if move.startswith(kind)), legal[0])
        await screen.send(choice)
        await until(pilot, lambda: screen.pending is None, f"the answer to {choice}")
