"""``rummy500 replay RECORD``: replay a game record and tell the game, or check it (``--json``).

Exit codes: 0 for a legal record, 1 at the first illegal move, 2 for a record
that cannot be read (NOTATION.md).
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..game import Game
from ..narrate import hand_text, narrate_game, seat_name
from ..record import RecordFormatError, ReplayError, read, replay, replay_summary


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", type=Path, metavar="RECORD", help="a game record (JSON)")
    parser.add_argument("--json", action="store_true",
                        help="print the outcome as one JSON object (the form of NOTATION.md)")
    parser.add_argument("--no-hands", action="store_true",
                        help="do not show the hands as they are dealt")


def run(args: argparse.Namespace) -> int:
    try:
        data = read(args.record)
        game = replay(data)
    except RecordFormatError as error:
        print(f"rummy500 replay: {args.record}: {error}", file=sys.stderr)
        return 2
    except ReplayError as error:
        if args.json:
            print(json.dumps({"ok": False, "round": error.round, "move": error.move,
                              "error": error.reason}, indent=2))
        else:
            partial = game_before(data, error)
            if partial is not None:
                print("\n".join(narrate_game(partial, hands=not args.no_hands)))
                print()
            print(f"Illegal move: {where(data, error)}: {error.reason}.")
            if partial is not None and partial.deals and not partial.deal.over:
                deal = partial.deal
                print(f"{seat_name(deal.turn)} was to move, holding "
                      f"{hand_text(deal.hands[deal.turn])}.")
        return 1
    if args.json:
        print(json.dumps(replay_summary(game), indent=2))
    else:
        print("\n".join(narrate_game(game, hands=not args.no_hands)))
    return 0


def where(data: Mapping[str, Any], error: ReplayError) -> str:
    """Where an illegal move lies, as people count (deal and move from 1), with its text."""
    place = f"deal {error.round + 1}, move {error.move + 1}"
    try:
        text = data["rounds"][error.round]["moves"][error.move]
    except (KeyError, IndexError, TypeError):
        return place
    return f"{place} ({text!r})" if isinstance(text, str) else place


def game_before(data: Mapping[str, Any], error: ReplayError) -> Game | None:
    """The game of ``data`` up to just before its illegal move, or None if there is none."""
    rounds = data.get("rounds")
    if not isinstance(rounds, list):
        return None
    cut = copy.deepcopy(rounds[: error.round + 1])
    attempts = []
    last = cut[-1] if cut else None
    if isinstance(last, dict) and isinstance(last.get("moves"), list):
        last["moves"] = last["moves"][: error.move]
        attempts.append(cut)
    if error.round > 0:
        attempts.append(cut[:-1])
    for rounds_before in attempts:
        try:
            return replay({**data, "rounds": rounds_before})
        except (RecordFormatError, ReplayError):
            continue
    return None
