"""One seat's state of a table, typed: what the seat may know, with the deal's history and
the finished deals' sheets in words. Every face renders it: the local terminal table, the
online terminal seat (which reads it back from the protocol's JSON) and, as that JSON, the
browser.

It is the ``state`` of docs/protocol.md: :meth:`SeatState.to_json` writes it and
:meth:`SeatState.from_json` reads it back (``from_json(to_json(s)) == s``). Cards are
faces (``7h``, ``*``, ``*=6h`` in a meld), never physical copies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import BadInputError


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


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """A change of the deal in words: a seat's move (``seat``, ``move``; ``drawn`` for the
    reader's own draw), or a new deal (``deal``, ``dealer``)."""

    text: str
    seat: int | None = None
    move: str | None = None
    drawn: str | None = None
    deal: int | None = None
    dealer: int | None = None

    def to_json(self) -> dict[str, Any]:
        if self.move is None:
            return {"deal": self.deal, "dealer": self.dealer, "text": self.text}
        entry: dict[str, Any] = {"seat": self.seat, "move": self.move, "text": self.text}
        if self.drawn is not None:
            entry["drawn"] = self.drawn
        return entry

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HistoryEntry:
        where = "a history entry"
        text = _get(data, "text", str, where)
        if "move" in data:
            return cls(text, _get(data, "seat", int, where), _get(data, "move", str, where),
                       _get(data, "drawn", str, where, optional=True))
        return cls(text, deal=_get(data, "deal", int, where),
                   dealer=_get(data, "dealer", int, where, optional=True))


LINE_KINDS = ("on_table", "doubled", "in_hand", "hands_won", "going_out", "game_bonus")
"""What a sheet line counts: points laid on the table (those of melds counted double apart,
``doubled``), points left in hand, the others' hands added to the side that went out
(Add Opponent's Hand), the going-out bonus, and the bonus for winning the game."""


@dataclass(frozen=True, slots=True)
class SheetLine:
    seat: int | None
    """The seat whose cards these are; None for a side's bonus."""
    side: int
    what: str
    """One of :data:`LINE_KINDS`."""
    points: int
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "side": self.side, "what": self.what, "points": self.points,
                "text": self.text}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SheetLine:
        where = "a sheet line"
        return cls(_get(data, "seat", int, where, optional=True), _get(data, "side", int, where),
                   _get(data, "what", str, where), _get(data, "points", int, where),
                   _get(data, "text", str, where))


@dataclass(frozen=True, slots=True)
class DealSheet:
    """A finished deal's sheet: each side's lines add up to its score; ``totals_after``
    are the totals once the deal (and, on the last sheet, the game) is scored."""

    deal: int
    went_out: int | None
    ended: str
    """How the deal ended, in words for the reader (``Ann went out``)."""
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

    @property
    def text(self) -> str:
        """The deal's end in one line, as the log says it: how it ended, each side's score."""
        scores = ", ".join(f"{name} {signed(score)}"
                           for name, score in zip(self.sides, self.scores, strict=False))
        return f"Deal {self.deal} is over: {self.ended}. {scores}."

    def side_lines(self, side: int) -> list[SheetLine]:
        return [line for line in self.lines if line.side == side]

    def to_json(self) -> dict[str, Any]:
        return {"deal": self.deal, "went_out": self.went_out, "ended": self.ended,
                "text": self.text, "lines": [line.to_json() for line in self.lines],
                "scores": list(self.scores), "totals_after": list(self.totals_after),
                "hands": [list(hand) for hand in self.hands], "melded": list(self.melded),
                "in_hand": list(self.in_hand), "standing": self.standing,
                "sides": list(self.sides), "last": self.last}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DealSheet:
        where = "a deal sheet"
        hands = _get(data, "hands", list, where)
        if not all(isinstance(h, list) and all(isinstance(c, str) for c in h) for h in hands):
            raise StateFormatError(f"{where}: 'hands' should be a list of lists of cards")
        return cls(_get(data, "deal", int, where),
                   _get(data, "went_out", int, where, optional=True),
                   _get(data, "ended", str, where),
                   tuple(SheetLine.from_json(line) for line in _objects(data, "lines", where)),
                   _ints(data, "scores", where), _ints(data, "totals_after", where),
                   tuple(tuple(hand) for hand in hands), _ints(data, "melded", where),
                   _ints(data, "in_hand", where), _get(data, "standing", str, where),
                   _texts(data, "sides", where), bool(data.get("last", False)))


@dataclass(frozen=True, slots=True)
class TableMeld:
    id: str
    cards: tuple[str, ...]
    """In the meld's order (a run low to high); a wild joker as ``*=6h``."""
    by: tuple[int, ...]
    """The seat that laid each card."""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "cards": list(self.cards), "by": list(self.by)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableMeld:
        where = "a meld"
        return cls(_get(data, "id", str, where), _texts(data, "cards", where),
                   _ints(data, "by", where))


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    kind: str
    """``person`` or ``bot``."""
    name: str
    connected: bool = True
    open: bool = False
    bot: str | None = None
    standin: str | None = None
    kept: bool = False

    def to_json(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"seat": self.seat, "kind": self.kind, "name": self.name,
                                 "connected": self.connected, "open": self.open}
        if self.bot is not None:
            entry["bot"] = self.bot
        if self.standin is not None:
            entry["standin"] = self.standin
        if self.kept:
            entry["kept"] = True
        return entry

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatInfo:
        where = "a seat"
        return cls(_get(data, "seat", int, where), _get(data, "kind", str, where),
                   _get(data, "name", str, where), bool(data.get("connected", True)),
                   bool(data.get("open", False)), _get(data, "bot", str, where, optional=True),
                   _get(data, "standin", str, where, optional=True), bool(data.get("kept", False)))


@dataclass(frozen=True, slots=True)
class PublicTable:
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

    def to_json(self) -> dict[str, Any]:
        return {"hand_sizes": list(self.hand_sizes), "stock": self.stock, "pile": list(self.pile),
                "melds": [meld.to_json() for meld in self.melds], "must_use": self.must_use,
                "credit": list(self.credit), "totals": list(self.totals)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PublicTable:
        where = "the state"
        return cls(_ints(data, "hand_sizes", where), _get(data, "stock", int, where),
                   _texts(data, "pile", where),
                   tuple(TableMeld.from_json(m) for m in _objects(data, "melds", where)),
                   _get(data, "must_use", str, where, optional=True),
                   _ints(data, "credit", where), _ints(data, "totals", where))


# -- the whole ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatState:
    """The whole truth for one seat (``seat`` None: a spectator, who has no hand)."""

    players: int
    seat: int | None
    dealer: int | None
    turn: int | None
    phase: str
    deal: int
    """The deal in play, from 1 (0 before the first)."""
    public: PublicTable
    hand: tuple[str, ...] | None
    legal: tuple[str, ...] | None
    """Every legal move of this seat, only when it is to move."""
    history: tuple[HistoryEntry, ...]
    deals: tuple[DealSheet, ...]
    over: bool
    winner: int | None
    seats: tuple[SeatInfo, ...]
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Fields this model does not know (a newer server's): kept, and written back."""

    @property
    def names(self) -> list[str]:
        return [info.name for info in self.seats]

    @property
    def my_turn(self) -> bool:
        return self.legal is not None

    def to_json(self, *, public: Mapping[str, Any] | None = None,
                words: bool = True) -> dict[str, Any]:
        """The protocol's JSON. ``public``: that part already written; ``words=False``:
        without ``history`` and ``deals`` (for a server that writes them once for many
        states and adds them itself)."""
        state: dict[str, Any] = {
            "players": self.players, "seat": self.seat, "dealer": self.dealer,
            "turn": self.turn, "phase": self.phase, "deal": self.deal}
        if self.hand is not None:
            state["hand"] = list(self.hand)
        state.update(self.public.to_json() if public is None else public)
        if words:
            state["history"] = [entry.to_json() for entry in self.history]
            state["deals"] = [sheet.to_json() for sheet in self.deals]
        state["over"], state["winner"] = self.over, self.winner
        state["seats"] = [info.to_json() for info in self.seats]
        if self.legal is not None:
            state["legal"] = list(self.legal)
        state.update(self.extra)
        return state

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatState:
        """Reads a state back; :class:`StateFormatError` says what is wrong with it."""
        if not isinstance(data, Mapping):
            raise StateFormatError("the state should be an object")
        where = "the state"
        hand = data.get("hand")
        legal = data.get("legal")
        known = {"players", "seat", "dealer", "turn", "phase", "deal", "hand", "hand_sizes",
                 "stock", "pile", "melds", "must_use", "credit", "totals", "history", "deals",
                 "over", "winner", "seats", "legal"}
        return cls(
            _get(data, "players", int, where), _get(data, "seat", int, where, optional=True),
            _get(data, "dealer", int, where, optional=True),
            _get(data, "turn", int, where, optional=True), _get(data, "phase", str, where),
            _get(data, "deal", int, where), PublicTable.from_json(data),
            None if hand is None else _texts(data, "hand", where),
            None if legal is None else _texts(data, "legal", where),
            tuple(HistoryEntry.from_json(e) for e in _objects(data, "history", where)),
            tuple(DealSheet.from_json(d) for d in _objects(data, "deals", where)),
            bool(data.get("over", False)), _get(data, "winner", int, where, optional=True),
            tuple(SeatInfo.from_json(s) for s in _objects(data, "seats", where)),
            {key: value for key, value in data.items() if key not in known})


def seat_names(seats: Sequence[SeatInfo]) -> list[str]:
    return [info.name for info in seats]


__all__ = ["LINE_KINDS", "DealSheet", "HistoryEntry", "PublicTable", "SeatInfo", "SeatState",
           "SheetLine", "StateFormatError", "TableMeld", "seat_names", "signed"]
