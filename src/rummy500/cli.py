"""The ``rummy500`` command line: each subcommand lives in :mod:`rummy500.commands`."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

COMMANDS = {
    "play": ("play", "play 500 Rum at the terminal against computer players, or hot seat"),
    "rules": ("rules_cmd", "list the presets and every rule option"),
    "simulate": ("simulate", "play deals between computer players and sum them up"),
    "replay": ("replay_cmd", "replay a game record and print the game"),
    "watch": ("watch", "watch computer players play a game, move by move"),
    "tournament": ("tournament_cmd", "measure computer players against each other"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rummy500",
        description="500 Rum (500 Rummy), Partnership 500 Rum and Persian Rummy.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in COMMANDS.items():
        module = importlib.import_module(f"rummy500.commands.{module_name}")
        command = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
