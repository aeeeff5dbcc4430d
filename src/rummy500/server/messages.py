"""What the serve processes of one PostgreSQL database tell each other (NOTIFY payloads):
typed messages, one encoder and one decoder.

>>> decode(encode(Changed("abc", 7)))
Changed(table='abc', seq=7)
>>> decode('{"t": "abc", "k": "present", "p": "p1", "s": 1, "n": 2}')
Present(table='abc', process='p1', seat=1, count=2)
>>> decode('{"t": "abc", "k": "nonsense"}') is None
True
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
    """The table's changes up to ``seq`` are stored: read them."""

    table: str
    seq: int


@dataclass(frozen=True, slots=True)
class SeatsChanged:
    """Someone took a seat (the table may have started: its changes up to ``seq``)."""

    table: str
    seq: int


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


Message = Changed | SeatsChanged | AskPresence | Present | NextTable

_KINDS: dict[type[Any], str] = {Changed: "changed", SeatsChanged: "seats", AskPresence: "ask",
                                Present: "present", NextTable: "next"}


def encode(message: Message) -> str:
    if isinstance(message, Changed | SeatsChanged):
        body: dict[str, Any] = {"seq": message.seq}
    elif isinstance(message, AskPresence):
        body = {"p": message.process}
    elif isinstance(message, Present):
        body = {"p": message.process, "s": message.seat, "n": message.count}
    else:
        body = {"next": message.next}
    return json.dumps({"t": message.table, "k": _KINDS[type(message)], **body})


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
    if not isinstance(data, dict) or not isinstance(data.get("t"), str):
        return None
    table, kind = data["t"], data.get("k")
    seq, process = _int(data.get("seq")), data.get("p")
    if kind == "changed" and seq is not None:
        return Changed(table, seq)
    if kind == "seats" and seq is not None:
        return SeatsChanged(table, seq)
    if kind == "ask" and isinstance(process, str):
        return AskPresence(table, process)
    if kind == "present" and isinstance(process, str):
        seat, count = _int(data.get("s")), _int(data.get("n"))
        if seat is not None and count is not None and 0 <= seat < 64 and count >= 0:
            return Present(table, process, seat, count)
        return None
    if kind == "next" and isinstance(data.get("next"), str):
        return NextTable(table, data["next"])
    return None


__all__ = ["NOTIFY_CHANNEL", "AskPresence", "Changed", "Message", "NextTable", "Present",
           "SeatsChanged", "decode", "encode"]
