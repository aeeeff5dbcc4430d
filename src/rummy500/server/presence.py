"""Who is connected to which seat, across every serve process of one database.

Each process counts its own connections per table and seat, and hears the others'
counts (:class:`~rummy500.server.messages.Present`). A seat is connected when any
process holds a connection of it.

What another process said holds only while that process is alive: each process says so
every :data:`HEARTBEAT_S` (:class:`~rummy500.server.messages.Alive`), and anything it
says renews its lease. A process not heard from for :data:`LEASE_S` (killed, frozen, cut
off from the database) is taken for gone: its connections count no more, so its people
are away and the stand-in plays for them. Should it speak again, the others ask it (and
everyone) again who is connected. Only a process heard saying it is alive can lapse:
one of a version before heartbeats (in a rolling upgrade) is believed as before.
"""

from __future__ import annotations

import time
from collections import OrderedDict, defaultdict
from collections.abc import Callable

HEARTBEAT_S = 5.0
"""How often a process says it is alive (and looks for lapsed leases)."""
LEASE_S = 15.0
"""How long what a process said holds without a word from it: three heartbeats."""
LAPSED_KEPT = 1000
"""Processes remembered as lapsed (so that their return is noticed)."""
WATCHING = -1
"""The seat the spectators' connections are counted under (how many watch a table)."""


class Presence:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.now = clock
        self._local: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self._remote: dict[str, dict[int, dict[str, int]]] = defaultdict(
            lambda: defaultdict(dict))
        self._heard_at: dict[str, float] = {}
        """When each other process was last heard from (its lease runs from then)."""
        self._beating: set[str] = set()
        """Processes heard saying they are alive: only theirs lapse (a process of a version
        before heartbeats, in a rolling upgrade, holds what it said as before)."""
        self._lapsed: OrderedDict[str, None] = OrderedDict()

    def arrive(self, table_id: str, seat: int) -> bool:
        """One more connection of ``seat`` here; True if it is this process's first."""
        counts = self._local[table_id]
        counts[seat] += 1
        return counts[seat] == 1

    def depart(self, table_id: str, seat: int) -> bool:
        """One connection of ``seat`` fewer here; True if it was this process's last."""
        counts = self._local.get(table_id)
        if counts is None or counts.get(seat, 0) <= 0:
            return False
        counts[seat] -= 1
        if counts[seat]:
            return False
        del counts[seat]
        if not counts:
            del self._local[table_id]
        return True

    def local(self, table_id: str, seat: int) -> int:
        return self._local.get(table_id, {}).get(seat, 0)

    def local_seats(self, table_id: str) -> dict[int, int]:
        return dict(self._local.get(table_id, {}))

    def heard(self, table_id: str, process: str, seat: int, count: int) -> None:
        """Another process holds ``count`` connections of ``seat`` (its lease renewed)."""
        self.alive(process)
        seats = self._remote[table_id]
        if count:
            seats[seat][process] = count
        else:
            seats[seat].pop(process, None)

    def alive(self, process: str, *, heartbeat: bool = False) -> bool:
        """``process`` said something (``heartbeat``: that it is alive): its lease runs
        again from now. True if it had lapsed (what it holds is unknown here: ask again)."""
        self._heard_at[process] = self.now()
        if heartbeat:
            self._beating.add(process)
        if process not in self._lapsed:
            return False
        del self._lapsed[process]
        return True

    def expire(self) -> list[tuple[str, int]]:
        """Forget what the processes whose lease lapsed said: the (table, seat) pairs whose
        connections they held."""
        now = self.now()
        gone = {process for process in self._beating if now - self._heard_at[process] > LEASE_S}
        if not gone:
            return []
        for process in gone:
            del self._heard_at[process]
            self._beating.discard(process)
            self._lapsed[process] = None
        while len(self._lapsed) > LAPSED_KEPT:
            self._lapsed.popitem(last=False)
        touched = []
        for table_id, seats in self._remote.items():
            for seat, counts in seats.items():
                held = [counts.pop(process, 0) for process in gone]
                if any(held):
                    touched.append((table_id, seat))
        return touched

    def connected(self, table_id: str, seat: int) -> bool:
        if self.local(table_id, seat) > 0:
            return True
        remote = self._remote.get(table_id, {}).get(seat, {})
        return any(count > 0 for count in remote.values())

    def watching(self, table_id: str) -> int:
        """How many spectators' connections every process holds to the table."""
        remote = self._remote.get(table_id, {}).get(WATCHING, {})
        return self.local(table_id, WATCHING) + sum(remote.values())

    def forget_others(self, table_id: str) -> None:
        """Forget what other processes said of the table (they are asked again)."""
        self._remote.pop(table_id, None)

    def forget_remote(self, table_id: str) -> None:
        """What other processes said of the table (it left this process's memory)."""
        if table_id not in self._local:
            self._remote.pop(table_id, None)


__all__ = ["HEARTBEAT_S", "LEASE_S", "WATCHING", "Presence"]
