"""Undo at a table where one person plays computer players: the person's last move and
the computer players' replies are taken back, never past new information (the terminal
game's rule, :mod:`rummy500.session.undo_rule`).

How it is stored, so that every process and every rebuild agree: in one transaction
the undone changes are deleted and a marker change is stored in their place, with the
next ``seq`` (``seq`` only grows); its seat is the person's and its move is
``undo <n>``, ``n`` the moves taken back. Replaying the stored changes passes over a
marker (the changes it took back are gone), so the table read again from the database
is the table after the undo. A process that hears of the marker (as of any change)
reads the table again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields
from typing import Any, Protocol

from ..moves import parse_move
from ..session.refusal import STALE, Refusal
from ..session.undo_rule import moves_to_take_back
from .connections import Connections
from .live import PERSON, PLAYING, Change, LiveTable, Seat, Spec
from .store import Store
from .talk_store import TalkStore

UNDO = "undo"
UNDO_BLOCKED = "undo_blocked"
_KEPT = ("id", "seats", "connected", "standins")
"""What a table read again keeps of the table in memory: who sits and who is there."""


class Master(Protocol):
    """What an undo needs of the table master (:class:`.master.Master`, which imports
    this module)."""

    live: dict[str, LiveTable]
    last_local: set[str]
    store: Store
    connections: Connections
    changed: Callable[[LiveTable], None]

    def lock(self, table_id: str) -> asyncio.Lock: ...

    async def table(self, table_id: str) -> LiveTable | None: ...

    def send_update(self, table: LiveTable, seq: int, event: Any = None) -> None: ...


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
    moves = [c for c in stored if not is_undo(c)]
    return moves[-undone_count(marker)].seq - 1


def undo_event(table: LiveTable, marker: Change) -> dict[str, Any]:
    count = undone_count(marker)
    seat = marker.seat if marker.seat is not None else 0
    name = table.seats_json()[seat]["name"]
    moves = "move" if count == 1 else "moves"
    return {"seat": seat, "undo": count, "text": f"{name} took back {count} {moves}"}


def send_undo(master: Master, table: LiveTable, marker: Change) -> None:
    """Every client of the table here hears the undo: an update with the state after it."""
    master.send_update(table, table.seq, undo_event(table, marker))


async def take_back(master: Master, store: TalkStore, table_id: str,
                    seat: int) -> Refusal | int:
    """``seat``'s undo: stored, then heard by every client; the marker's seq or a refusal."""
    table = await master.table(table_id)
    if table is None:
        return Refusal("unknown_table", "this table no longer exists")
    async with master.lock(table_id):
        table = master.live.get(table_id)
        if table is None:
            return Refusal(STALE, "the table is being read again: try again")
        stored = await store.all_changes(table_id)
        if not stored or stored[-1].seq != table.seq:
            return Refusal(STALE, "the table moved on: read the latest state and try again")
        marker = undo_target(table, seat, stored)
        if isinstance(marker, Refusal):
            return marker
        target = target_of(marker, stored)
        if not await store.take_back(table_id, table.seq, target, marker):
            return Refusal(STALE, "the table moved on: read the latest state and try again")
        kept = [c for c in stored if c.seq <= target]
        adopt(table, rebuild(table_id, table.spec, table.seats, [*kept, marker],
                             table.next_table))
        master.last_local.add(table_id)
        send_undo(master, table, marker)
        master.changed(table)
        return marker.seq


async def read_again(master: Master, table: LiveTable) -> None:
    """Another process took changes back: the table is read again from the database and
    its clients here hear the undo (the table's lock held)."""
    stored = await master.store.load(table.id)
    if stored is None:
        return
    adopt(table, rebuild(table.id, stored.spec, table.seats, stored.changes,
                         stored.next_table))
    marker = next(c for c in reversed(stored.changes) if is_undo(c))
    send_undo(master, table, marker)


__all__ = ["UNDO", "UNDO_BLOCKED", "adopt", "is_undo", "read_again", "rebuild", "take_back",
           "undo_target"]
