"""What a client may send: its WebSocket's origin, and each frame of docs/protocol.md,
checked field by field (or what is wrong with it, for an ``error`` frame), with the
bounds on its size and rate.

>>> parse_frame('{"type": "ping"}')
{'type': 'ping'}
>>> parse_frame('{"type": "move", "id": "a", "seq": "1", "move": "draw"}').message
'seq must be a whole number'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import msgspec

from ..net.protocol import V2, VERSIONS
from .ids import TOKEN_LIMIT

FRAME_LIMIT = 4096
"""The largest client frame, in bytes; a larger one closes the connection (1009)."""
FRAMES_PER_SECOND = 20
"""More frames than this in a second are dropped and answered ``rate_limited``."""
DROPS_BEFORE_CLOSE = 20
"""A connection that has this many frames dropped in a second keeps on: it is closed (1008)."""
CLIENT_ID_LIMIT = 64


@dataclass(frozen=True, slots=True)
class BadFrame:
    """A client frame that is not one of the protocol's: answered by an ``error`` frame."""

    code: str
    message: str


_DECODER = msgspec.json.Decoder()
"""Strict JSON (no ``NaN``, no lone surrogate, no number out of a float's range: each is
a ``ValueError``), read without Python's decoder and its calls per value."""


def parse_frame(text: str) -> dict[str, Any] | BadFrame:
    """A client frame, checked field by field, or what is wrong with it."""
    try:
        frame = _DECODER.decode(text)
    except (ValueError, RecursionError):
        return BadFrame("bad_json", "a frame is one JSON object")
    if not isinstance(frame, dict):
        return BadFrame("bad_frame", "a frame is one JSON object")
    kind = frame.get("type")
    if kind == "ping":
        return {"type": "ping"}
    if kind == "hello":
        token = frame.get("token")
        if token is not None and not (isinstance(token, str) and 0 < len(token) <= TOKEN_LIMIT):
            return BadFrame("bad_frame", "token must be a seat token or null")
        version = frame.get("v", V2)
        if version not in VERSIONS or isinstance(version, bool):
            return BadFrame("bad_frame", f"v must be a protocol version this server speaks: "
                                         f"{' or '.join(map(str, VERSIONS))}")
        return {"type": "hello", "token": token, "v": version}
    if kind == "resync":
        return {"type": "resync"}
    if kind == "move":
        client_id = frame.get("id")
        if not isinstance(client_id, str) or not 0 < len(client_id) <= CLIENT_ID_LIMIT:
            return BadFrame("bad_frame", f"id must be text of 1 to {CLIENT_ID_LIMIT} characters")
        seq = frame.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq < 2**31:
            return BadFrame("bad_frame", "seq must be a whole number")
        move = frame.get("move")
        if not isinstance(move, str):
            return BadFrame("bad_frame", "move must be text in the move notation")
        return {"type": "move", "id": client_id, "seq": seq, "move": move}
    if kind in TALK_FRAMES:
        return _talk_frame(kind, frame)
    if isinstance(kind, str) and len(kind) <= 32:
        return BadFrame("bad_frame", f"unknown frame type {kind!r}: {FRAME_TYPES}")
    return BadFrame("bad_frame", f"a frame needs a type: {FRAME_TYPES}")


TALK_FRAMES = {"chat": "text", "react": "what", "continue": "deal", "undo": None,
               "leave": None}
"""The frames of talk and pacing, and the field each carries besides its ``id``."""
FRAME_TYPES = "hello, move, resync, ping, chat, react, continue, undo or leave"


def _talk_frame(kind: str, frame: dict[str, Any]) -> dict[str, Any] | BadFrame:
    client_id = frame.get("id", "")
    if kind != "continue" and client_id == "":
        return BadFrame("bad_frame", f"id must be text of 1 to {CLIENT_ID_LIMIT} characters")
    if not isinstance(client_id, str) or len(client_id) > CLIENT_ID_LIMIT:
        return BadFrame("bad_frame", f"id must be text of 1 to {CLIENT_ID_LIMIT} characters")
    checked: dict[str, Any] = {"type": kind, "id": client_id}
    field_name = TALK_FRAMES[kind]
    if field_name is None:
        return checked
    value = frame.get(field_name)
    if field_name == "deal":
        if not isinstance(value, int) or isinstance(value, bool) or not 0 < value < 2**31:
            return BadFrame("bad_frame", "deal must be the number of the deal that ended")
    elif not isinstance(value, str):
        return BadFrame("bad_frame", f"{field_name} must be text")
    checked[field_name] = value
    return checked


def origin_allowed(origin: str | None, host: str | None) -> bool:
    """A browser's WebSocket only from the server's own pages; no Origin: not a browser."""
    if origin is None:
        return True
    if not host:
        return False
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


__all__ = ["CLIENT_ID_LIMIT", "DROPS_BEFORE_CLOSE", "FRAMES_PER_SECOND", "FRAME_LIMIT",
           "FRAME_TYPES", "TALK_FRAMES", "BadFrame", "origin_allowed", "parse_frame"]
