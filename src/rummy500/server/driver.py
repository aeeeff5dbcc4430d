"""The computer players' driver: who plays next at a table by itself, and when.

A computer player moves after the table's pace, and not while the deal pause holds it
(:mod:`.pacing`); a person who is away has the stand-in (``expert``) play for them once
they have been away ``takeover_s`` during their turn (coming back and going again does
not start the count again), until they return; a person whose turn clock (``turn_s``)
runs out has that turn played by the stand-in. Nothing
plays at a table where no person is connected: a table nobody sits at costs nothing,
and it goes on where it stood when someone comes back.

Each decision is thought in the turn of the address that made the table
(:mod:`.thinking`), so no address's tables can hold up another's.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import Any

from ..session.refusal import STALE, Refusal
from . import metrics
from .connections import Client
from .frame_routes import UNAVAILABLE, Routes, refuse, unless_away
from .live import BOT, PERSON, PLAYING, LiveTable
from .logs import about_table
from .master import Master
from .pacing import Pacing
from .thinking import Thinking, ThinkingBusy, address_party

log = logging.getLogger("rummy500.server")

FOLLOWER_GRACE_S = 2.0
"""A process that did not store a table's last change waits this much longer before
moving for a computer player there, so processes seldom race for the same move."""

RETRY_S = 2.0
"""After the database refused a computer player's move, or its address had too many
decisions waiting, it tries again this much later."""
PARTIES_KEPT = 10_000
"""Tables whose maker the driver remembers (the least recent are read again)."""


class Driver:
    def __init__(self, master: Master, thinking: Thinking, *, pace: float,
                 pacing: Pacing | None = None) -> None:
        self.master = master
        self.thinking = thinking
        self.pace = pace
        self.pacing = pacing
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.closing = False
        self._parties: OrderedDict[str, str] = OrderedDict()
        """Each table's party in the thinking's turns: the address that made it."""

    def route(self, routes: Routes) -> None:
        """Hear the clients' ``continue`` frames: a deal's sheet read lets the computer
        players go on."""
        routes.on("continue", self.ready)

    async def ready(self, client: Client, frame: dict[str, Any]) -> None:
        """A seat has read the sheet of deal ``frame["deal"]``."""
        outcome = await unless_away(self._ready(client, frame["deal"]))
        if isinstance(outcome, Refusal):
            refuse(client, frame["id"], outcome)

    async def _ready(self, client: Client, deal: int) -> Refusal | None:
        seated = await self.master.seated_table(client, "continue")
        if isinstance(seated, Refusal):
            return seated
        table, seat = seated
        async with self.master.lock(table.id):
            table = self.master.live.get(table.id) or table
            if self.pacing is not None and await self.pacing.ready(table, seat, deal):
                self.kick(table)
        return None

    def busy(self, table_id: str) -> bool:
        return table_id in self.tasks

    def stop(self) -> None:
        self.closing = True
        for task in list(self.tasks.values()):
            task.cancel()

    def kick(self, table: LiveTable) -> None:
        """Start whatever plays next at ``table`` by itself (its lock held)."""
        old = self.tasks.pop(table.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        hold, clock = 0.0, None
        if self.pacing is not None:
            self.pacing.announce(table)
            hold = self.pacing.holding(table)
            clock = self.pacing.time_left(table, hold)
        if self.closing or table.status != PLAYING or not _someone_there(table):
            return
        seat = table.game.turn
        entry = table.seats[seat]
        first = not any(True for _ in table.game.deal.moves)
        pause = self.pace * (4 if first else 1)
        grace = 0.0 if table.id in self.master.last_local else FOLLOWER_GRACE_S
        pause += grace
        if clock is not None and clock > 0:
            clock += grace
        there = table.connected.get(seat, False)
        takeover = 0.0 if there or entry.kind == BOT else self._takeover_left(table)
        if entry.kind == BOT:
            delay, standin = max(pause, hold), False
        elif seat in table.standins and not there:
            delay, standin = pause, False
        elif clock is not None and (there or table.spec.takeover_s <= 0 or clock <= takeover):
            delay, standin = (clock if clock > 0 else pause), False  # the clock ran out
        elif table.spec.takeover_s <= 0 or there:
            return
        else:
            delay, standin = max(takeover, pause), True
        self.tasks[table.id] = asyncio.ensure_future(
            self._play_for(table.id, seat, table.seq, delay, standin))

    def _takeover_left(self, table: LiveTable) -> float:
        """Seconds until the stand-in takes over for the person to move, who is away (the
        turn's away time counted)."""
        takeover = table.spec.takeover_s
        if self.pacing is not None and takeover > 0:
            takeover = self.pacing.takeover_left(table)
        return takeover

    async def _play_for(self, table_id: str, seat: int, seq: int, delay: float,
                        standin: bool) -> None:
        about_table(table_id)
        try:
            await asyncio.sleep(delay)
            table = self.master.live.get(table_id)
            if table is None or table.seq != seq:
                return
            party = await self._party(table_id)
            while True:
                try:
                    answer = await self.thinking.ask(table_id, table.question(seat),
                                                     party=party)
                    break
                except ThinkingBusy:  # its address has enough waiting: in a while
                    await asyncio.sleep(RETRY_S)
                if self.master.live.get(table_id) is not table or table.seq != seq:
                    return

            def mark(live: LiveTable) -> None:
                if live.seats[seat].kind == PERSON:  # the clock ran out, or they are away
                    live.playing_for = seat
                if standin and seat not in live.standins:
                    live.standins.add(seat)
                    self.master.send_seats(live)

            outcome = await self.master.submit(table_id, seat, seq, answer.move,
                                               before_store=mark)
            if not isinstance(outcome, Refusal):
                metrics.moved("bot")
            elif outcome.code == UNAVAILABLE:
                await asyncio.sleep(RETRY_S)  # the database is back soon, or the server stops
                again = await self.master.table(table_id)
                if again is not None:
                    async with self.master.lock(table_id):
                        self.kick(again)
            elif outcome.code not in (STALE, "over"):
                log.error("table %s seat %s: the computer player chose %s: %s",
                          table_id, seat, answer.move, outcome.message)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a computer player failed at table %s", table_id)
        finally:
            if self.tasks.get(table_id) is asyncio.current_task():
                del self.tasks[table_id]


    async def _party(self, table_id: str) -> str:
        """The party of ``table_id``'s decisions: the address that made it (read once from
        the database), or the table itself when no maker is known."""
        party = self._parties.get(table_id)
        if party is None:
            try:
                creator = await self.master.store.creator_of(table_id)
            except Exception as error:  # the database is away: asked again next time
                log.warning("the maker of table %s could not be read: %s", table_id, error)
                return f"table {table_id}"
            party = address_party(creator) if creator else f"table {table_id}"
            self._parties[table_id] = party
            while len(self._parties) > PARTIES_KEPT:
                self._parties.popitem(last=False)
        else:
            self._parties.move_to_end(table_id)
        return party


def _someone_there(table: LiveTable) -> bool:
    """Whether a person is connected to a seat of ``table`` (through any process)."""
    return any(seat.kind == PERSON and table.connected.get(seat.seat, False)
               for seat in table.seats)


__all__ = ["Driver"]
