"""``rummy500 play --join URL``: a seat at an online table (``rummy500 serve``), in the terminal.

The seat is the one this terminal took at that table before (its token is kept beside
the saved games, :mod:`rummy500.tui.tokens`), else an open person seat: ``--seat N``,
or the first open one, under ``--name``. Whatever goes wrong before the table shows
(a wrong link, an unreachable server, an unknown table, no open seat) is one line.
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..extras import require
from ..net.client import Api, Closed, ServerError, TableConnection, split_table_url
from ..rules import rules_from_record
from ..session.saves import data_dir
from ..tui.tokens import HeldSeat, Joined, SeatTokens
from . import terminal_check
from .options import failure
from .program import program

if TYPE_CHECKING:
    from ..tui.remote import RemoteApp

LOCAL_ONLY = {"players": "--players", "preset": "--preset", "option": "--option",
              "bot": "--bot", "people": "--people", "seats": "--seats", "names": "--names",
              "seed": "--seed", "budget": "--budget", "setup": "--setup", "new": "--new",
              "resume": "--resume"}
"""The arguments of a local game: the server's table is set up already."""

UNAUTHORIZED = 4401


def conflicts(args: argparse.Namespace) -> str | None:
    """Why the command line cannot be played, as one line (None: it can)."""
    join = getattr(args, "join", None)
    if join is None:
        strays = [flag for name, flag in (("seat", "--seat"), ("name", "--name"))
                  if getattr(args, name, None) is not None]
        if strays:
            return f"{' and '.join(strays)} go with --join URL (a seat at an online table)"
        return None
    given = [flag for name, flag in LOCAL_ONLY.items()
             if getattr(args, name, None) not in (None, False, [])]
    if given:
        return (f"--join plays at a table the server has set up: {', '.join(given)} "
                "cannot be given with it")
    return None


def describe(error: BaseException, base: str) -> str:
    reason = getattr(error, "reason", None) or getattr(error, "strerror", None) or error
    return f"cannot reach the server at {base}: {reason}"


async def _summary(api: Api, table: str) -> dict[str, Any]:
    try:
        summary = await api.summary(table)
    except ServerError as error:
        if error.status == 404:
            raise JoinError(f"there is no table {table} at {api.base}") from None
        raise JoinError(f"the server at {api.base} says: {error.message}") from None
    except OSError as error:
        raise JoinError(describe(error, api.base)) from None
    except ValueError:
        raise JoinError(f"{api.base} does not answer as a rummy500 server") from None
    if not isinstance(summary.get("seats"), list) or not isinstance(summary.get("rules"), dict):
        raise JoinError(f"{api.base} does not answer as a rummy500 server")
    return summary


class JoinError(Exception):
    """Why the seat cannot be taken, in one line."""


async def _still_valid(base: str, table: str, token: str) -> bool:
    """Whether the server still knows ``token`` (a server may have lost its tables)."""
    from websockets.exceptions import WebSocketException

    try:
        connection = await TableConnection.open(base, table, token, open_timeout=10)
    except Closed as closed:
        if closed.code == UNAUTHORIZED:
            return False
        raise JoinError(f"the server at {base} closed the connection ({closed.code})") from None
    except (OSError, TimeoutError, WebSocketException) as error:
        raise JoinError(describe(error, base)) from None
    await connection.close()
    return True


async def _take(api: Api, table: str, summary: dict[str, Any], seat: int | None,
                name: str | None) -> HeldSeat:
    seats = summary["seats"]
    if seat is None:
        open_seats = [entry["seat"] for entry in seats if entry.get("open")]
        if not open_seats:
            raise JoinError(f"table {table} has no open seat")
        seat = int(open_seats[0])
    elif not 0 <= seat < len(seats):
        raise JoinError(f"table {table} has seats 0 to {len(seats) - 1}: there is no seat {seat}")
    try:
        taken = await api.take_seat(table, seat, name)
    except ServerError as error:
        if error.code == "seat_taken":
            raise JoinError(f"seat {seat} of table {table} is taken") from None
        raise JoinError(f"the server at {api.base} says: {error.message}") from None
    except OSError as error:
        raise JoinError(describe(error, api.base)) from None
    return HeldSeat(int(taken["seat"]), str(taken["token"]), name)


async def join(url: str, directory: Path, seat: int | None = None,
               name: str | None = None) -> Joined:
    """Take a seat at the table of ``url`` (or the one held before); :class:`JoinError`."""
    try:
        base, table = split_table_url(url)
    except ValueError as error:
        raise JoinError(str(error)) from None
    api = Api(base, timeout=15.0)
    summary = await _summary(api, table)
    tokens = SeatTokens(directory)
    held = tokens.get(base, table)
    said = ""
    if held is not None and seat is not None and held.seat != seat:
        said = (f"This terminal held seat {held.seat} at this table: seat {seat} is taken as "
                f"--seat asks, and seat {held.seat} is left to the table.")
        held = None
    if held is not None and not await _still_valid(base, table, held.token):
        tokens.forget(base, table)
        held = None
    if held is not None and name is not None and name != held.name:
        said = (f"You sit at seat {held.seat} again, the seat this terminal took before"
                + (f", as {held.name}" if held.name else "") + f": --name {name} is not "
                "used (a seat's name is given when it is taken; --seat N takes another).")
    if held is None:
        held = await _take(api, table, summary, seat, name)
        try:
            tokens.put(base, table, held)
        except OSError as error:
            raise JoinError(f"cannot keep the seat's token in {tokens.path}: "
                            f"{error.strerror or error}") from None
    try:
        rules = rules_from_record(summary["rules"])
    except Exception as error:  # a server of another version: say so in one line
        raise JoinError(f"the table's rules cannot be read: {error}") from None
    return Joined(base, table, held.seat, held.token, rules, int(summary["players"]),
                  SeatTokens.key(base, table), directory, said)


def prepare_join(args: argparse.Namespace) -> RemoteApp | str:
    """The remote table the command line asks for, or the one line saying why not."""
    problem = conflicts(args)
    if problem is not None:
        return problem
    no_terminal = terminal_check.no_terminal()
    if no_terminal is not None:  # before a seat is taken
        return no_terminal
    try:
        joined = asyncio.run(join(args.join, data_dir(args.save_dir), args.seat, args.name))
    except JoinError as error:
        return str(error)
    from ..tui.remote import RemoteApp

    return RemoteApp(joined, light=args.light)


def run_join(args: argparse.Namespace) -> int:
    require("web", "websockets", feature="rummy500 play --join")
    app = prepare_join(args)
    if isinstance(app, str):
        return failure("play", app)
    if app.joined.said:
        print(app.joined.said)
    app.run()
    return farewell(app, data_dir(args.save_dir))


def farewell(app: RemoteApp, directory: Path) -> int:
    """The line said once the terminal's seat has closed, and the command's exit code; a
    token that acts no more is forgotten (the table is gone, or the person left it for
    good)."""
    joined = app.joined
    if app.unknown_seat:
        SeatTokens(directory).forget(joined.base, joined.table)
        print(f"rummy500 play: the server no longer knows your seat at {joined.url}",
              file=sys.stderr)
        return 1
    if app.left_for_good:
        SeatTokens(directory).forget(joined.base, joined.table)
        print(f"You left table {joined.url} for good: a computer player plays seat "
              f"{joined.seat} for the rest of the game.")
        return 0
    print(f"You left table {joined.url} (seat {joined.seat}); "
          f"{program()} play --join {shlex.quote(joined.url)} takes your seat again.")
    return 0


__all__ = ["LOCAL_ONLY", "JoinError", "conflicts", "farewell", "join", "prepare_join",
           "run_join"]
