"""Undo at a table where one person plays computer players: the person's last move and
the computer players' replies are taken back, never past new information (the terminal
game's rule, :mod:`rummy500.session.undo_rule`).

How it is stored, so that every process and every rebuild agree: in one transaction
the undone changes are deleted and a marker change is stored in their place, with the
next ``seq`` (``seq`` only grows); its seat is the person's and its move is
``undo <n>``, ``n`` the moves taken back. Replaying the stored changes passes over a
marker (the changes it took back are gone), so the table read again from the database
is the table after the undo. A process that hears of the marker (as of any change)
reads the table again. The table master (:meth:`.master.Master.take_back`) makes the
undo, as it makes every change of a table; these are its rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import fields
from typing import Any

from ..moves import parse_move
from ..session.refusal import Refusal
from ..session.undo_rule import moves_to_take_back
from .live import PERSON, PLAYING, Change, LiveTable, Seat, Spec

UNDO = "undo"
UNDO_BLOCKED = "undo_blocked"
_KEPT = ("id", "seats", "connected", "standins")
"""What a table read again keeps of the table in memory: who sits and who is there."""


def is_undo(change: Change) -> bool:
    return change.move is not None and change.move.split(" ", 1)[0] == UNDO


def undone_count(change: Change) -> int:
    try:
        return int((change.move or "").split(" ", 1)[1])
    except (IndexError, ValueError):
        return 0


def rebuild(table_id: str, spec: Spec, seats: list[Seat], changes: Iterable[Change],
            next_table: str | None = None) -> LiveTable:
    """The table from its stored changes, undo markers passed over."""
    table = LiveTable.rebuild(table_id, spec, seats, [], next_table)
    for change in changes:
        if is_undo(change):
            table.seq = change.seq
        else:
            table.apply(change)
    return table


def adopt(table: LiveTable, fresh: LiveTable) -> None:
    """Make ``table`` (the object every part of the process holds) the table ``fresh``
    rebuilt, keeping its seats and who is connected."""
    for spec in fields(LiveTable):
        if spec.name not in _KEPT:
            setattr(table, spec.name, getattr(fresh, spec.name))


def undo_target(table: LiveTable, seat: int, stored: Sequence[Change]) -> Refusal | Change:
    """The marker change of ``seat``'s undo (``undo <n>``, at the next seq), or why it
    is refused; ``stored``: every stored change of the table."""
    people = [entry.seat for entry in table.seats if entry.kind == PERSON]
    if people != [seat]:
        return Refusal(UNDO_BLOCKED, "undo is only for a table where every other seat is a "
                                     "computer player")
    if table.status != PLAYING:
        return Refusal(UNDO_BLOCKED, "there is no game under way to take a move back in")
    deal_start = max((c.seq for c in stored if c.move is None), default=0)
    if any(c.left for c in stored if c.seq > deal_start):
        return Refusal(UNDO_BLOCKED, "a person left the table during this deal: its moves "
                                     "are not taken back")
    moves = [(c.seat, parse_move(c.move)) for c in stored
             if c.seq > deal_start and c.seat is not None and c.move is not None
             and not is_undo(c)]
    taken = moves_to_take_back(moves, seat, [info.name for info in table.seat_infos()])
    if isinstance(taken, str):
        return Refusal(UNDO_BLOCKED, taken)
    return Change(table.seq + 1, seat, f"{UNDO} {taken}")


def target_of(marker: Change, stored: Sequence[Change]) -> int:
    """The seq an undo marker takes the table back to: just before the last
    ``undone_count`` moves."""
    moves = [c for c in stored if not is_undo(c) and not c.left]
    return moves[-undone_count(marker)].seq - 1


def undo_event(table: LiveTable, marker: Change) -> dict[str, Any]:
    count = undone_count(marker)
    seat = marker.seat if marker.seat is not None else 0
    name = table.seats_json()[seat]["name"]
    moves = "move" if count == 1 else "moves"
    return {"seat": seat, "undo": count, "text": f"{name} took back {count} {moves}"}


__all__ = ["UNDO", "UNDO_BLOCKED", "adopt", "is_undo", "rebuild", "target_of", "undo_event",
           "undo_target"]
