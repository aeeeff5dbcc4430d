"""``rummy500 play``: play 500 Rum at the terminal against computer players, or hot seat.

``rummy500 play`` alone starts a two-player game of the classic rules against the
strongest computer player. A game in progress is saved after every move;
``rummy500 play --resume`` continues it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..bots import BOT_NAMES
from ..record import RecordFormatError, ReplayError
from ..tui.saves import DATA_ENV, SaveStore, data_dir
from ..tui.session import TableSession
from ..tui.settings import (
    SettingsError,
    TableSettings,
    default_bot,
    default_settings,
    parse_options,
    parse_seats,
)
from .options import add_rule_arguments

if TYPE_CHECKING:  # Textual is imported only when the game starts
    from ..tui.app import PlayApp


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_rule_arguments(parser)
    parser.add_argument("--bot", default=None,
                        help=f"the computer player at every other seat ({', '.join(BOT_NAMES)}; "
                        "the strongest by default)")
    parser.add_argument("--people", type=int, default=1,
                        help="people sharing the screen, hot seat (1); in a partnership the "
                        "second one sits opposite the first")
    parser.add_argument("--seats", default=None, metavar="LIST",
                        help="who sits where, seat by seat: person or a computer player, like "
                        "person,expert,person,simple (instead of --players, --people and --bot)")
    parser.add_argument("--names", default=None, metavar="LIST",
                        help="names for the seats, separated by commas")
    parser.add_argument("--seed", type=int, default=None, help="seed of the shuffles (random)")
    parser.add_argument("--budget", type=float, default=1.0, metavar="SECONDS",
                        help="computer players' thinking time a move (1.0)")
    parser.add_argument("--delay", type=float, default=0.6, metavar="SECONDS",
                        help="pause before each computer player's move, to follow it (0.6)")
    parser.add_argument("--setup", action="store_true",
                        help="open the set-up screen first")
    parser.add_argument("--resume", action="store_true",
                        help="continue the saved game in progress")
    parser.add_argument("--new", action="store_true",
                        help="start a new game even if one is saved (it is replaced)")
    parser.add_argument("--save-dir", type=Path, default=None, metavar="DIR",
                        help=f"where the game in progress is kept (${DATA_ENV}, else "
                        "$XDG_DATA_HOME/rummy500, else ~/.local/share/rummy500)")
    parser.add_argument("--light", action="store_true", help="light colours")


def fail(message: str) -> int:
    print(f"rummy500 play: {message}", file=sys.stderr)
    return 2


def settings_from(args: argparse.Namespace) -> TableSettings:
    """The set-up the command line asks for (:class:`SettingsError` if it cannot be played)."""
    options = parse_options(args.option)
    names = tuple(name.strip() for name in args.names.split(",")) if args.names else ()
    seats = parse_seats(args.seats) if args.seats else None
    if args.bot is not None and args.bot not in BOT_NAMES:
        raise SettingsError(f"unknown computer player {args.bot!r}; the computer players are: "
                            f"{', '.join(BOT_NAMES)}")
    settings = default_settings(args.preset, options, players=args.players, people=args.people,
                                bot=args.bot or default_bot(), seats=seats, names=names,
                                seed=args.seed, budget=args.budget)
    settings.check()
    return settings


def prepare(args: argparse.Namespace) -> PlayApp | str:
    """The app the command line asks for, or the message saying why it cannot start."""
    try:
        settings = settings_from(args)
    except SettingsError as error:
        return str(error)
    if args.delay < 0:
        return "--delay cannot be negative"
    store = SaveStore(data_dir(args.save_dir))
    session: TableSession | None = None
    saved: TableSession | None = None
    try:
        if args.resume:
            session = TableSession.resume(store)
        elif not args.setup:
            if store.exists() and not args.new:
                try:
                    saved = TableSession.resume(store)
                except (RecordFormatError, ReplayError, SettingsError) as error:
                    print(f"rummy500 play: the saved game cannot be resumed ({error}); "
                          "starting a new one", file=sys.stderr)
            if saved is None:
                session = TableSession.new(settings, store)
    except (RecordFormatError, ReplayError, SettingsError) as error:
        return str(error)
    except OSError as error:
        return f"cannot keep the game in {store.directory}: {error}"

    from ..tui.app import PlayApp

    return PlayApp(settings, store, session=session, saved=saved, setup=args.setup,
                   delay=args.delay, light=args.light)


def run(args: argparse.Namespace) -> int:
    app = prepare(args)
    if isinstance(app, str):
        return fail(app)
    final = app.run()
    store = app.store
    if final is not None and store is not None:
        if final.finished:
            print(f"The game is over; its record is {store.last} "
                  f"(rummy500 replay {store.last}).")
        else:
            print(f"The game is saved in {store.current}: rummy500 play --resume continues it.")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rummy500 play", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
