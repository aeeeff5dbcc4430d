"""Command-line options shared by the commands that set up a game."""

from __future__ import annotations

import argparse

from ..rules import PRESETS


def add_rule_arguments(parser: argparse.ArgumentParser) -> None:
    """``--players``, ``--preset`` and repeatable ``--option NAME=VALUE``."""
    parser.add_argument("--players", "-p", type=int, default=None,
                        help="players, 2 to 8 (2; 4 for partnership presets)")
    parser.add_argument("--preset", default="classic",
                        help=f"rule set: {', '.join(PRESETS)} (classic)")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                        help="set a rule option over the preset (repeatable; see rummy500 rules)")
