"""What one seat may know of a game, as the JSON ``state`` of the online protocol
(docs/protocol.md), and the public ``event`` of each change.

Everything here is built from the engine's per-seat view (:meth:`Game.view`) and
from public facts; cards are written as faces (``7h``, ``*``), never as physical
copies, so no frame tells which copy of a two-pack card anyone holds.

>>> from rummy500.game import Game
>>> game = Game(players=2, seed=1)
>>> state = seat_state(game, 0, [])
>>> len(state["hand"]), state["stock"] + sum(state["hand_sizes"]) + len(state["pile"])
(13, 52)
>>> "hand" in seat_state(game, None, [])
False
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import JOKER, face_of, face_str, iter_bits, sort_key
from ..game import Game
from ..melds import Meld
from ..moves import Move
from ..view import PlayerView

WAITING = "waiting"
"""The phase of a table whose game has not started (a person seat is still open)."""


def card_text(card: int) -> str:
    """A physical card as the face it shows (``7h``, ``*``): copies look alike."""
    return face_str(face_of(card))


def hand_texts(hand: int) -> list[str]:
    return [card_text(card) for card in sorted(iter_bits(hand), key=sort_key)]


def meld_json(meld: Meld) -> dict[str, Any]:
    """A meld as PROTOCOL.md gives it, its cards in the meld's order (a run low to high)."""
    ordered = sorted(meld.cards, key=lambda table_card: meld.order_key(table_card.face))
    cards = []
    for table_card in ordered:
        if face_of(table_card.card) == JOKER:
            cards.append("*" if table_card.face == JOKER else "*=" + face_str(table_card.face))
        else:
            cards.append(card_text(table_card.card))
    return {"id": f"m{meld.number}", "cards": cards,
            "by": [table_card.seat for table_card in ordered]}


def public_move(move: Move) -> str:
    """A move as every seat may read it (a draw never names its card: its notation has none)."""
    return str(move)


def move_event(seat: int, move: Move) -> dict[str, Any]:
    return {"seat": seat, "move": public_move(move)}


def deal_event(number: int, dealer: int) -> dict[str, Any]:
    """A new deal: ``number`` counts from 1."""
    return {"deal": number, "dealer": dealer}


def deal_sheets(game: Game) -> list[dict[str, Any]]:
    """Every finished deal, as ``rummy500 replay --json`` gives its rounds."""
    return [{"went_out": result.went_out, "melded": list(result.melded),
             "in_hand": list(result.in_hand), "scores": list(result.scores)}
            for result in game.results]


def seat_state(
    game: Game, seat: int | None, seats: Sequence[Mapping[str, Any]],
    shared: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The whole truth for ``seat`` (None: a spectator) of ``game``, with the ``seats`` list.

    A game with no deal yet is a table still waiting for people. ``shared``: an empty
    dict to give to every call for the same moment of the game, so that what every seat
    sees alike is worked out once (the states then share those lists: read them only).
    """
    players = game.players
    if not game.deals:
        state: dict[str, Any] = {
            "players": players, "seat": seat, "dealer": None, "turn": None,
            "phase": WAITING, "deal": 0, "hand_sizes": [0] * players, "stock": 0,
            "pile": [], "melds": [], "must_use": None, "credit": [0] * players,
            "totals": list(game.totals), "history": [], "deals": [],
            "over": False, "winner": None, "seats": [dict(s) for s in seats],
        }
        if seat is not None:
            state["hand"] = []
        return state
    view = game.view(0 if seat is None else seat)
    state = {
        "players": players, "seat": seat, "dealer": view.dealer,
        "turn": None if game.finished else view.turn, "phase": view.phase,
        "deal": view.deal_number + 1,
    }
    if seat is not None:
        state["hand"] = hand_texts(view.hand)
    if shared is None:
        shared = {}
    if not shared:
        shared.update(_public(view))
        shared["totals"] = list(game.totals)
        shared["deals"] = deal_sheets(game)
    state.update(shared)
    state["over"] = game.finished
    state["winner"] = game.winner
    state["seats"] = [dict(s) for s in seats]
    if seat is not None and not game.finished and view.my_turn:
        state["legal"] = [public_move(move) for move in view.legal_moves()]
    return state


def _public(view: PlayerView) -> dict[str, Any]:
    return {
        "hand_sizes": list(view.hand_sizes),
        "stock": view.stock_count,
        "pile": [card_text(card) for card in view.pile],
        "melds": [meld_json(meld) for meld in view.melds],
        "must_use": None if view.must_use < 0 else card_text(view.must_use),
        "credit": list(view.credit),
        "history": [public_move(move) for move in view.history],
    }


__all__ = ["WAITING", "card_text", "deal_event", "deal_sheets", "hand_texts", "meld_json",
           "move_event", "public_move", "seat_state"]
