"""What the clients of one table hear: each reader's state, typed, and the frames made of it.

A reader is a seat, or None for the spectators. At every change of a table, each reader
with a client in this process gets its :class:`~rummy500.session.seat_state.SeatState`
built once, and each frame is written once per reader and protocol version by the one
encoder (:func:`~rummy500.session.seat_state.encode`), then shared by that reader's
clients:

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
from typing import Any

from msgspec.structs import astuple

from ..net.protocol import V2, V3
from ..session.seat_state import SeatState, encode, plain, version2

GROWING = ("history", "deals")
"""The keys of a state whose list only grows within a deal (``history``) or a game
(``deals``): new items go in ``append``. A new deal's ``history`` goes in ``set``."""

STATE_KEYS: tuple[str, ...] = SeatState.__struct_fields__
_PLACES = range(len(STATE_KEYS))

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


def changes(before: SeatState | None, after: SeatState) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(set, append)`` of a version 3 update that turns ``before`` into ``after``
    (``before`` None: every key in ``set``)."""
    if before is None:
        return dict(zip(STATE_KEYS, astuple(after), strict=True)), {}
    changed: dict[str, Any] = {}
    grown: dict[str, Any] = {}
    olds, news = astuple(before), astuple(after)
    # The keys that differ are found in one pass (most are the same value, often the very
    # same object), then only those are looked at.
    for index in [index for index, old, new in zip(_PLACES, olds, news, strict=True)
                  if old is not new and old != new]:
        key, old, new = STATE_KEYS[index], olds[index], news[index]
        if key in GROWING and extends(old, new) and (key != "history"
                                                     or before.deal == after.deal):
            grown[key] = new[len(old):]
        else:
            changed[key] = new
    return changed, grown


def whole(state: SeatState, version: int) -> dict[str, Any]:
    """``state`` as plain data, as protocol ``version`` writes a whole state."""
    data: dict[str, Any] = plain(state)
    return version2(data) if version == V2 else data


class Frames:
    """The last state each reader of one table was sent, and the frames of each change."""

    def __init__(self) -> None:
        self.sent: dict[Reader, tuple[int, SeatState]] = {}

    def forget(self, readers: set[Reader]) -> None:
        """Drop what was sent to readers with no client left."""
        for reader in list(self.sent):
            if reader not in readers:
                del self.sent[reader]

    def welcome(self, seq: int, reader: Reader, state: SeatState, version: int,
                chat: list[dict[str, Any]]) -> bytes:
        """The welcome of a client of ``reader`` at change ``seq``: the whole state."""
        kept = self.sent.get(reader)
        if kept is None or kept[0] != seq:
            self.sent[reader] = (seq, state)
        data = whole(state, version)
        data["chat"] = chat
        frame: dict[str, Any] = {"type": "welcome", "seat": reader, "seq": seq, "state": data}
        if version != V2:
            frame["v"] = version
        return encode(frame)

    def update(self, seq: int, reader: Reader, state: SeatState, event: Any,
               versions: set[int]) -> dict[int, bytes]:
        """The update of change ``seq`` for ``reader``'s clients, by the versions they speak;
        ``state`` is the reader's state after it, ``event`` the change as it is told."""
        kept = self.sent.get(reader)
        self.sent[reader] = (seq, state)
        frames: dict[int, bytes] = {}
        if V3 in versions:
            changed, grown = changes(None if kept is None else kept[1], state)
            frames[V3] = encode({"type": "update", "seq": seq, "event": event,
                                 "set": changed, "append": grown})
        if V2 in versions:
            frames[V2] = encode({"type": "update", "seq": seq, "event": event,
                                 "state": whole(state, V2)})
        return frames


__all__ = ["GROWING", "STATE_KEYS", "Frames", "changes", "extends"]
