"""Command-line options shared by the commands that set up a game, and their one-line
refusal."""

from __future__ import annotations

import argparse
import sys

from ..bots import BOT_NAMES
from ..rules import PRESETS


def failure(command: str, message: str) -> int:
    """Why ``rummy500 command`` cannot go on, as one line on stderr; the exit status 2."""
    print(f"rummy500 {command}: {message}", file=sys.stderr)
    return 2


def add_rule_arguments(parser: argparse.ArgumentParser) -> None:
    """``--players``, ``--preset`` and repeatable ``--option NAME=VALUE``."""
    parser.add_argument("--players", "-p", type=int, default=None,
                        help="players, 2 to 8 (2; 4 for partnership presets)")
    parser.add_argument("--preset", default="classic",
                        help=f"rule set: {', '.join(PRESETS)} (classic)")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                        help="set a rule option over the preset (repeatable; see rummy500 rules)")


def add_bot_argument(parser: argparse.ArgumentParser) -> None:
    """``--bot NAME`` or ``--bot NAME,NAME,…`` (one per seat), random by default."""
    parser.add_argument("--bot", default="random",
                        help=f"the bot for every seat, or one per seat separated by commas "
                        f"({', '.join(BOT_NAMES)})")


def add_ray_argument(parser: argparse.ArgumentParser) -> None:
    """``--ray [ADDRESS]``: play on a Ray cluster (commands/cluster.py, loaded only then)."""
    parser.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                        help="play on a Ray cluster with the same results: HOST:PORT or "
                        "ray://HOST:PORT, auto (the Ray started on this machine), or nothing "
                        "(RAY_ADDRESS, else the Ray started here, else one started for the "
                        "run); needs rummy500[cluster] (docs/cluster.md)")


def add_search_arguments(parser: argparse.ArgumentParser) -> None:
    """``--budget SECONDS`` and ``--worlds N`` for the bots that search."""
    parser.add_argument("--budget", type=float, default=1.0, metavar="SECONDS",
                        help="thinking time a decision for the bots that search (1.0)")
    parser.add_argument("--worlds", type=int, default=None, metavar="N",
                        help="for mcts: at most N sampled deals a decision in place of the time "
                        "budget, so that the run replays exactly from its seed")
