"""``rummy500 replay RECORD``: replay a game record and tell the game, or check it (``--json``).

Exit codes: 0 for a legal record, 1 at the first illegal move, 2 for a record
that cannot be read (NOTATION.md).

Seats are named as the record names them where it does: a saved terminal game's table
(``table.names``, as the game showed them), or the form the replay page takes
(``{"record": ..., "names": [...]}``); ``--names`` names them over either; otherwise they
are counted from 1, as set-up counts them (``Seat 1``).
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
from ..narrate import hand_text, narrate_game, seat_names, verb
from ..record import RecordFormatError, ReplayError, read, replay, replay_summary
from ..session.settings import SettingsError, TableSettings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", type=Path, metavar="RECORD", help="a game record (JSON)")
    parser.add_argument("--json", action="store_true",
                        help="print the outcome as one JSON object (the form of NOTATION.md)")
    parser.add_argument("--no-hands", action="store_true",
                        help="do not show the hands as they are dealt")
    parser.add_argument("--names", default=None, metavar="A,B,...",
                        help="the players' names, one a seat in seat order (default: the "
                        "record's, else Seat 1, Seat 2, ...)")


def run(args: argparse.Namespace) -> int:
    names: Any = None
    try:
        data, names = unwrap(read(args.record))
        if args.names is not None:
            names = [name.strip() for name in args.names.split(",")]
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
                try:
                    names = checked_names(names, partial.players)
                except RecordFormatError:
                    names = None
                print("\n".join(narrate_game(partial, hands=not args.no_hands, names=names)))
                print()
            print(f"Illegal move: {where(data, error)}: {error.reason}.")
            if partial is not None and partial.deals and not partial.deal.over:
                deal = partial.deal
                who = seat_names(partial.players, names)[deal.turn]
                print(f"{who} {verb(who, 'was')} to move, holding "
                      f"{hand_text(deal.hands[deal.turn])}.")
        return 1
    if args.json:
        print(json.dumps(replay_summary(game), indent=2))
        return 0
    try:
        names = checked_names(names, game.players)
    except RecordFormatError as error:
        source = "--names" if args.names is not None else args.record
        print(f"rummy500 replay: {source}: {error}", file=sys.stderr)
        return 2
    print("\n".join(narrate_game(game, hands=not args.no_hands, names=names)))
    return 0


def unwrap(data: Mapping[str, Any]) -> tuple[Mapping[str, Any], Any]:
    """The record in ``data`` and the names it gives its seats (unchecked), if any: those
    of the replay page's form ``{"record": ..., "names": [...]}``, or of a saved game's
    table (the names its players saw)."""
    if "record" in data and "rounds" not in data:
        record = data["record"]
        if not isinstance(record, dict):
            raise RecordFormatError("record must be a game record (a JSON object)")
        return record, data.get("names")
    table = data.get("table")
    if isinstance(table, dict) and "seats" in table:
        try:
            return data, TableSettings.from_data(table).seat_names()
        except SettingsError:
            return data, None
    return data, None


def checked_names(names: Any, players: int) -> list[str] | None:
    """``names`` if they name each of ``players`` seats once, in words; None for none."""
    if names is None:
        return None
    if (not isinstance(names, list) or len(names) != players
            or not all(isinstance(name, str) and name.strip() for name in names)):
        raise RecordFormatError(f"the names must be {players} names, one a seat")
    cleaned = [" ".join(name.split()) for name in names]
    if len(set(cleaned)) != len(cleaned):
        raise RecordFormatError("two seats have the same name: " + ", ".join(cleaned))
    return cleaned


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
