"""Who is connected to which seat, across every serve process of one database.

Each process counts its own connections per table and seat, and hears the others'
counts (:class:`~rummy500.server.messages.Present`). A seat is connected when any
process holds a connection of it.
"""

from __future__ import annotations

from collections import defaultdict


class Presence:
    def __init__(self) -> None:
        self._local: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self._remote: dict[str, dict[int, dict[str, int]]] = defaultdict(
            lambda: defaultdict(dict))

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
        """Another process holds ``count`` connections of ``seat``."""
        seats = self._remote[table_id]
        if count:
            seats[seat][process] = count
        else:
            seats[seat].pop(process, None)

    def connected(self, table_id: str, seat: int) -> bool:
        if self.local(table_id, seat) > 0:
            return True
        remote = self._remote.get(table_id, {}).get(seat, {})
        return any(count > 0 for count in remote.values())

    def forget_others(self, table_id: str) -> None:
        """Forget what other processes said of the table (they are asked again)."""
        self._remote.pop(table_id, None)

    def forget_remote(self, table_id: str) -> None:
        """What other processes said of the table (it left this process's memory)."""
        if table_id not in self._local:
            self._remote.pop(table_id, None)


__all__ = ["Presence"]
