"""What the clients of one table hear: each reader's state, typed, and the frames made of it.

A reader is a seat, or None for the spectators. At every change of a table, each reader
with a client in this process gets its state built once, in two parts
(:class:`~rummy500.session.state.Parts`): what every reader holds alike, made once for the
change and compared with the last once, and what is the reader's own. Each frame is
written once per reader and protocol version by the one encoder
(:func:`~rummy500.session.seat_state.encode`), then shared by that reader's clients:

- version 3 (a hello with ``"v": 3``): the update names only what changed since the
  reader's last state (``set``: keys whose value changed, whole; ``append``: the new items
  of ``history`` and ``deals`` when they only grew), so its size does not grow with the game;
- version 2 (a hello without ``"v"``): the whole state, as before.

The last state sent to each reader is kept, so that the next update can be compared with
it; a reader with none kept (its first client came after a table was read again) gets
every key in ``set``, which folds to the same state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ..net.protocol import V2, V3
from ..session.seat_state import SeatState, encode, plain, version2
from ..session.state import OWN_KEYS, SHARED_KEYS, Parts

GROWING = ("history", "deals")
"""The keys of a state whose list only grows within a deal (``history``) or a game
(``deals``): new items go in ``append``. A new deal's ``history`` goes in ``set``."""

STATE_KEYS: tuple[str, ...] = SeatState.__struct_fields__
_DEAL = SHARED_KEYS.index("deal")
_SINGLE = tuple(index for index, key in enumerate(OWN_KEYS) if key not in GROWING)
"""The places in :class:`~rummy500.session.state.Own` of the reader's keys compared whole."""

Reader = int | None


def extends(before: Sequence[Any], after: Sequence[Any]) -> bool:
    """Whether ``after`` is ``before`` with items added at its end. The entries of a deal's
    history and sheets are made once and kept, so the same object at the same place is
    the common case, and equal items are compared only when it is not."""
    count = len(before)
    if len(after) < count:
        return False
    return count == 0 or (after[count - 1] is before[count - 1] and after[0] is before[0]) \
        or tuple(after[:count]) == tuple(before)


def added(before: Sequence[Any], count: int, after: Sequence[Any]) -> Sequence[Any] | None:
    """What ``after`` adds to the first ``count`` items of ``before`` (the reader was sent
    those); None if it does not only add to them. ``after`` is mostly the very list
    ``before`` was, grown since."""
    if after is before:
        return after[count:] if len(after) >= count else None
    return after[count:] if extends(before[:count], after) else None


class Sent(NamedTuple):
    """What a reader was sent last: the change, its state's parts, and how many items of
    its growing lists (which may have grown since)."""

    seq: int
    parts: Parts
    history: int
    deals: int

    @classmethod
    def of(cls, seq: int, parts: Parts) -> Sent:
        return cls(seq, parts, len(parts.own.history), len(parts.own.deals))


def whole(state: SeatState, version: int) -> dict[str, Any]:
    """``state`` as plain data, as protocol ``version`` writes a whole state."""
    data: dict[str, Any] = plain(state)
    return version2(data) if version == V2 else data


class Frames:
    """The last state each reader of one table was sent, and the frames of each change."""

    def __init__(self) -> None:
        self.sent: dict[Reader, Sent] = {}
        self._shared: tuple[tuple[Any, ...], tuple[Any, ...], dict[str, Any]] | None = None
        """The last comparison of two shared parts, and its outcome: every reader of a
        change compares the same two."""

    def forget(self, readers: set[Reader]) -> None:
        """Drop what was sent to readers with no client left."""
        for reader in list(self.sent):
            if reader not in readers:
                del self.sent[reader]

    def welcome(self, seq: int, reader: Reader, parts: Parts, version: int,
                chat: list[dict[str, Any]]) -> bytes:
        """The welcome of a client of ``reader`` at change ``seq``: the whole state."""
        kept = self.sent.get(reader)
        if kept is None or kept.seq != seq:
            self.sent[reader] = Sent.of(seq, parts)
        data = whole(parts.state(), version)
        data["chat"] = chat
        frame: dict[str, Any] = {"type": "welcome", "seat": reader, "seq": seq, "state": data}
        if version != V2:
            frame["v"] = version
        return encode(frame)

    def update(self, seq: int, reader: Reader, parts: Parts, event: Any,
               versions: set[int]) -> dict[int, bytes]:
        """The update of change ``seq`` for ``reader``'s clients, by the versions they speak;
        ``parts`` are the reader's state after it, ``event`` the change as it is told."""
        kept = self.sent.get(reader)
        self.sent[reader] = Sent.of(seq, parts)
        frames: dict[int, bytes] = {}
        if V3 in versions:
            changed, grown = self.changes(kept, parts)
            frames[V3] = encode({"type": "update", "seq": seq, "event": event,
                                 "set": changed, "append": grown})
        if V2 in versions:
            frames[V2] = encode({"type": "update", "seq": seq, "event": event,
                                 "state": whole(parts.state(), V2)})
        return frames

    def changes(self, kept: Sent | None, parts: Parts) -> tuple[dict[str, Any], dict[str, Any]]:
        """``(set, append)`` of a version 3 update that turns what was ``kept`` into
        ``parts`` (nothing kept: the whole state in ``set``)."""
        if kept is None:
            return whole(parts.state(), V3), {}
        shared = self._shared_changes(kept.parts.shared, parts.shared)
        mine: dict[str, Any] = {}
        grown: dict[str, Any] = {}
        before, after = kept.parts.own, parts.own
        for index in _SINGLE:
            old, new = before[index], after[index]
            if old is not new and old != new:
                mine[OWN_KEYS[index]] = new
        history = added(before.history, kept.history, after.history)
        if history is None or kept.parts.shared[_DEAL] != parts.shared[_DEAL]:
            mine["history"] = tuple(after.history)
        elif history:
            grown["history"] = tuple(history)
        deals = added(before.deals, kept.deals, after.deals)
        if deals is None:
            mine["deals"] = tuple(after.deals)
        elif deals:
            grown["deals"] = tuple(deals)
        # The shared keys' dict is every reader's of the change: not changed, only read.
        return ({**shared, **mine} if mine else shared), grown

    def _shared_changes(self, before: tuple[Any, ...],
                        after: tuple[Any, ...]) -> dict[str, Any]:
        last = self._shared
        if last is not None and last[0] is before and last[1] is after:
            return last[2]
        # Most values are the same as before, often the very same object.
        changed = {SHARED_KEYS[index]: new
                   for index, (old, new) in enumerate(zip(before, after, strict=True))
                   if old is not new and old != new}
        self._shared = (before, after, changed)
        return changed


__all__ = ["GROWING", "STATE_KEYS", "Frames", "Sent", "added", "extends"]
