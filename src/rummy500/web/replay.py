"""A game record laid open for the replay page: every position of every deal, all hands shown.

The page holds no rules, so the engine replays the record here and the page only steps
through the positions. Each step is the table after one move, told in plain words by
:mod:`rummy500.narrate` (as a spectator behind every player sees it); each finished deal
comes with its sheet, line by line, as every table shows it
(:func:`rummy500.session.sheets.deal_sheet`, read by nobody's seat).

:func:`answer_request` turns the body of ``POST /api/replay`` into the bytes of its answer.
It runs in a worker process (:mod:`.replay_worker`), so every bound is checked here, from
the cheapest to the dearest: the request's form and names, the number of deals and of
moves, then the answer's size as it is written (each step is serialized as it is made,
and the replay stops as soon as the answer would pass :data:`MAX_ANSWER_BYTES`).
"""

from __future__ import annotations

import gzip
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from .. import safejson
from ..deal import Deal
from ..errors import BadInputError
from ..game import Game
from ..narrate import before, fresh_deal, move_text, restocked
from ..narrate import card_text as pretty_card
from ..record import RecordFormatError, ReplayError, replay
from ..server.cleaning import BadName, clean_name
from ..session.seat_state import DealSheet, TableMeld, encode
from ..session.sheets import deal_sheet
from ..session.state import card_text, hand_faces, table_meld
from ..session.words import side_label

MAX_ANSWER_BYTES = 8 * 1024 * 1024
"""The largest answer (JSON before compression). A step is 500 to 900 bytes, so this is some
10,000 moves: a game of 500 is a few hundred; 60 deals of eight computer players, 4,000."""

MAX_MOVES = 20_000
"""More moves than this are refused before any replaying: their answer could not fit."""

GZIP_LEVEL = 6
"""The positions repeat one another: compressed, an answer is some 25 times smaller."""


@dataclass(frozen=True, slots=True)
class ReplayAnswer:
    """What ``POST /api/replay`` answers: the status and the JSON bytes (gzipped or not)."""

    status: int
    body: bytes
    gzipped: bool = False
    code: str = "ok"
    """``ok``, or the refusal's error code (for the server's metrics)."""

    @classmethod
    def refusal(cls, status: int, code: str, message: str) -> ReplayAnswer:
        return cls(status, encode({"error": code, "message": message}), code=code)


class Refused(Exception):
    """A request refused before or while replaying, with its status and error code."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


class Step(msgspec.Struct, frozen=True):
    """The table after one move (or the deal's opening), every hand shown: written as the
    table's state writes each part (:mod:`rummy500.session.state`)."""

    seat: int | None
    move: str | None
    text: str
    turn: int
    phase: str
    hands: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...]
    stock: int
    melds: tuple[TableMeld, ...]
    credit: tuple[int, ...]
    must_use: str | None


class DealReplay(msgspec.Struct, frozen=True):
    number: int
    dealer: int
    totals_before: tuple[int, ...]
    sheet: DealSheet | None
    """Each sheet says only what was known when its deal ended: the game's result is on
    the last one alone."""
    steps: tuple[msgspec.Raw, ...]
    """Each step as it was written (and counted against the bound)."""


class Replay(msgspec.Struct, frozen=True):
    ok: bool
    players: int
    names: tuple[str, ...]
    rules: dict[str, Any]
    partnership: bool
    sides: tuple[str, ...]
    finished: bool
    winner: int | None
    totals: tuple[int, ...]
    outcome: str
    deals: tuple[msgspec.Raw, ...]


def step(deal: Deal, seat: int | None, move: str | None, text: str) -> Step:
    """Everything on and under the table: every hand, the pile, the melds, the stock's size."""
    return Step(seat, move, text, deal.turn, deal.phase,
                tuple(hand_faces(hand) for hand in deal.hands),
                tuple(card_text(card) for card in deal.pile), len(deal.stock),
                tuple(table_meld(meld) for meld in deal.melds), tuple(deal.credit),
                None if deal.must_use < 0 else card_text(deal.must_use))


def answer_request(body: bytes, max_deals: int, gzip_ok: bool = False) -> ReplayAnswer:
    """The answer to ``POST /api/replay`` with ``body``: a record, or ``{"record": ...,
    "names": [...]}``. Every step of every deal (``{"ok": true, ...}``, compressed when
    ``gzip_ok``), or a refusal saying what is wrong: 400 for a request that is no record's,
    422 for a record that cannot be replayed or is too long to show."""
    try:
        record, names = _parse_request(body, max_deals)
        text = replay_text(record, names)
    except Refused as refusal:
        return ReplayAnswer.refusal(refusal.status, refusal.code, str(refusal))
    data = text.encode("utf-8")
    if gzip_ok:
        return ReplayAnswer(200, gzip.compress(data, GZIP_LEVEL, mtime=0), gzipped=True)
    return ReplayAnswer(200, data)


def _parse_request(body: bytes, max_deals: int) -> tuple[Mapping[str, Any], list[str] | None]:
    try:
        data = safejson.loads(body, what="the request", max_bytes=max(len(body), 1))
    except BadInputError as error:
        raise Refused(400, "bad_json", str(error)) from None
    if not isinstance(data, dict):
        raise Refused(400, "bad_request", "send a game record: a JSON object with rules, "
                                          "players and rounds")
    record, names = data, None
    if "record" in data:
        record, names = data["record"], data.get("names")
        if not isinstance(record, dict):
            raise Refused(400, "bad_request", "record must be a game record (a JSON object)")
    cleaned = None if names is None else _clean_names(names, record.get("players"))
    rounds = record.get("rounds")
    if isinstance(rounds, list):
        if len(rounds) > max_deals:
            raise Refused(422, "too_many_deals",
                          f"this record has {len(rounds):,} deals; a replay shows at most "
                          f"{max_deals:,}")
        moves = sum(len(r["moves"]) for r in rounds
                    if isinstance(r, dict) and isinstance(r.get("moves"), list))
        if moves > MAX_MOVES:
            raise Refused(422, "too_long", f"this record has {moves:,} moves; a replay shows "
                                           f"at most {MAX_MOVES:,}")
    return record, cleaned


def _clean_names(names: Any, players: Any) -> list[str]:
    """Names as player names are taken (:func:`~rummy500.server.cleaning.clean_name`)."""
    count = f"{players} names" if type(players) is int else "names"
    if not isinstance(names, list) or (type(players) is int and len(names) != players):
        raise Refused(400, "bad_request", f"names must be a list of {count}, one a seat")
    cleaned = []
    for seat, name in enumerate(names):
        try:
            cleaned.append(clean_name(name))
        except BadName as error:
            raise Refused(400, "bad_name", f"seat {seat}: {error}") from None
    return cleaned


def replay_text(data: Mapping[str, Any], names: Sequence[str] | None = None, *,
                max_bytes: int = MAX_ANSWER_BYTES) -> str:
    """The replay of a record as JSON text: ``{"ok": true, ...}`` with every step (see
    docs/web.md). Raises :class:`Refused` (422) for a record that cannot be replayed, and
    for one whose answer would be longer than ``max_bytes``: it stops writing there."""
    try:
        game = replay(data)
    except RecordFormatError as error:
        raise Refused(422, "bad_record",
                      f"this is not a game record that can be replayed: {error}") from None
    except ReplayError as error:
        raise Refused(422, "bad_record", f"deal {error.round + 1}, move {error.move + 1} is "
                                         f"not legal: {error.reason}") from None
    seat_names = (list(names) if names is not None
                  else [f"Seat {seat + 1}" for seat in range(game.players)])
    writer = _Writer(max_bytes)
    deals = []
    totals = [0] * game.rules.sides(game.players)
    for index in range(len(game.deals)):
        sheet = deal_sheet(game, seat_names, index, None) if index < len(game.results) else None
        deals.append(_deal(game, seat_names, index, totals, sheet, writer))
        if sheet is not None:
            totals = list(sheet.totals_after)
    rules = game.rules
    head = Replay(
        True, game.players, tuple(seat_names), rules.to_record(), rules.partnership,
        tuple(side_label(rules, seat_names, side) for side in range(rules.sides(game.players))),
        game.finished, game.winner, tuple(game.totals), _outcome(game, seat_names), ())
    writer.add(head)  # the head's own part: the deals are counted already
    return encode(msgspec.structs.replace(head, deals=tuple(deals))).decode("utf-8")


class _Writer:
    """Writes each part once (the one encoder) and refuses to pass the bound."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.size = 0

    def add(self, value: Any) -> bytes:
        text = encode(value)
        self.size += len(text.decode("utf-8")) + 1  # characters, as the bound is said
        if self.size > self.max_bytes:
            raise Refused(422, "too_long",
                          f"the replay of this record would be larger than "
                          f"{self.max_bytes // (1024 * 1024)} MiB; send fewer deals")
        return text

    def raw(self, value: Any) -> msgspec.Raw:
        return msgspec.Raw(self.add(value))


def _deal(game: Game, seat_names: Sequence[str], index: int, totals_before: list[int],
          sheet: DealSheet | None, writer: _Writer) -> msgspec.Raw:
    played = game.deals[index]
    rules = game.rules
    deal = fresh_deal(played)
    dealt = rules.cards_dealt(game.players)
    opening = (f"Deal {index + 1}: {seat_names[deal.dealer]} deals {dealt} cards each; "
               f"the up-card is {pretty_card(deal.pile[0])}.")
    steps = [writer.raw(step(deal, None, None, opening))]
    for move in played.moves:
        seen = before(deal)
        seat = deal.turn
        deal.play(move, check=False)
        text = move_text(seat_names[seat], seat, move, seen, deal, spectator=True)
        restock = restocked(seen, deal)
        if restock is not None:
            text += ". " + restock
        steps.append(writer.raw(step(deal, seat, str(move), text)))
    entry = DealReplay(index + 1, deal.dealer, tuple(totals_before), sheet, ())
    writer.add(entry)  # the entry's own part: its steps are counted already
    return msgspec.Raw(encode(msgspec.structs.replace(entry, steps=tuple(steps))))


def _outcome(game: Game, names: Sequence[str]) -> str:
    if not game.results:
        return "The record stops before the first deal is over."
    text = deal_sheet(game, names, len(game.results) - 1, None).standing
    return text if game.finished else f"The record stops before the end. {text}"
