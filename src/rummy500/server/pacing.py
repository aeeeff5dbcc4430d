"""Pacing at a table: the pause after a deal (people read its sheet; the computer
players wait until every connected person has said ``continue`` or ``deal_pause_s`` has
passed) and the turn clock (``turn_s``: a person's turn is played by the stand-in when it
runs out, once the person's time bank, ``bank_s`` for the game, is spent). What each
state carries of them: ``waiting_for``, ``pause_left``, ``clock``, ``bank``; and how many
watch (``watchers``, the spectators connected here).

A turn that outlasts its clock spends the seat's bank: the move that ends the turn
stores the seconds it spent (:attr:`.live.Change.spent`), so every process and a restart
count the same banks.

Every process keeps its own account of a table's pacing from the changes it sees; the
``continue`` of each seat is stored and announced (:class:`.messages.Ready`), and a
process that reads a table in mid-pause takes the pause's start (when the deal was
dealt) and who is ready from the database. A turn's clock starts when this process saw
the turn begin (processes differ by the time a change takes to reach them).

The stand-in takes over for a person who has been away for ``takeover_s`` during their
turn, counted over the turn: coming back and going again pauses the count and never
starts it again (:meth:`Pacing.takeover_left`), so a person who reconnects again and
again holds the table up for ``takeover_s`` a turn at most. Away time counts only while
another person is there to wait.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .connections import Connections
from .live import BOT, PERSON, PLAYING, LiveTable
from .messages import Ready
from .talk_store import TalkStore


@dataclass(slots=True)
class _Pace:
    """One table's pacing as this process knows it."""

    deals: int = -1
    seq: int = -1
    """The table's change when its deal and turn were last looked at."""
    turn: tuple[int, int, int] | None = None
    """The turn in play (:func:`turn_key`)."""
    turn_since: float = 0.0
    pause_deal: int = 0
    """The finished deal whose sheet people are reading (0: none)."""
    pause_until: float = 0.0
    ready: set[int] = field(default_factory=set)
    released: float | None = None
    """Since when nobody is waited for (before ``pause_until``): a deal's first turn's
    clock starts then."""
    shown: tuple[int, ...] = ()
    """The ``waiting_for`` the clients heard last."""
    timer: asyncio.TimerHandle | None = None
    away: float = 0.0
    """Seconds the person to move has been away during the turn in play (before
    ``away_since``), while someone else was there."""
    away_since: float | None = None
    """Since when they are away, while they are."""


def turn_key(table: LiveTable) -> tuple[int, int, int]:
    """The turn in play: (deal, the place in the deal's moves where it began, seat). Found
    from the end of the moves, so its cost does not grow with the deal."""
    game = table.game
    movers, seat = game.deal.movers, game.turn
    began = len(movers)
    while began and movers[began - 1] == seat:
        began -= 1
    return len(game.deals), began, seat


class Pacing:
    """The pacing of every table this process holds."""

    def __init__(self, store: TalkStore, connections: Connections,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.connections = connections
        self.now = clock
        self.tables: dict[str, _Pace] = {}
        self.watching: Callable[[str], int] = lambda table_id: 0
        """How many watch a table, in every process (:meth:`.presence.Presence.watching`)."""

    # -- following the game -----------------------------------------------------------------

    def observe(self, table: LiveTable) -> _Pace:
        """Bring the table's pacing up to its game (a new deal starts a pause, a new
        turn its clock)."""
        pace = self.tables.get(table.id)
        if pace is None:
            pace = self.tables[table.id] = _Pace()
        if table.status != PLAYING:
            pace.deals = len(table.game.deals)
            return pace
        now = self.now()
        if pace.seq != table.seq:  # the deal and the turn change only with the table
            pace.seq = table.seq
            deals = len(table.game.deals)
            if deals != pace.deals:
                if pace.deals >= 1 and deals >= 2 and table.spec.deal_pause_s > 0:
                    self._start_pause(table, pace, deals - 1, now + table.spec.deal_pause_s)
                pace.deals = deals
            key = turn_key(table)
            if key != pace.turn:
                pace.turn, pace.turn_since = key, now
                pace.away, pace.away_since = 0.0, None
        self._count_away(table, pace, now)
        return pace

    @staticmethod
    def _count_away(table: LiveTable, pace: _Pace, now: float) -> None:
        """Bring the turn's away time up to now: the person to move is waited for while
        they are not connected and another person is."""
        seat = table.game.turn
        waited = (table.seats[seat].kind == PERSON and not table.connected.get(seat, False)
                  and any(other.kind == PERSON and table.connected.get(other.seat, False)
                          for other in table.seats))
        if waited and pace.away_since is None:
            pace.away_since = now
        elif not waited and pace.away_since is not None:
            pace.away += now - pace.away_since
            pace.away_since = None

    async def restore(self, table: LiveTable) -> None:
        """A table read from the database: its pause, if one is under way, as stored."""
        self.forget(table.id)
        pace = self.tables[table.id] = _Pace(deals=len(table.game.deals))
        deals = pace.deals
        if table.status != PLAYING or deals < 2 or table.spec.deal_pause_s <= 0:
            return
        dealt, ready = await self.store.pause_facts(table.id, deals - 1)
        if dealt is not None and dealt + table.spec.deal_pause_s > self.now():
            self._start_pause(table, pace, deals - 1, dealt + table.spec.deal_pause_s)
            pace.ready = ready

    def _start_pause(self, table: LiveTable, pace: _Pace, deal: int, until: float) -> None:
        pace.pause_deal, pace.pause_until = deal, until
        pace.ready, pace.released, pace.shown = set(), None, ()
        if pace.timer is not None:
            pace.timer.cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        pace.timer = loop.call_later(max(0.0, until - self.now()) + 0.05, self.announce, table)

    def forget(self, table_id: str) -> None:
        pace = self.tables.pop(table_id, None)
        if pace is not None and pace.timer is not None:
            pace.timer.cancel()

    # -- what the pause and the clock say ---------------------------------------------------

    def waiting_for(self, table: LiveTable) -> list[int]:
        """The connected people not yet ready to go on, while the pause lasts. Someone who
        connects again (a reload) is waited for again if they have not said continue."""
        pace = self.observe(table)
        if (table.status != PLAYING or pace.pause_deal != len(table.game.deals) - 1
                or pace.pause_deal == 0 or self.now() >= pace.pause_until):
            return []
        movers = table.game.deal.movers
        waiting = [seat.seat for seat in table.seats
                   if seat.kind == PERSON and table.connected.get(seat.seat, False)
                   and seat.seat not in pace.ready and seat.seat not in movers]
        if waiting:
            pace.released = None
        elif pace.released is None:
            pace.released = self.now()
        return waiting

    def holding(self, table: LiveTable) -> float:
        """Seconds the deal pause still holds the computer players (0: none)."""
        return self._hold(table, self.waiting_for(table))

    def _hold(self, table: LiveTable, waiting: list[int]) -> float:
        """:meth:`holding`, ``waiting`` being :meth:`waiting_for` now."""
        if not waiting:
            return 0.0
        return max(0.0, self.tables[table.id].pause_until - self.now())

    def clock_left(self, table: LiveTable, hold: float | None = None) -> float | None:
        """Seconds left of the turn in play, for a person's turn at a table with a turn
        clock (None: no clock runs). While the deal pause holds, the clock has not started:
        the pause's seconds left and the whole turn. ``hold``: :meth:`holding` now, if
        known."""
        if table.spec.turn_s <= 0 or table.status != PLAYING:
            return None
        if table.seats[table.game.turn].kind == BOT:
            return None
        if hold is None:
            hold = self.holding(table)
        now = self.now()
        if hold > 0:
            return hold + table.spec.turn_s
        return max(0.0, self._turn_start(table) + table.spec.turn_s - now)

    def _turn_start(self, table: LiveTable) -> float:
        """When the turn in play's clock started (after the deal pause, if one held it)."""
        pace = self.tables[table.id]
        start = pace.turn_since
        if pace.pause_deal == len(table.game.deals) - 1 and pace.pause_deal:
            ended = min(pace.pause_until, pace.released or pace.pause_until)
            start = max(start, ended)
        return start

    def overrun(self, table: LiveTable, seat: int) -> float:
        """Seconds the turn in play has outlasted its clock, for ``seat``'s move at a
        table with a time bank (0 otherwise): what a move that ends the turn spends."""
        if (table.spec.bank_s <= 0 or table.spec.turn_s <= 0 or table.status != PLAYING
                or table.seats[seat].kind != PERSON or table.game.turn != seat):
            return 0.0
        if self.holding(table) > 0:
            return 0.0
        return max(0.0, self.now() - self._turn_start(table) - table.spec.turn_s)

    def banks(self, table: LiveTable) -> list[float] | None:
        """Each seat's bank left now (the seat to move's less what its turn has spent so
        far); None at a table without a bank."""
        if table.spec.bank_s <= 0 or table.spec.turn_s <= 0:
            return None
        banks = [round(bank, 1) for bank in table.banks]
        seat = table.game.turn if table.status == PLAYING else None
        if seat is not None:
            banks[seat] = round(max(0.0, table.banks[seat] - self.overrun(table, seat)), 1)
        return banks

    def time_left(self, table: LiveTable, hold: float | None = None) -> float | None:
        """Seconds until the stand-in plays the turn in play: the clock, then the bank of
        the seat to move (None: no clock runs). ``hold``: :meth:`holding` now, if known."""
        clock = self.clock_left(table, hold)
        if clock is None:
            return None
        banks = self.banks(table)
        return clock + (banks[table.game.turn] if banks else 0.0)

    def takeover_left(self, table: LiveTable) -> float:
        """Seconds until the stand-in takes over for the person to move, if they stay
        away: ``takeover_s`` less the time they have been away during this turn."""
        pace = self.observe(table)
        away = pace.away
        if pace.away_since is not None:
            away += self.now() - pace.away_since
        return max(0.0, table.spec.takeover_s - away)

    def extras(self, table: LiveTable) -> dict[str, Any]:
        """What the pacing adds to every state of the table."""
        waiting = self.waiting_for(table)
        self.tables[table.id].shown = tuple(waiting)
        hold = self._hold(table, waiting)
        clock = self.clock_left(table, hold)
        watchers = self.watchers(table)
        return {"waiting_for": waiting, "pause_left": round(hold, 1) if hold else None,
                "clock": None if clock is None else round(clock, 1),
                "bank": self.banks(table), "watchers": watchers}

    def watchers(self, table: LiveTable) -> int:
        """How many watch ``table`` (spectators' connections, in every process)."""
        return self.watching(table.id)

    # -- continue ---------------------------------------------------------------------------

    async def ready(self, table: LiveTable, seat: int, deal: int) -> bool:
        """``seat`` has read deal ``deal``'s sheet: stored and announced. False when no
        pause of that deal is under way or the seat had said so already."""
        pace = self.observe(table)
        if deal != pace.pause_deal or deal != len(table.game.deals) - 1 or seat in pace.ready:
            return False
        if not await self.store.ready(table.id, deal, seat):
            return False
        pace.ready.add(seat)
        self.announce(table)
        return True

    def heard(self, table: LiveTable, message: Ready) -> None:
        """Another process stored a seat's ``continue``."""
        pace = self.observe(table)
        if message.deal == pace.pause_deal:
            pace.ready.add(message.seat)
            self.announce(table)

    def announce(self, table: LiveTable) -> None:
        """Tell the table's clients here who is waited for, if that changed."""
        pace = self.tables.get(table.id)
        if pace is None:
            return
        waiting = tuple(self.waiting_for(table))
        if waiting == pace.shown:
            return
        pace.shown = waiting
        self.connections.broadcast(table.id, {"type": "waiting", "seq": table.seq,
                                              "deal": pace.pause_deal, **self.extras(table)})


__all__ = ["Pacing", "turn_key"]
