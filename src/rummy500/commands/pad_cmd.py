"""``rummy500 pad FILE``: score a game played with real cards from its score pad's file, and
print each deal's sheet and the running totals, or (``--json``) the scores for scripts.

Exit codes: 0 for a pad scored, 2 for one that cannot be right (with what, where and why).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..errors import PadError
from ..pad import Pad, read_pad
from ..pad_score import score_pad
from ..session.pad_sheets import pad_sheets, pad_summary
from ..session.seat_state import DealSheet, signed
from ..session.words import side_label


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("pad", type=Path, metavar="FILE",
                        help="a score pad's file (JSON, format rummy500-pad)")
    parser.add_argument("--json", action="store_true",
                        help='print {"deals": [...], "totals": [...], "over": ..., '
                        '"winner": ...} for scripts')


def run(args: argparse.Namespace) -> int:
    try:
        pad = read_pad(args.pad)
        game = score_pad(pad)
    except PadError as error:
        print(f"rummy500 pad: {args.pad}: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(pad_summary(pad, game), indent=2))
        return 0
    sheets = pad_sheets(pad, game)
    print(heading(pad))
    for sheet in sheets:
        print()
        print("\n".join(sheet_words(pad, sheet)))
    print()
    if not sheets:
        print("No deal has been scored yet.")
    elif not game.finished:
        print(f"The game goes on. {sheets[-1].standing}")
    else:
        print(f"The game is over. {sheets[-1].standing}")
    return 0


def heading(pad: Pad) -> str:
    """The pad's rules and players in one line."""
    rules, names = pad.rules, pad.players
    options = ", ".join(f"{name} {value}" for name, value in rules.overrides().items())
    said = f"{rules.preset}" + (f" with {options}" if options else "")
    if rules.partnership:
        sides = " against ".join(side_label(rules, names, side) for side in range(2))
        return f"500 Rum ({said}): {sides}."
    return f"500 Rum ({said}): {', '.join(names)}."


def sheet_words(pad: Pad, sheet: DealSheet) -> list[str]:
    """A deal's sheet: its end, every line, each side's score and the totals after it."""
    words = [sheet.text]
    width = max((len(line.text) for line in sheet.lines), default=0)
    words += [f"  {line.text:<{width}}  {signed(line.points):>5}" for line in sheet.lines]
    totals = ", ".join(f"{label} {total}"
                       for label, total in zip(sheet.sides, sheet.totals_after, strict=True))
    words.append(f"  Totals after deal {sheet.deal}: {totals}.")
    return words


__all__ = ["add_arguments", "run"]
