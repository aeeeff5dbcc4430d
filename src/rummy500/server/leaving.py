"""Leaving a table for good ("Leave table", the ``leave`` frame): the person's seat is
given to a computer player (the stand-in's, ``expert``) under their name for the rest of
the game, their token acts no more, and everyone's log says so. The seat changes and the
change that says so (:data:`.live.LEFT`) are stored together (:meth:`.store.Store.leave`),
so a restart and every process tell it alike; the moves played for the seat from then on
are the stand-in's (``Ann's stand-in draws``).

At a table of people only, the others play on against the computer player; when the last
person leaves, nobody is connected and nothing plays: the table stays where it stood until
its retention ends. Undo never goes back past a leave.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..session.refusal import NOT_SEATED, STALE, Refusal
from .live import OVER, PERSON, STANDIN_BOT, WAITING, LiveTable

if TYPE_CHECKING:
    from .master import Master

NOT_PLAYING = "not_playing"


def why_not_leave(table: LiveTable, seat: int) -> Refusal | None:
    """Why the person of ``seat`` cannot leave ``table`` now (None: they can)."""
    entry = table.seats[seat]
    if entry.left_at is not None or entry.kind != PERSON or entry.token_hash is None:
        return Refusal(NOT_SEATED, "you have left this table: a computer player plays the seat")
    if table.status == WAITING:
        return Refusal(NOT_PLAYING, "the game has not started: nothing to hand over yet "
                                    "(close the page, and the seat waits for you)")
    if table.status == OVER:
        return Refusal(NOT_PLAYING, "the game is over: there is nothing to leave")
    return None


def left_refusal(table: LiveTable | None, seat: int) -> Refusal | None:
    """The refusal of a move from ``seat`` whose person has left (None: they have not)."""
    if table is not None and table.seats[seat].left_at is not None:
        return Refusal(NOT_SEATED, "you left this table: a computer player plays the seat "
                                   "for the rest of the game")
    return None


async def leave(master: Master, table_id: str, seat: int) -> Refusal | int:
    """The person of ``seat`` leaves the table for good, under the table's lock at
    ``master``: the seq of the change that says so, or a refusal."""
    async with master.holding(table_id) as table:
        if table is None:
            return Refusal("unknown_table", "this table no longer exists")
        refused = why_not_leave(table, seat)
        if refused is not None:
            return refused
        entry, change = table.seats[seat], table.leave_change(seat)
        assert entry.token_hash is not None
        if not await master.store.leave(table_id, seat, entry.token_hash, change, STANDIN_BOT):
            return Refusal(STALE, "the table moved on: read the latest state and try again")
        table.seats = await master.store.seats_of(table_id)
        table.standins.discard(seat)
        table.connected.pop(seat, None)
        table.apply(change)
        master.last_local.add(table_id)
        master.send_seats(table)
        master.send_update(table, change.seq)
        master.changed(table)
        return change.seq


__all__ = ["NOT_PLAYING", "leave", "left_refusal", "why_not_leave"]
