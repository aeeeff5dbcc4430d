"""The score pad's file: a game played with real cards, read and checked field by field.

A pad (format ``rummy500-pad``, version 1) gives the rules (a preset and options), the
players in seat order and, for each deal, the dealer, who went out, the melds and
lay-offs on the table by seat and the cards left in each hand, or a seat's points as a
number. :func:`read_pad` and :func:`load_pad` give a :class:`Pad`; what each deal scores is
:mod:`rummy500.pad_score`'s (the engine's own scoring). Every refusal is a
:class:`~rummy500.errors.PadError` that says where (which deal, which seat) and why.

>>> pad = load_pad('{"format": "rummy500-pad", "version": 1, "rules": {"preset": "classic"},'
...                ' "players": ["Ann", "Bob"], "deals": []}')
>>> pad.players, pad.rules.preset
(('Ann', 'Bob'), 'classic')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import safejson
from .cards import parse_face
from .errors import BadInputError, PadError
from .moves import parse_piece
from .rules import Rules, rules_from_record

PAD_FORMAT = "rummy500-pad"
PAD_VERSION = 1
MAX_PAD_BYTES = 1024 * 1024
"""The largest pad read (a game of fifty deals of eight players is under 100 kB)."""
MAX_NAME = 40
"""The longest player name."""
MAX_POINTS = 100_000
"""The most points (either way) a seat may be given for a deal."""

_TOP_FIELDS = frozenset({"format", "version", "rules", "players", "deals"})
_DEAL_FIELDS = frozenset({"dealer", "went_out", "melds", "layoffs", "hands", "points"})


@dataclass(frozen=True, slots=True)
class PadMeld:
    """A meld as laid in one move: by ``seat``, its pieces as :mod:`rummy500.melds` reads
    them (faces, ``DECLARED + face`` for a wild joker, ``JOKER`` for a Persian one)."""

    seat: int
    pieces: tuple[int, ...]
    text: str


@dataclass(frozen=True, slots=True)
class PadLayoff:
    """Cards laid off by ``seat`` onto meld ``on`` (from 1), each a piece."""

    seat: int
    pieces: tuple[int, ...]
    on: int
    text: str


@dataclass(frozen=True, slots=True)
class PadDeal:
    number: int
    """The deal's number, from 1."""
    dealer: int
    went_out: int | None
    melds: tuple[PadMeld, ...]
    layoffs: tuple[PadLayoff, ...]
    hands: tuple[tuple[int, ...], ...]
    """The faces left in each hand (JOKER for a joker)."""
    points: tuple[int | None, ...]
    """A seat's points given as a number, else None."""


@dataclass(frozen=True, slots=True)
class Pad:
    rules: Rules
    players: tuple[str, ...]
    deals: tuple[PadDeal, ...]

    def seat_name(self, seat: int) -> str:
        return f"{self.players[seat]} (seat {seat})"


def read_pad(path: str | Path) -> Pad:
    """The pad in the file ``path``; refused beyond :data:`MAX_PAD_BYTES`."""
    try:
        data = safejson.read(path, what=f"the pad {path}", max_bytes=MAX_PAD_BYTES)
    except BadInputError as error:
        raise PadError(str(error)) from None
    return pad_from_json(data)


def load_pad(text: str | bytes) -> Pad:
    """The pad in the JSON ``text``."""
    try:
        data = safejson.loads(text, what="the pad", max_bytes=MAX_PAD_BYTES)
    except BadInputError as error:
        raise PadError(str(error)) from None
    return pad_from_json(data)


def pad_from_json(data: Any) -> Pad:
    """The pad in the JSON value ``data``, checked field by field (not yet scored)."""
    if not isinstance(data, dict):
        raise PadError("a pad is a JSON object with format, version, rules, players and deals")
    _no_other_fields(data, _TOP_FIELDS, "the pad")
    if data.get("format") != PAD_FORMAT:
        raise PadError(f"the format must be {PAD_FORMAT!r}, not {data.get('format')!r}")
    if data.get("version") != PAD_VERSION or isinstance(data.get("version"), bool):
        raise PadError(f"this is version {PAD_VERSION} of the pad's file, not "
                       f"{data.get('version')!r}")
    rules = _rules(data.get("rules"))
    players = _players(data.get("players"), rules)
    deals = data.get("deals", [])
    if not isinstance(deals, list):
        raise PadError("deals must be a list, one entry per deal in the order played")
    reader = _DealReader(rules, players)
    return Pad(rules, players, tuple(reader.deal(entry, number)
                                     for number, entry in enumerate(deals, 1)))


def _no_other_fields(data: Mapping[str, Any], known: frozenset[str], where: str) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise PadError(f"{where}: unknown field {unknown[0]!r}; the fields are "
                       f"{', '.join(sorted(known))}")


def _rules(data: Any) -> Rules:
    if not isinstance(data, dict):
        raise PadError('rules must be an object: {"preset": "classic", "options": {...}}')
    _no_other_fields(data, frozenset({"preset", "options"}), "rules")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise PadError("rules: options must be an object of option names and values")
    if "preset" in options:
        raise PadError("rules: the preset is given beside the options, not among them")
    try:
        return rules_from_record({"preset": data.get("preset", "classic"), **options})
    except ValueError as error:
        raise PadError(f"rules: {error}") from None


def _players(data: Any, rules: Rules) -> tuple[str, ...]:
    if not isinstance(data, list) or not all(isinstance(name, str) for name in data):
        raise PadError("players must be a list of names in seat order")
    for seat, name in enumerate(data):
        if not name.strip() or len(name) > MAX_NAME:
            raise PadError(f"players: seat {seat}'s name must be 1 to {MAX_NAME} characters")
    try:
        rules.check_players(len(data))
    except ValueError as error:
        raise PadError(f"players: {error}") from None
    return tuple(data)


def _seat(value: Any, players: int, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise PadError(f"{where}: {value!r} is not a seat (the seats are 0 to {players - 1})")
    return value


class _DealReader:
    """Reads one deal's entry of the pad, saying which deal and seat a refusal is about."""

    def __init__(self, rules: Rules, players: tuple[str, ...]) -> None:
        self.rules = rules
        self.players = players

    def name(self, seat: int) -> str:
        return f"{self.players[seat]} (seat {seat})"

    def deal(self, entry: Any, number: int) -> PadDeal:
        where = f"deal {number}"
        if not isinstance(entry, dict):
            raise PadError(f"{where}: a deal is an object with dealer, went_out, melds, "
                           "layoffs, hands and points")
        _no_other_fields(entry, _DEAL_FIELDS, where)
        count = len(self.players)
        dealer = _seat(entry.get("dealer"), count, f"{where}, dealer")
        went_out = entry.get("went_out")
        if went_out is not None:
            went_out = _seat(went_out, count, f"{where}, went_out")
        points = self.points(entry.get("points"), where)
        melds = tuple(self.meld(item, f"{where}, meld {k}")
                      for k, item in enumerate(self.listed(entry, "melds", where), 1))
        layoffs = tuple(self.layoff(item, f"{where}, lay-off {k}", len(melds))
                        for k, item in enumerate(self.listed(entry, "layoffs", where), 1))
        hands = self.hands(entry.get("hands"), points, where)
        for seat, given in enumerate(points):
            if given is None:
                continue
            laid = [m.text for m in melds if m.seat == seat] + [
                lay.text for lay in layoffs if lay.seat == seat]
            if laid:
                raise PadError(f"{where}: {self.name(seat)} is given as {given} points, so "
                               f"has no cards on the table, but the pad gives {laid[0]}")
        if went_out is not None and hands[went_out]:
            raise PadError(f"{where}: {self.name(went_out)} went out, so holds no cards, but "
                           "the pad gives a hand of "
                           f"{_text(entry.get('hands'), went_out)}")
        return PadDeal(number, dealer, went_out, melds, layoffs, hands, points)

    def listed(self, entry: Mapping[str, Any], field: str, where: str) -> list[Any]:
        items = entry.get(field, [])
        if not isinstance(items, list):
            raise PadError(f"{where}: {field} must be a list")
        return items

    def points(self, value: Any, where: str) -> tuple[int | None, ...]:
        count = len(self.players)
        if value is None:
            return (None,) * count
        if not isinstance(value, list) or len(value) != count:
            raise PadError(f"{where}: points are per seat, {count} of them (null where the "
                           "cards are given)")
        for seat, given in enumerate(value):
            if given is None:
                continue
            if not isinstance(given, int) or isinstance(given, bool) or abs(given) > MAX_POINTS:
                raise PadError(f"{where}: {self.name(seat)}'s points must be a whole number "
                               f"from {-MAX_POINTS:,} to {MAX_POINTS:,} or null, "
                               f"not {given!r}")
        return tuple(value)

    def cards(self, item: Mapping[str, Any], where: str) -> tuple[tuple[int, ...], str]:
        text = item.get("cards")
        if not isinstance(text, str) or not text.split():
            raise PadError(f"{where}: cards must be text of cards, like \"7h 7d 7s\"")
        try:
            return tuple(parse_piece(token) for token in text.split()), text
        except ValueError as error:
            raise PadError(f"{where}: {error}") from None

    def meld(self, item: Any, where: str) -> PadMeld:
        if not isinstance(item, dict):
            raise PadError(f'{where}: a meld is {{"seat": s, "cards": "7h 7d 7s"}}')
        _no_other_fields(item, frozenset({"seat", "cards"}), where)
        seat = _seat(item.get("seat"), len(self.players), f"{where}, seat")
        pieces, text = self.cards(item, f"{where} by {self.name(seat)}")
        return PadMeld(seat, pieces, text)

    def layoff(self, item: Any, where: str, melds: int) -> PadLayoff:
        if not isinstance(item, dict):
            raise PadError(f'{where}: a lay-off is {{"seat": s, "cards": "7c", "on": k}}')
        _no_other_fields(item, frozenset({"seat", "cards", "on"}), where)
        seat = _seat(item.get("seat"), len(self.players), f"{where}, seat")
        on = item.get("on")
        if not isinstance(on, int) or isinstance(on, bool) or not 1 <= on <= melds:
            raise PadError(f"{where} by {self.name(seat)}: there is no meld {on!r} to lay off "
                           f"onto (the deal has {melds} meld{'s' if melds != 1 else ''}, "
                           "counted from 1)")
        pieces, text = self.cards(item, f"{where} by {self.name(seat)} on meld {on}")
        return PadLayoff(seat, pieces, on, text)

    def hands(self, value: Any, points: Sequence[int | None],
              where: str) -> tuple[tuple[int, ...], ...]:
        count = len(self.players)
        if not isinstance(value, list) or len(value) != count:
            given = len(value) if isinstance(value, list) else "no list of"
            raise PadError(f"{where}: hands are per seat, {count} of them (\"\" for none), "
                           f"and the pad gives {given} hands")
        hands = []
        for seat, text in enumerate(value):
            if text is None:
                text = ""
            if not isinstance(text, str):
                raise PadError(f"{where}: {self.name(seat)}'s hand must be text of cards")
            if text.split() and points[seat] is not None:
                raise PadError(f"{where}: {self.name(seat)} is given as {points[seat]} points, "
                               f"so has no hand, but the pad gives {text!r}")
            try:
                faces = tuple(parse_face(token) for token in text.split())
            except ValueError as error:
                raise PadError(f"{where}, {self.name(seat)}'s hand: {error}") from None
            hands.append(faces)
        return tuple(hands)


def _text(hands: Any, seat: int) -> str:
    return repr(hands[seat]) if isinstance(hands, list) else "?"


__all__ = ["MAX_PAD_BYTES", "PAD_FORMAT", "PAD_VERSION", "Pad", "PadDeal",
           "PadLayoff", "PadMeld", "load_pad", "pad_from_json", "read_pad"]
