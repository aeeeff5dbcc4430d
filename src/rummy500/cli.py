"""The ``rummy500`` command line: each subcommand lives in :mod:`rummy500.commands`."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from . import __version__
from .errors import MissingExtraError, Rummy500Error

COMMANDS = {
    "play": ("play", "play 500 Rum at the terminal against computer players, or hot seat"),
    "rules": ("rules_cmd", "list the presets and every rule option"),
    "simulate": ("simulate", "play deals between computer players and sum them up"),
    "replay": ("replay_cmd", "replay a game record and print the game"),
    "review": ("review_cmd", "review a game: where each deal's points were won and lost"),
    "pad": ("pad_cmd", "score a game played with real cards from its score pad's file"),
    "watch": ("watch", "watch computer players play a game, move by move"),
    "tournament": ("tournament_cmd", "measure computer players against each other"),
    "serve": ("serve", "run online tables that people join by a link"),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command; given ``command``, only that command's options are
    loaded (each command's module is imported for its options: fewer imports, quicker start)."""
    parser = argparse.ArgumentParser(
        prog="rummy500",
        description="500 Rum (500 Rummy), Partnership 500 Rum and Persian Rummy.",
    )
    parser.add_argument("--version", action="version", version=f"rummy500 {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in COMMANDS.items():
        subparser = sub.add_parser(name, help=help_text, description=help_text)
        if command is None or command == name:
            module = importlib.import_module(f"rummy500.commands.{module_name}")
            module.add_arguments(subparser)
            subparser.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    # The command is the first word that is not an option (the only options before it are
    # --help and --version, which take no value).
    named = next((word for word in words if not word.startswith("-")), None)
    parser = build_parser(named if named in COMMANDS else None)
    args = parser.parse_args(words)
    try:
        code: int = args.run(args)
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except MissingExtraError as error:
        print(error, file=sys.stderr)
        return 2
    except Rummy500Error as error:  # a refusal no command caught: still one line, no traceback
        print(f"rummy500 {args.command}: {error}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
