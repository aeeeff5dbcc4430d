"""The online protocol's versions, and how a client keeps a seat's state from its frames
(docs/protocol.md). The server writes the frames (:mod:`rummy500.server.frames`); every
client in Python (:mod:`rummy500.net.client`, and through it the terminal's online seat)
reads them with :func:`apply_frame`, and the browser's table page with its own fold of
the same frames.

>>> state = {"hand": ["7h"], "history": [{"text": "a"}], "turn": 0}
>>> fold(state, {"set": {"turn": 1, "hand": ["7h", "8h"]}, "append": {"history": [{"text": "b"}]}})
{'hand': ['7h', '8h'], 'history': [{'text': 'a'}, {'text': 'b'}], 'turn': 1}
"""

from __future__ import annotations

from typing import Any

V2, V3 = 2, 3
VERSIONS = (V2, V3)
"""The versions a client may ask for in its hello: 2 (no ``"v"``) and 3."""
LATEST = V3

WAITING_FIELDS = ("waiting_for", "pause_left", "clock", "bank", "watchers")
"""What a ``waiting`` frame changes in the state."""


def fold(state: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """``state`` after a version 3 ``update`` (changed in place): each key of ``set``
    replaced by its value, the items of each key of ``append`` added at its end."""
    state.update(update.get("set") or {})
    for key, items in (update.get("append") or {}).items():
        state[key] = [*state.get(key, []), *items]
    return state


class Gap(Exception):
    """An update that does not follow the state held (a change was missed): ask for a
    ``resync``."""


def apply_frame(state: dict[str, Any], seq: int,
                frame: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The state and seq a client holds after ``frame``, from ``state`` at ``seq``.
    :class:`Gap` when a version 3 update does not follow ``seq``."""
    kind = frame.get("type")
    if kind == "welcome":  # a copy: folding leaves the frame as it came
        return dict(frame["state"]), frame["seq"]
    if kind == "update":
        if "state" in frame:  # version 2: the whole state
            return dict(frame["state"]), frame["seq"]
        if frame["seq"] != seq + 1:
            raise Gap(f"update {frame['seq']} does not follow {seq}")
        return fold(state, frame), frame["seq"]
    if not state:
        return state, seq
    if kind == "seats" and isinstance(frame.get("seats"), list):
        state["seats"] = frame["seats"]
    elif kind == "next" and isinstance(frame.get("table"), str):
        state["next"] = frame["table"]
    elif kind == "watchers" and isinstance(frame.get("watchers"), int):
        state["watchers"] = frame["watchers"]
    elif kind == "waiting":
        state.update({key: frame[key] for key in WAITING_FIELDS if key in frame})
    return state, seq


__all__ = ["LATEST", "V2", "V3", "VERSIONS", "WAITING_FIELDS", "Gap", "apply_frame", "fold"]
