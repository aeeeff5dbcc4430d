"""A game record laid open for the replay page: every position of every deal, all hands shown.

The page holds no rules, so the engine replays the record here and the page only steps
through the positions. Each step is the table after one move, told in plain words by
:mod:`rummy500.narrate` (as a spectator behind every player sees it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import face_of, face_str, iter_bits, sort_key
from ..deal import Deal
from ..game import Game
from ..melds import Meld
from ..narrate import before, card_text, fresh_deal, move_text
from ..record import RecordFormatError, ReplayError, replay
from ..tui.words import deal_sheet, outcome_words, side_label

MAX_NAME = 40


class ReplayRequestError(ValueError):
    """A replay request that is not a record (with the reason in words)."""


def card_json(card: int, face: int | None = None) -> str:
    """A card as NOTATION.md writes it: ``7h``, ``*`` or, for a declared wild joker, ``*=6h``."""
    own = face_of(card)
    shown = own if face is None else face
    if own == 15 and shown != 15:
        return "*=" + face_str(shown)
    return face_str(shown)


def melds_json(melds: Sequence[Meld]) -> list[dict[str, Any]]:
    """The table as PROTOCOL.md's ``state.melds``: each meld's cards in order, who laid each."""
    out = []
    for meld in melds:
        cards = sorted(meld.cards, key=lambda c: meld.order_key(c.face))
        out.append({"id": meld.name,
                    "cards": [card_json(c.card, c.face) for c in cards],
                    "by": [c.seat for c in cards]})
    return out


def hand_json(hand: int) -> list[str]:
    return [face_str(face_of(card)) for card in sorted(iter_bits(hand), key=sort_key)]


def position_json(deal: Deal) -> dict[str, Any]:
    """Everything on and under the table: every hand, the pile, the melds, the stock's size."""
    return {
        "turn": deal.turn,
        "phase": deal.phase,
        "hands": [hand_json(hand) for hand in deal.hands],
        "pile": [face_str(face_of(card)) for card in deal.pile],
        "stock": len(deal.stock),
        "melds": melds_json(deal.melds),
        "credit": list(deal.credit),
        "must_use": None if deal.must_use < 0 else face_str(face_of(deal.must_use)),
    }


def replay_json(data: Mapping[str, Any], names: Sequence[str] | None = None) -> dict[str, Any]:
    """The replay of a record: ``{"ok": true, ...}`` with every step, or ``{"ok": false,
    "error": ...}`` saying what is wrong with the record (and where, for an illegal move)."""
    try:
        game = replay(data)
    except RecordFormatError as error:
        return {"ok": False, "error": f"this is not a game record that can be replayed: {error}"}
    except ReplayError as error:
        return {"ok": False, "round": error.round, "move": error.move,
                "error": f"deal {error.round + 1}, move {error.move + 1} is not legal: "
                         f"{error.reason}"}
    seat_names = _names(names, game.players)
    rules = game.rules
    deals = []
    totals = [0] * rules.sides(game.players)
    for index, played in enumerate(game.deals):
        deal = fresh_deal(played)
        dealt = rules.cards_dealt(game.players)
        opening = (f"Deal {index + 1}: {seat_names[deal.dealer]} deals {dealt} cards each; "
                   f"the up-card is {card_text(deal.pile[0])}.")
        steps = [{"seat": None, "move": None, "text": opening, **position_json(deal)}]
        for move in played.moves:
            seen = before(deal)
            seat = deal.turn
            deal.play(move, check=False)
            text = move_text(seat_names[seat], seat, move, seen, deal, spectator=True)
            if deal.restocks > seen.restocks:
                text += (f". The stock is empty: the pile but its top card is shuffled into a "
                         f"new stock of {len(deal.stock)} cards")
            steps.append({"seat": seat, "move": str(move), "text": text, **position_json(deal)})
        entry: dict[str, Any] = {"number": index + 1, "dealer": deal.dealer,
                                 "totals_before": list(totals), "steps": steps, "sheet": None}
        if index < len(game.results):
            result = game.results[index]
            totals = [t + s for t, s in zip(totals, result.scores, strict=True)]
            sheet = deal_sheet(game, seat_names, index)
            entry["sheet"] = {
                "ending": sheet.ending,
                "went_out": result.went_out,
                "melded": list(result.melded),
                "in_hand": list(result.in_hand),
                "scores": list(result.scores),
                "totals": [row.total for row in sheet.rows],
                "notes": list(sheet.notes),
                "outcome": sheet.outcome,
            }
        deals.append(entry)
    return {
        "ok": True,
        "players": game.players,
        "names": seat_names,
        "rules": rules.to_record(),
        "partnership": rules.partnership,
        "sides": [side_label(rules, seat_names, side) for side in range(rules.sides(game.players))],
        "finished": game.finished,
        "winner": game.winner,
        "totals": list(game.totals),
        "outcome": _outcome(game, seat_names),
        "deals": deals,
    }


def _outcome(game: Game, names: Sequence[str]) -> str:
    if not game.results:
        return "The record stops before the first deal is over."
    text = outcome_words(game, names, game.totals)
    return text if game.finished else f"The record stops before the end. {text}"


def _names(names: Sequence[str] | None, players: int) -> list[str]:
    if names is None:
        return [f"Seat {seat}" for seat in range(players)]
    if not isinstance(names, list) or len(names) != players or not all(
        isinstance(name, str) and 0 < len(name) <= MAX_NAME for name in names
    ):
        raise ReplayRequestError(
            f"names must be a list of {players} names of 1 to {MAX_NAME} characters")
    return list(names)


def replay_request(body: Any) -> dict[str, Any]:
    """The answer to ``POST /api/replay``: a record, or ``{"record": ..., "names": [...]}``."""
    if not isinstance(body, dict):
        raise ReplayRequestError("send a game record: a JSON object with rules, players and "
                                 "rounds")
    if "record" in body:
        record, names = body["record"], body.get("names")
        if not isinstance(record, dict):
            raise ReplayRequestError("record must be a game record (a JSON object)")
        return replay_json(record, names)
    return replay_json(body)
