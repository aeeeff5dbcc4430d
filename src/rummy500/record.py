"""Game records (NOTATION.md): write any game, replay any record exactly."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from . import safejson
from .cards import JOKER, CardError, face_of, face_str, parse_face
from .deal import Deal, IllegalMoveError, RecordError
from .errors import BadInputError
from .errors import RecordFormatError as RecordFormatError
from .errors import ReplayError as ReplayError
from .game import Game
from .moves import InvalidMoveError, parse_move
from .rules import Rules, RulesError, rules_from_record

# -- writing ---------------------------------------------------------------------------------


def deal_record(deal: Deal, with_dealer: bool = True) -> dict[str, Any]:
    round_data: dict[str, Any] = {}
    if with_dealer:
        round_data["dealer"] = deal.dealer
    round_data["deck"] = [face_str(face_of(card)) for card in deal.deck]
    if deal.restocks:
        round_data["restock"] = [
            [face_str(face_of(card)) for card in order]
            for order in deal.restock_orders[: deal.restocks]
        ]
    round_data["moves"] = [str(move) for move in deal.moves]
    return round_data


def game_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` so far, in the form of NOTATION.md."""
    return {
        "rules": game.rules.to_record(),
        "players": game.players,
        "rounds": [deal_record(deal) for deal in game.deals],
    }


def dumps(game: Game) -> str:
    return json.dumps(game_record(game), indent=1)


# -- reading ----------------------------------------------------------------------------------

_NOT_A_RECORD = "a record is a JSON object with rules, players and rounds"


def cards_from_faces(faces: Sequence[str], rules: Rules, players: int) -> list[int]:
    """Physical cards for a pack order written as faces (repeats take the next copy)."""
    per_deck = rules.jokers_in_each_deck
    seen: dict[int, int] = {}
    cards = []
    jokers = 0
    for text in faces:
        if not isinstance(text, str):
            raise RecordFormatError(f"{text!r} in a pack order is not a card")
        try:
            face = parse_face(text)
        except CardError as error:
            raise RecordFormatError(str(error)) from None
        if face == JOKER:
            if per_deck == 0:
                raise RecordFormatError("the pack order has a joker, but this game has none")
            copy, slot = divmod(jokers, per_deck)
            cards.append(copy * 64 + slot * 16 + 15)
            jokers += 1
        else:
            copy = seen.get(face, 0)
            seen[face] = copy + 1
            cards.append(copy * 64 + face)
    return cards


def _check_pack(cards: list[int], rules: Rules, players: int, where: str) -> None:
    from .cards import make_pack

    pack = make_pack(rules.deck_count(players), rules.jokers_in_each_deck)
    if sorted(cards) != sorted(pack):
        raise RecordFormatError(
            f"{where}: the pack order must hold the {len(pack)} cards of the pack, each once "
            f"per deck, and it holds {len(cards)} that do not match"
        )


def load(text: str | bytes) -> dict[str, Any]:
    """The record in the JSON ``text`` (refused when too large or not a record's JSON)."""
    try:
        return safejson.loads_object(text, what="the record", not_object=_NOT_A_RECORD)
    except BadInputError as error:
        raise RecordFormatError(str(error)) from None


def read(path: str | Path) -> dict[str, Any]:
    """The record in the file ``path``; one too large is refused without reading it whole."""
    try:
        data = safejson.read_bytes(path, what="the record")
    except BadInputError as error:
        raise RecordFormatError(str(error)) from None
    return load(data)


def replay(data: Mapping[str, Any]) -> Game:
    """The game a record describes, replayed move by move.

    Raises :class:`RecordFormatError` for a record that cannot be read and
    :class:`ReplayError` at its first illegal move.
    """
    if not isinstance(data, Mapping):
        raise RecordFormatError(_NOT_A_RECORD)
    try:
        rules = rules_from_record(data.get("rules", {"preset": "classic"}))
    except RulesError as error:
        raise RecordFormatError(f"rules: {error}") from None
    players = data.get("players")
    if not isinstance(players, int) or isinstance(players, bool):
        raise RecordFormatError("players must be a whole number")
    try:
        rules.check_players(players)
    except RulesError as error:
        raise RecordFormatError(str(error)) from None
    rounds = data.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise RecordFormatError("rounds must be a list with at least one round")
    first = rounds[0]
    if not isinstance(first, dict) or type(first.get("dealer")) is not int:
        raise RecordFormatError("the first round must name its dealer")
    dealer = first["dealer"]
    if not 0 <= dealer < players:
        raise RecordFormatError(f"the dealer must be a seat from 0 to {players - 1}")
    game = Game(rules, players, dealer=dealer, auto_deal=False, rng=random.Random(0))
    for r, round_data in enumerate(rounds):
        _replay_round(game, r, round_data, last=r == len(rounds) - 1)
    return game


def _replay_round(game: Game, r: int, round_data: Any, last: bool) -> None:
    if not isinstance(round_data, dict):
        raise RecordFormatError(f"round {r} is not an object")
    if game.finished:
        raise ReplayError(r, 0, "the game was already over before this round")
    rules, players = game.rules, game.players
    deck_faces = round_data.get("deck")
    moves = round_data.get("moves", [])
    restock = round_data.get("restock", [])
    dealer = round_data.get("dealer", game.next_dealer())
    if not isinstance(deck_faces, list):
        raise RecordFormatError(f"round {r} needs its deck: the pack in dealing order")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordFormatError(f"round {r}: moves must be a list of move texts")
    if not isinstance(restock, list) or not all(isinstance(o, list) for o in restock):
        raise RecordFormatError(f"round {r}: restock must be a list of card lists")
    if type(dealer) is not int or not 0 <= dealer < players:
        raise RecordFormatError(f"round {r}: the dealer must be a seat from 0 to {players - 1}")
    if dealer != game.next_dealer():
        raise ReplayError(r, 0, f"the deal passes to the left: seat {game.next_dealer()} "
                                f"deals round {r}, not seat {dealer}")
    pack_size = rules.pack_size(players)
    if len(deck_faces) != pack_size:
        raise RecordFormatError(f"round {r}: the pack order must hold the {pack_size} cards "
                                f"of the pack, and it holds {len(deck_faces):,}")
    if any(len(order) > pack_size for order in restock):
        raise RecordFormatError(f"round {r}: a restock order holds more cards than the pack")
    deck = cards_from_faces(deck_faces, rules, players)
    _check_pack(deck, rules, players, f"round {r}")
    orders = [cards_from_faces(order, rules, players) for order in restock]
    deal = game.start_deal(deck, orders, dealer)
    deal.set_restocks(orders, None)  # a reshuffle must come from the record, never be invented
    for i, text in enumerate(moves):
        if deal.over:
            raise ReplayError(r, i, "the deal is already over")
        try:
            move = parse_move(text)
        except InvalidMoveError as error:
            raise ReplayError(r, i, str(error)) from None
        reason = deal.why_illegal(move)
        if reason is not None:
            raise ReplayError(r, i, reason)
        try:
            game.play(move, check=False)
        except RecordError as error:
            raise ReplayError(r, i, str(error)) from None
    if not last and not deal.over:
        raise ReplayError(r, len(moves), "the round stops before its deal is over, "
                                         "yet another round follows")
    if deal.restocks < len(orders):
        raise ReplayError(r, len(moves), f"the record gives {len(orders)} restock order(s), "
                                         f"but the stock was reshuffled {deal.restocks} time(s)")
    deal.set_restocks((), game.rng)  # the game may go on from here: later reshuffles are random


def replay_summary(game: Game) -> dict[str, Any]:
    """The ``replay --json`` answer for a legal record."""
    return {
        "ok": True,
        "finished": game.finished,
        "winner": game.winner,
        "totals": list(game.totals),
        "rounds": [
            {
                "went_out": result.went_out,
                "melded": list(result.melded),
                "in_hand": list(result.in_hand),
                "scores": list(result.scores),
            }
            for result in game.results
        ],
    }


__all__ = [
    "IllegalMoveError",
    "RecordFormatError",
    "ReplayError",
    "dumps",
    "game_record",
    "load",
    "read",
    "replay",
    "replay_summary",
]
