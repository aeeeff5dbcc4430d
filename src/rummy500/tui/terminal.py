"""What the terminal apps of rummy500 (the local game, a seat at an online table) share:
the title, the command palette and the choice of a light theme."""

from __future__ import annotations

from typing import TypeVar

from textual.app import App

ResultT = TypeVar("ResultT")


class TerminalApp(App[ResultT]):
    """A rummy500 app in the terminal, dark unless ``light``."""

    TITLE = "rummy500"
    ENABLE_COMMAND_PALETTE = True

    def __init__(self, *, light: bool = False) -> None:
        super().__init__()
        self.light = light

    def choose_theme(self) -> None:
        """Take the light theme when asked (once mounted: each app's ``on_mount`` calls it)."""
        if self.light:
            self.theme = "textual-light"


__all__ = ["TerminalApp"]
