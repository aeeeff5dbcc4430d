"""``rummy500 play``: play 500 Rum at the terminal against computer players, or hot seat.

``rummy500 play`` alone starts a two-player game of the classic rules against the
strongest computer player. A game in progress is saved after every move;
``rummy500 play --resume`` continues it.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from ..bots import BOT_NAMES
from ..errors import SaveInUseError
from ..extras import require
from ..record import RecordFormatError, ReplayError
from ..session.saves import DATA_ENV, SaveStore, data_dir
from ..session.session import TableSession
from ..session.settings import (
    SettingsError,
    TableSettings,
    default_bot,
    default_settings,
    parse_options,
    parse_seats,
)
from . import terminal_check
from .options import add_rule_arguments, failure
from .program import program

MAX_DELAY = 60.0

SETUP_ARGUMENTS = {"players": "--players", "preset": "--preset", "option": "--option",
                   "bot": "--bot", "people": "--people", "seats": "--seats", "names": "--names",
                   "seed": "--seed", "budget": "--budget", "setup": "--setup", "new": "--new"}
"""The arguments that set up a new game: --resume continues the saved one as it was set up."""

if TYPE_CHECKING:  # Textual is imported only when the game starts
    from ..tui.app import PlayApp


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_rule_arguments(parser)
    parser.add_argument("--bot", default=None,
                        help=f"the computer player at every other seat ({', '.join(BOT_NAMES)}; "
                        "the strongest by default)")
    parser.add_argument("--people", type=int, default=None,
                        help="people sharing the screen, hot seat (1); in a partnership the "
                        "second one sits opposite the first")
    parser.add_argument("--seats", default=None, metavar="LIST",
                        help="who sits where, seat by seat: person or a computer player, like "
                        "person,expert,person,simple (instead of --players, --people and --bot)")
    parser.add_argument("--names", default=None, metavar="LIST",
                        help="names for the seats, separated by commas")
    parser.add_argument("--seed", type=int, default=None, help="seed of the shuffles (random)")
    parser.add_argument("--budget", type=float, default=None, metavar="SECONDS",
                        help="computer players' thinking time a move (1.0)")
    parser.add_argument("--delay", type=float, default=0.6, metavar="SECONDS",
                        help="pause before each computer player's move, to follow it (0.6)")
    parser.add_argument("--setup", action="store_true",
                        help="open the set-up screen first")
    parser.add_argument("--resume", action="store_true",
                        help="continue the saved game in progress, as it was set up")
    parser.add_argument("--new", action="store_true",
                        help="start a new game even if one is saved (it is replaced)")
    parser.add_argument("--save-dir", type=Path, default=None, metavar="DIR",
                        help=f"where the game in progress is kept (${DATA_ENV}, else "
                        "$XDG_DATA_HOME/rummy500, else ~/.local/share/rummy500)")
    parser.add_argument("--light", action="store_true", help="light colours")
    parser.add_argument("--join", default=None, metavar="URL",
                        help="play a seat at an online table, by its link "
                        "(http://HOST:PORT/t/ID); the seat taken before, else an open one")
    parser.add_argument("--seat", type=int, default=None, metavar="N",
                        help="with --join: the open seat to take (the first open one)")
    parser.add_argument("--name", default=None, help="with --join: your name at the table")
    # No set-up argument has a default of its own, so that one given with --resume is seen.
    parser.set_defaults(preset=None, option=None)


fail = partial(failure, "play")
"""Say why the command cannot go on; its exit status."""


def settings_from(args: argparse.Namespace) -> TableSettings:
    """The set-up the command line asks for (:class:`SettingsError` if it cannot be played)."""
    options = parse_options(args.option or [])
    names = tuple(name.strip() for name in args.names.split(",")) if args.names else ()
    seats = parse_seats(args.seats) if args.seats else None
    if args.bot is not None and args.bot not in BOT_NAMES:
        raise SettingsError(f"unknown computer player {args.bot!r}; the computer players are: "
                            f"{', '.join(BOT_NAMES)}")
    settings = default_settings(args.preset or "classic", options, players=args.players,
                                people=1 if args.people is None else args.people,
                                bot=args.bot or default_bot(), seats=seats, names=names,
                                seed=args.seed, budget=1.0 if args.budget is None else args.budget)
    settings.check()
    return settings


def setup_given(args: argparse.Namespace) -> list[str]:
    """The set-up arguments given on the command line."""
    return [flag for name, flag in SETUP_ARGUMENTS.items()
            if getattr(args, name, None) not in (None, False)]


def checked(args: argparse.Namespace) -> TableSettings | str:
    """The set-up the command line asks for, or the message saying why it cannot be."""
    given = setup_given(args) if args.resume else []
    if given:
        return (f"--resume continues the saved game as it was set up: {', '.join(given)} "
                "cannot be given with it (leave out --resume to start a new game)")
    try:
        settings = settings_from(args)
    except SettingsError as error:
        return str(error)
    if not 0 <= args.delay <= MAX_DELAY:
        return f"--delay must be a number of seconds from 0 to {MAX_DELAY:g}"
    return settings


def prepare(args: argparse.Namespace) -> PlayApp | str:
    """The app the command line asks for, or the message saying why it cannot start.

    The app holds the save folder's lock (released when it closes); a message means
    the lock is not held.
    """
    settings = checked(args)
    if isinstance(settings, str):
        return settings
    store = SaveStore(data_dir(args.save_dir))
    try:
        app = _open(args, settings, store)
    except SaveInUseError as error:
        return str(error)
    except OSError as error:
        store.close()
        return f"cannot keep the game in {store.directory}: {error.strerror or error}"
    if isinstance(app, str):
        store.close()
    return app


def _open(args: argparse.Namespace, settings: TableSettings, store: SaveStore) -> PlayApp | str:
    store.open()
    saved: TableSession | None = None
    if store.exists():
        try:
            saved = TableSession.resume(store)
        except (RecordFormatError, ReplayError, SettingsError) as error:
            aside = store.put_aside()
            message = f"the saved game cannot be resumed ({error}); it is kept as {aside}"
            if args.resume:
                return message
            print(f"rummy500 play: {message}. A new game starts.", file=sys.stderr)
    session: TableSession | None = None
    if args.resume:
        if saved is None:
            return f"there is no game in progress to resume in {store.directory}"
        session, saved = saved, None
    elif not args.setup and (saved is None or args.new):
        session, saved = TableSession.new(settings, store), None
        if session.save_problem is not None:
            return session.save_problem

    from ..tui.app import PlayApp

    return PlayApp(settings, store, session=session, saved=saved, setup=args.setup,
                   delay=args.delay, light=args.light)


def run(args: argparse.Namespace) -> int:
    require("tui", "textual", feature="rummy500 play")
    if any(getattr(args, name, None) is not None for name in ("join", "seat", "name")):
        from .play_join import run_join

        return run_join(args)
    problem = checked(args)
    if isinstance(problem, str):
        return fail(problem)
    no_terminal = terminal_check.no_terminal()
    if no_terminal is not None:  # before anything is saved
        return fail(no_terminal)
    app = prepare(args)
    if isinstance(app, str):
        return fail(app)
    try:
        final = app.run()
    finally:
        if app.store is not None:
            app.store.close()
    store = app.store
    if final is not None and store is not None:
        me = program()
        if final.save_problem is not None:
            print(f"rummy500 play: {final.save_problem}.", file=sys.stderr)
            return 1
        if final.finished:
            print(f"The game is over; its record is {store.last} "
                  f"({me} replay {shlex.quote(str(store.last))}).")
        else:
            where = f" --save-dir {shlex.quote(str(args.save_dir))}" if args.save_dir else ""
            print(f"The game is saved in {store.current}: {me} play --resume{where} "
                  "continues it.")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rummy500 play", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
