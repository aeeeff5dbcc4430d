"""What the serve processes of one PostgreSQL database tell each other (NOTIFY payloads):
typed messages, one encoder and one decoder.

>>> decode(encode(Changed("abc", 7)))
Changed(table='abc', seq=7, seats=False)
>>> decode('{"t": "abc", "k": "present", "p": "p1", "s": 1, "n": 2}')
Present(table='abc', process='p1', seat=1, count=2)
>>> decode('{"t": "abc", "k": "nonsense"}') is None
True
>>> decode(encode(Ready("abc", 2, 1)))
Ready(table='abc', deal=2, seat=1)
>>> decode(encode(Alive("p1")))
Alive(process='p1')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

NOTIFY_CHANNEL = "rummy500_tables"
PAYLOAD_LIMIT = 1000
"""A NOTIFY payload longer than this is not one of ours."""


@dataclass(frozen=True, slots=True)
class Changed:
    """The table's changes up to ``seq`` are stored: read them. With ``seats``, someone
    took a seat or a kept one was let go (the table may have started): read it all again."""

    table: str
    seq: int
    seats: bool = False


@dataclass(frozen=True, slots=True)
class AskPresence:
    """``process`` has just loaded the table: every other process says who is connected."""

    table: str
    process: str


@dataclass(frozen=True, slots=True)
class Present:
    """``process`` holds ``count`` connections of ``seat`` at the table."""

    table: str
    process: str
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class NextTable:
    """The table's next game (Play again) is ``next``."""

    table: str
    next: str


@dataclass(frozen=True, slots=True)
class Said:
    """A chat line (or a reaction) is stored: every client of the table hears it.
    ``line`` is its frame's fields (``n``, ``seat``, ``name``, ``text``, ``at`` and
    perhaps ``react``), short enough to travel whole (talk.py bounds them)."""

    table: str
    process: str
    """The process that stored it (it has told its own clients already)."""
    line: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Ready:
    """``seat`` has said ``continue`` after deal ``deal`` (it is stored)."""

    table: str
    deal: int
    seat: int


@dataclass(frozen=True, slots=True)
class Alive:
    """``process`` is alive (every few seconds): what it said of who is connected holds
    for a while more (:mod:`.presence`). Of no table."""

    process: str


TableMessage = Changed | AskPresence | Present | NextTable | Said | Ready
"""A message about one table (its ``table``)."""
Message = TableMessage | Alive

_KINDS: dict[type[Any], str] = {Changed: "changed", AskPresence: "ask", Present: "present",
                                NextTable: "next", Said: "said", Ready: "ready"}
LINE_FIELDS = {"n": int, "seat": int, "name": str, "text": str, "at": str, "react": str}


def encode(message: Message) -> str:
    if isinstance(message, Alive):
        return json.dumps({"k": "alive", "p": message.process}, ensure_ascii=False)
    if isinstance(message, Changed):
        body: dict[str, Any] = {"seq": message.seq}
    elif isinstance(message, AskPresence):
        body = {"p": message.process}
    elif isinstance(message, Present):
        body = {"p": message.process, "s": message.seat, "n": message.count}
    elif isinstance(message, Said):
        body = {"p": message.process, "line": message.line}
    elif isinstance(message, Ready):
        body = {"deal": message.deal, "s": message.seat}
    else:
        body = {"next": message.next}
    kind = "seats" if isinstance(message, Changed) and message.seats else _KINDS[type(message)]
    # Not escaped to ASCII: a chat line of 200 emoji stays within PAYLOAD_LIMIT characters.
    return json.dumps({"t": message.table, "k": kind, **body}, ensure_ascii=False)


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def decode(payload: str) -> Message | None:
    """The message in ``payload``, or None for anything that is not one of ours."""
    if len(payload) > PAYLOAD_LIMIT:
        return None
    try:
        data = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    if data.get("k") == "alive":
        process = data.get("p")
        return Alive(process) if isinstance(process, str) and process else None
    if not isinstance(data.get("t"), str):
        return None
    table, kind = data["t"], data.get("k")
    seq, process = _int(data.get("seq")), data.get("p")
    if kind in ("changed", "seats") and seq is not None:
        return Changed(table, seq, seats=kind == "seats")
    if kind == "ask" and isinstance(process, str):
        return AskPresence(table, process)
    if kind == "present" and isinstance(process, str):
        seat, count = _int(data.get("s")), _int(data.get("n"))
        if seat is not None and count is not None and -1 <= seat < 64 and count >= 0:
            return Present(table, process, seat, count)
        return None
    if kind == "next" and isinstance(data.get("next"), str):
        return NextTable(table, data["next"])
    if kind == "said" and isinstance(process, str):
        return _said(table, process, data.get("line"))
    if kind == "ready":
        deal, seat = _int(data.get("deal")), _int(data.get("s"))
        if deal is not None and seat is not None and 0 <= seat < 64:
            return Ready(table, deal, seat)
    return None


def _said(table: str, process: str, line: Any) -> Said | None:
    if not isinstance(line, dict) or not set(line) <= set(LINE_FIELDS):
        return None
    for key, kind in LINE_FIELDS.items():
        if key in line and not (isinstance(line[key], kind) and not isinstance(line[key], bool)):
            return None
    if not {"n", "seat", "name", "text", "at"} <= set(line):
        return None
    return Said(table, process, dict(line))


__all__ = ["NOTIFY_CHANNEL", "Alive", "AskPresence", "Changed", "Message", "NextTable",
           "Present", "Ready", "Said", "TableMessage", "decode", "encode"]
