"""What the tests of the terminal game (``rummy500 play``, Textual's pilot) share: the app
for a game's settings, for a dealt position or as the command makes it; the table screen,
its message line and what a widget shows; waiting until a person is asked something; and
a move typed in the move box."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from textual.app import App
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input, Static

from helpers import deal_from_hands
from rummy500.commands.play import add_arguments, prepare
from rummy500.session.saves import SaveStore
from rummy500.session.session import TableSession
from rummy500.session.settings import TableSettings, default_settings
from rummy500.tui.app import PlayApp
from rummy500.tui.table import TableScreen

BIG = (90, 36)
"""A screen large enough that every card and meld is on it without scrolling."""


def quick(preset: str = "classic", **kwargs: Any) -> TableSettings:
    """A game of one deal (unless set otherwise) against quick computer players."""
    options = {"max_deals": 1, **kwargs.pop("options", {})}
    return default_settings(preset, options, bot=kwargs.pop("bot", "random"),
                            seed=kwargs.pop("seed", 1), budget=0.05, **kwargs)


def app_for(settings: TableSettings, store: SaveStore | None = None) -> PlayApp:
    return PlayApp(settings, store, session=TableSession.new(settings, store), delay=0)


def app_at(settings: TableSettings, hands: list[str], **position: Any) -> PlayApp:
    """The app on a table dealt with these hands (seat 0 plays first); nothing is saved."""
    game = deal_from_hands(settings.rules(), hands, **position)
    return PlayApp(settings, None, session=TableSession(settings, game), delay=0)


def args_for(*argv: str) -> Any:
    """The command line ``rummy500 play`` with ``argv``, parsed."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(list(argv))


def played_from(*argv: str) -> PlayApp:
    """The app ``rummy500 play`` makes of ``argv`` (where it makes one rather than refusing)."""
    app = prepare(args_for(*argv))
    assert isinstance(app, PlayApp), app
    return app


def saving_game(save_dir: Path, *argv: str) -> PlayApp:
    """``rummy500 play`` against a random computer player (seed 9, no delay), saved in
    ``save_dir``; ``argv`` adds to that."""
    return played_from("--save-dir", str(save_dir), "--bot", "random", "--seed", "9",
                       "--delay", "0", *argv)


def table_of(app: App[Any]) -> TableScreen:
    screens = [screen for screen in app.screen_stack if isinstance(screen, TableScreen)]
    assert screens, "no table on the screen"
    return screens[-1]


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until a person is asked something: a move, a choice, a cover, a score sheet."""
    app = pilot.app
    for _ in range(5000):
        await pilot.pause()
        screen = app.screen
        if not isinstance(screen, TableScreen):
            if any(isinstance(shown, TableScreen) for shown in app.screen_stack):
                return  # a question over the table
            continue  # the table is not up yet
        session = screen.session
        if session.finished or (not screen.thinking and session.person_to_move
                                and screen.viewer == session.to_move):
            return
        await asyncio.sleep(0.002)
    raise AssertionError("the table never came to a person's move")


def shown_text(widget: Widget) -> str:
    """What ``widget`` shows on the screen, line by line."""
    lines = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return "\n".join(line.text.rstrip() for line in lines)


def message(app: App[Any]) -> str:
    return str(table_of(app).query_one("#message", Static).render())


async def type_move(pilot: Pilot[Any], text: str) -> None:
    """Type ``text`` in the move box (opened with ``:`` where it is not in focus) and Enter."""
    box = table_of(pilot.app).query_one("#command", Input)
    if not box.has_focus:
        await pilot.press("colon")
    box.value = text
    await pilot.press("enter")
    await pilot.pause()
