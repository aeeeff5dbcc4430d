"""One seat's state of a table, typed: what the seat may know, with the deal's history and
the finished deals' sheets in words. Every face renders it: the local terminal table, the
online terminal seat (which reads it back from the protocol's JSON) and, as that JSON, the
browser.

It is the ``state`` of docs/protocol.md, key for key: each type here is a frozen
:class:`msgspec.Struct` whose fields are the protocol's keys, so the server writes it with
one encoder (:func:`encode`) and compares two states key by key (version 3's updates
name only what changed). :meth:`SeatState.to_json` gives it as plain data and
:meth:`SeatState.from_json` reads it back, saying in words what is wrong with a state of
the wrong shape (``from_json(to_json(s)) == s``). Cards are faces (``7h``, ``*``,
``*=6h`` in a meld), never physical copies.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from ..errors import BadInputError

_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder()


def encode(value: Any) -> bytes:
    """``value`` (these types, in plain data or not) as JSON: the one encoder of the protocol.
    Text that is not Unicode (a lone surrogate a client sent, echoed back in a refusal) is
    written escaped, as JSON allows."""
    try:
        return _ENCODER.encode(value)
    except UnicodeEncodeError:
        return json.dumps(msgspec.to_builtins(value)).encode("ascii")


def plain(value: Any) -> Any:
    """``value`` as plain data (dicts, lists, texts, numbers), as JSON reads it back."""
    return _DECODER.decode(_ENCODER.encode(value))


class StateFormatError(BadInputError):
    """A state that does not have the protocol's shape."""


def signed(points: int) -> str:
    """A score with its sign, as a sheet writes it: ``+35``, ``−10`` (a minus sign), ``0``."""
    return f"+{points}" if points > 0 else f"\u2212{-points}" if points < 0 else "0"


# -- reading JSON with clear errors ------------------------------------------------------------


def _get(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str,
         *, optional: bool = False) -> Any:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise StateFormatError(f"{where}: '{key}' should be {_kind_name(kind)}, not {value!r:.40}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {int: "a number", str: "a text", list: "a list", dict: "an object",
             bool: "true or false"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _ints(data: Mapping[str, Any], key: str, where: str) -> tuple[int, ...]:
    values = _get(data, key, list, where)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise StateFormatError(f"{where}: '{key}' should be a list of numbers")
    return tuple(values)


def _texts(data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    values = _get(data, key, list, where)
    if not all(isinstance(v, str) for v in values):
        raise StateFormatError(f"{where}: '{key}' should be a list of texts")
    return tuple(values)


def _objects(data: Mapping[str, Any], key: str, where: str) -> list[Mapping[str, Any]]:
    values = data.get(key) or []
    if not isinstance(values, list) or not all(isinstance(v, dict) for v in values):
        raise StateFormatError(f"{where}: '{key}' should be a list of objects")
    return values


# -- the parts ---------------------------------------------------------------------------------


class Written(msgspec.Struct, frozen=True):
    """A part of the protocol's state: its fields are the JSON's keys."""

    def to_json(self) -> dict[str, Any]:
        """The part as plain data, as version 3 writes it."""
        data: dict[str, Any] = plain(self)
        return data


class HistoryEntry(Written, frozen=True, omit_defaults=True):
    """A change of the deal in words: a seat's move (``seat``, ``move``; ``drawn`` for the
    reader's own draw), a new deal (``deal``, ``dealer``), or the person of ``seat``
    leaving the table for good (``left``)."""

    text: str
    seat: int | None = None
    move: str | None = None
    drawn: str | None = None
    deal: int | None = None
    dealer: int | None = None
    left: bool = False

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HistoryEntry:
        where = "a history entry"
        text = _get(data, "text", str, where)
        if "move" in data:
            return cls(text, _get(data, "seat", int, where), _get(data, "move", str, where),
                       _get(data, "drawn", str, where, optional=True))
        if data.get("left"):
            return cls(text, seat=_get(data, "seat", int, where), left=True)
        return cls(text, deal=_get(data, "deal", int, where),
                   dealer=_get(data, "dealer", int, where, optional=True))


LINE_KINDS = ("on_table", "doubled", "in_hand", "hands_won", "going_out", "game_bonus")
"""What a sheet line counts: points laid on the table (those of melds counted double apart,
``doubled``), points left in hand, the others' hands added to the side that went out
(Add Opponent's Hand), the going-out bonus, and the bonus for winning the game."""


class SheetLine(Written, frozen=True):
    seat: int | None
    """The seat whose cards these are; None for a side's bonus."""
    side: int
    what: str
    """One of :data:`LINE_KINDS`."""
    points: int
    text: str

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SheetLine:
        where = "a sheet line"
        return cls(_get(data, "seat", int, where, optional=True), _get(data, "side", int, where),
                   _get(data, "what", str, where), _get(data, "points", int, where),
                   _get(data, "text", str, where))


class TableMeld(Written, frozen=True):
    id: str
    cards: tuple[str, ...]
    """In the meld's order (a run low to high); a wild joker as ``*=6h``."""
    by: tuple[int, ...]
    """The seat that laid each card."""
    owner: int
    """The seat that laid the meld itself (its lay-offs may be others')."""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableMeld:
        where = "a meld"
        return cls(_get(data, "id", str, where), _texts(data, "cards", where),
                   _ints(data, "by", where), _get(data, "owner", int, where))


def sheet_summary(deal: int, ended: str, sides: Sequence[str], scores: Sequence[int]) -> str:
    """A deal's end in one line, as the log says it: how it ended, each side's score."""
    said = ", ".join(f"{name} {signed(score)}" for name, score in zip(sides, scores, strict=False))
    return f"Deal {deal} is over: {ended}. {said}."


class DealSheet(Written, frozen=True):
    """A finished deal's sheet: each side's lines add up to its score; ``totals_after``
    are the totals once the deal (and, on the last sheet, the game) is scored."""

    deal: int
    went_out: int | None
    ended: str
    """How the deal ended, in words for the reader (``Ann went out``)."""
    text: str
    """The deal's end in one line (:func:`sheet_summary`)."""
    lines: tuple[SheetLine, ...]
    scores: tuple[int, ...]
    totals_after: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    """The cards each seat held when the deal ended (shown to all then)."""
    melded: tuple[int, ...]
    in_hand: tuple[int, ...]
    standing: str
    """Who led once the deal was scored, or who won the game on its last sheet."""
    sides: tuple[str, ...] = ()
    """Each side's name, as the reader says it (``You & Cat``)."""
    last: bool = False
    """The sheet that ended the game."""
    melds: tuple[TableMeld, ...] = ()
    """The melds as they lay when the deal ended (shown on the table until the next deal)."""

    def side_lines(self, side: int) -> list[SheetLine]:
        return [line for line in self.lines if line.side == side]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DealSheet:
        where = "a deal sheet"
        hands = _get(data, "hands", list, where)
        if not all(isinstance(h, list) and all(isinstance(c, str) for c in h) for h in hands):
            raise StateFormatError(f"{where}: 'hands' should be a list of lists of cards")
        deal, ended = _get(data, "deal", int, where), _get(data, "ended", str, where)
        sides, scores = _texts(data, "sides", where), _ints(data, "scores", where)
        text = data.get("text")
        return cls(deal, _get(data, "went_out", int, where, optional=True), ended,
                   text if isinstance(text, str) else sheet_summary(deal, ended, sides, scores),
                   tuple(SheetLine.from_json(line) for line in _objects(data, "lines", where)),
                   scores, _ints(data, "totals_after", where),
                   tuple(tuple(hand) for hand in hands), _ints(data, "melded", where),
                   _ints(data, "in_hand", where), _get(data, "standing", str, where),
                   sides, bool(data.get("last", False)),
                   tuple(TableMeld.from_json(m) for m in _objects(data, "melds", where)))


class SeatInfo(Written, frozen=True):
    seat: int
    kind: str
    """``person`` or ``bot``."""
    name: str
    connected: bool = True
    open: bool = False
    bot: str | None = None
    """The computer player's name, at a computer player's seat."""
    standin: str | None = None
    """The computer player playing for a person who is away (``expert``), if one is."""
    kept: bool = False
    """An open seat kept for the person who held it at the game before (Play again)."""
    left: bool = False
    """The person of this seat left the table for good: a computer player (``bot``) plays
    it, under their name, for the rest of the game."""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatInfo:
        where = "a seat"
        return cls(_get(data, "seat", int, where), _get(data, "kind", str, where),
                   _get(data, "name", str, where), bool(data.get("connected", True)),
                   bool(data.get("open", False)), _get(data, "bot", str, where, optional=True),
                   _get(data, "standin", str, where, optional=True), bool(data.get("kept", False)),
                   bool(data.get("left", False)))


class PublicTable(Written, frozen=True):
    """What every seat sees alike at one moment of the deal."""

    hand_sizes: tuple[int, ...]
    stock: int
    pile: tuple[str, ...]
    """Bottom first."""
    melds: tuple[TableMeld, ...]
    must_use: str | None
    credit: tuple[int, ...]
    totals: tuple[int, ...]
    """Per side, before this deal (after the game on a finished game)."""


# -- the whole ---------------------------------------------------------------------------------


TABLE_KEYS = ("next", "can_undo", "waiting_for", "pause_left", "clock", "bank", "watchers")
"""The keys an online table adds to the engine's part of a state."""

ABSENT_WHEN_NULL = ("hand", "legal", "can_undo")
"""Keys a version 2 state leaves out when they are null (a spectator's hand, the moves of a
seat not to move, a spectator's undo); version 3 leaves out only a spectator's ``hand`` and
``can_undo``, which never change."""

NO_TABLE = {"next": None, "waiting_for": (), "pause_left": None, "clock": None, "bank": None,
            "watchers": 0}
"""The :data:`TABLE_KEYS` of a state that is not an online table's."""


class SeatState(PublicTable, frozen=True, kw_only=True, omit_defaults=True):
    """The whole truth for one seat (``seat`` None: a spectator, whose state has no
    ``hand`` and no ``can_undo``): every key of the protocol's ``state`` but ``chat`` (the
    welcome's alone), what every seat sees alike (:class:`PublicTable`) among them. Every
    other key is always written, null or not."""

    players: int
    seat: int | None
    dealer: int | None
    turn: int | None
    phase: str
    deal: int
    """The deal in play, from 1 (0 before the first)."""
    hand: tuple[str, ...] | None = None
    history: tuple[HistoryEntry, ...]
    deals: tuple[DealSheet, ...]
    over: bool
    winner: int | None
    seats: tuple[SeatInfo, ...]
    legal: tuple[str, ...] | None
    """Every legal move of this seat when it is to move; else null."""
    next: str | None
    """The table of the next game, once someone asked for one (online tables)."""
    can_undo: bool | None = None
    """Whether this seat may take its last move back now (online tables, seats only)."""
    waiting_for: tuple[int, ...]
    """The seats a finished deal's sheet still waits for (online tables)."""
    pause_left: float | None
    """Seconds the sheet still holds the computer players (online tables)."""
    clock: float | None
    """Seconds left on the turn clock (online tables with one)."""
    bank: tuple[float, ...] | None
    """Each seat's time bank left, in seconds (online tables with one; else null): spent
    once the turn clock has run out, the seat to move's already less what its turn has
    spent."""
    watchers: int
    """How many people watch the table (spectators' connections)."""

    @property
    def public(self) -> PublicTable:
        return self

    @property
    def names(self) -> list[str]:
        return [info.name for info in self.seats]

    @property
    def my_turn(self) -> bool:
        return self.legal is not None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatState:
        """Reads a state back (of either version; unknown keys are left aside);
        :class:`StateFormatError` says what is wrong with it."""
        if not isinstance(data, Mapping):
            raise StateFormatError("the state should be an object")
        where = "the state"
        hand = data.get("hand")
        legal = data.get("legal")
        waiting = data.get("waiting_for") or []
        if not isinstance(waiting, list) or not all(
                isinstance(seat, int) and not isinstance(seat, bool) for seat in waiting):
            raise StateFormatError(f"{where}: 'waiting_for' should be a list of numbers")
        can_undo = data.get("can_undo")
        return cls(
            players=_get(data, "players", int, where),
            seat=_get(data, "seat", int, where, optional=True),
            dealer=_get(data, "dealer", int, where, optional=True),
            turn=_get(data, "turn", int, where, optional=True),
            phase=_get(data, "phase", str, where), deal=_get(data, "deal", int, where),
            hand=None if hand is None else _texts(data, "hand", where),
            hand_sizes=_ints(data, "hand_sizes", where), stock=_get(data, "stock", int, where),
            pile=_texts(data, "pile", where),
            melds=tuple(TableMeld.from_json(m) for m in _objects(data, "melds", where)),
            must_use=_get(data, "must_use", str, where, optional=True),
            credit=_ints(data, "credit", where), totals=_ints(data, "totals", where),
            history=tuple(HistoryEntry.from_json(e) for e in _objects(data, "history", where)),
            deals=tuple(DealSheet.from_json(d) for d in _objects(data, "deals", where)),
            over=bool(data.get("over", False)),
            winner=_get(data, "winner", int, where, optional=True),
            seats=tuple(SeatInfo.from_json(s) for s in _objects(data, "seats", where)),
            legal=None if legal is None else _texts(data, "legal", where),
            next=_get(data, "next", str, where, optional=True),
            can_undo=None if can_undo is None else bool(can_undo),
            waiting_for=tuple(waiting),
            pause_left=_number(data, "pause_left", where),
            clock=_number(data, "clock", where),
            bank=_numbers(data, "bank", where),
            watchers=_count(data, "watchers", where))


def _number(data: Mapping[str, Any], key: str, where: str) -> float | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise StateFormatError(f"{where}: '{key}' should be a number, not {value!r:.40}")
    return float(value)


def _numbers(data: Mapping[str, Any], key: str, where: str) -> tuple[float, ...] | None:
    values = data.get(key)
    if values is None:
        return None
    if not isinstance(values, list) or not all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        raise StateFormatError(f"{where}: '{key}' should be a list of numbers")
    return tuple(float(v) for v in values)


def _count(data: Mapping[str, Any], key: str, where: str) -> int:
    value = data.get(key) or 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise StateFormatError(f"{where}: '{key}' should be a count, not {value!r:.40}")
    return value


def version2(data: dict[str, Any]) -> dict[str, Any]:
    """A state's plain data (:meth:`SeatState.to_json`) as version 2 of the protocol writes
    it: without the keys of :data:`ABSENT_WHEN_NULL` that are null."""
    for key in ABSENT_WHEN_NULL:
        if key in data and data[key] is None:
            del data[key]
    return data


def seat_names(seats: Sequence[SeatInfo]) -> list[str]:
    return [info.name for info in seats]


__all__ = ["ABSENT_WHEN_NULL", "LINE_KINDS", "NO_TABLE", "TABLE_KEYS", "DealSheet", "HistoryEntry",
           "PublicTable", "SeatInfo", "SeatState", "SheetLine", "StateFormatError", "TableMeld",
           "encode", "plain", "seat_names", "sheet_summary", "signed", "version2"]
