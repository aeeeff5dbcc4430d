"""Whether ``rummy500 play`` has a terminal to draw in: without one (a pipe, a file, a
service) the game cannot be played, and a full-screen app left running there only spins."""

from __future__ import annotations

import sys


def no_terminal() -> str | None:
    """Why the game cannot start here (None: standard input and output are a terminal)."""
    if sys.stdin is not None and sys.stdout is not None and sys.stdin.isatty() \
            and sys.stdout.isatty():
        return None
    return ("the game needs a terminal: standard input and output are not one (run it in a "
            "terminal window, not through a pipe, a file or a service)")


__all__ = ["no_terminal"]
