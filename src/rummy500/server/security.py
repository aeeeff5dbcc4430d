"""The server's guards: random ids and tokens, token hashing, client frame checks, the rate
limit and the origin check.

>>> len(new_token()) >= 22 and new_token() != new_token()
True
>>> parse_frame('{"type": "ping"}')
{'type': 'ping'}
>>> parse_frame('{"type": "move", "id": "a", "seq": "1", "move": "draw"}').message
'seq must be a whole number'
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..errors import NotJSONError

TOKEN_BYTES = 32
"""Seat tokens carry 256 random bits."""
TABLE_ID_BYTES = 18
"""Table ids carry 144 random bits (the id is the invitation)."""

FRAME_LIMIT = 4096
"""The largest client frame, in bytes; a larger one closes the connection (1009)."""
FRAMES_PER_SECOND = 20
"""More frames than this in a second are dropped and answered ``rate_limited``."""
DROPS_BEFORE_CLOSE = 20
"""A connection that has this many frames dropped in a second keeps on: it is closed (1008)."""

CLIENT_ID_LIMIT = 64
NAME_LIMIT = 24
TOKEN_LIMIT = 128
_ID_FORM = re.compile(r"[A-Za-z0-9_-]{1,64}")
_TOKEN_FORM = re.compile(rf"[A-Za-z0-9_-]{{1,{TOKEN_LIMIT}}}")


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_table_id() -> str:
    return secrets.token_urlsafe(TABLE_ID_BYTES)


def valid_id(table_id: str) -> bool:
    """Whether ``table_id`` has the form of a table id (random URL-safe text)."""
    return _ID_FORM.fullmatch(table_id) is not None


def valid_token(token: object) -> bool:
    """Whether ``token`` has the form of a seat token (random URL-safe text)."""
    return isinstance(token, str) and _TOKEN_FORM.fullmatch(token) is not None


def token_hash(token: str) -> str:
    """What the database keeps of a token. The token is 256 random bits, so a fast hash is
    as strong as a slow one here: no guessing can go through the space."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class BadName(ValueError):
    """A player name that cannot be used."""


UNPRINTABLE = ("Cc", "Cf", "Co", "Cs", "Cn")
"""Unicode categories people's words may not hold: control characters, format characters
(the bidi overrides that turn text around among them), private use, surrogates, unassigned."""


def unprintable(ch: str) -> bool:
    return unicodedata.category(ch) in UNPRINTABLE


def printable_text(value: str) -> str:
    """``value`` without its :data:`UNPRINTABLE` characters, its spaces run together and
    trimmed (chat lines: what cannot be shown is dropped rather than refused).

    >>> printable_text("  hi\u202e there\x07 ")
    'hi there'
    """
    return " ".join("".join(ch for ch in value if not unprintable(ch)).split())


def clean_name(value: Any) -> str:
    """A person's name as given: text of 1 to 24 printable characters, trimmed."""
    if not isinstance(value, str):
        raise BadName("name must be text")
    name = " ".join(value.split())
    if not name:
        raise BadName("name must not be empty")
    if len(name) > NAME_LIMIT:
        raise BadName(f"name must be at most {NAME_LIMIT} characters")
    if any(unprintable(ch) for ch in name):
        raise BadName("name must hold printable characters only")
    return name


@dataclass(frozen=True, slots=True)
class BadFrame:
    """A client frame that is not one of the protocol's: answered by an ``error`` frame."""

    code: str
    message: str


def _no_constants(text: str) -> Any:
    raise NotJSONError(f"{text} is not JSON")


def parse_frame(text: str) -> dict[str, Any] | BadFrame:
    """A client frame, checked field by field, or what is wrong with it."""
    try:
        frame = json.loads(text, parse_constant=_no_constants)
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
        return {"type": "hello", "token": token}
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


TALK_FRAMES = {"chat": "text", "react": "what", "continue": "deal", "undo": None}
"""The frames of talk and pacing, and the field each carries besides its ``id``."""
FRAME_TYPES = "hello, move, ping, chat, react, continue or undo"


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


class RateLimit:
    """At most ``per_second`` frames in each second of a connection's life."""

    def __init__(self, per_second: int = FRAMES_PER_SECOND,
                 drops_before_close: int = DROPS_BEFORE_CLOSE) -> None:
        self.per_second = per_second
        self.drops_before_close = drops_before_close
        self.window = 0.0
        self.count = 0
        self.dropped = 0

    def check(self, now: float | None = None) -> str:
        """``ok``, ``drop`` (answer rate_limited) or ``close`` (the client keeps on)."""
        now = time.monotonic() if now is None else now
        if now - self.window >= 1.0:
            self.window, self.count, self.dropped = now, 0, 0
        self.count += 1
        if self.count <= self.per_second:
            return "ok"
        self.dropped += 1
        return "close" if self.dropped > self.drops_before_close else "drop"


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


__all__ = ["FRAMES_PER_SECOND", "FRAME_LIMIT", "TOKEN_LIMIT", "UNPRINTABLE", "BadFrame",
           "BadName", "RateLimit", "clean_name", "new_table_id", "new_token", "origin_allowed",
           "parse_frame", "printable_text", "token_hash", "unprintable", "valid_id",
           "valid_token"]
