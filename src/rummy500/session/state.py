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

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..game import Game
from ..kinds import Phase
from ..melds import Meld
from ..moves import Move
from .faces import card_text, hand_faces, table_meld
from .seat_state import NO_TABLE, TABLE_KEYS, PublicTable, SeatInfo, SeatState, version2
from .table_words import TableWords

WAITING = "waiting"
"""The phase of a table whose game has not started (a person seat is still open)."""


def meld_json(meld: Meld) -> dict[str, Any]:
    return table_meld(meld).to_json()


@functools.lru_cache(maxsize=16384)
def public_move(move: Move) -> str:
    """A move as every seat may read it (a draw never names its card: its notation has none);
    each written once (the same moves are legal again and again)."""
    return str(move)


def move_event(seat: int, move: Move) -> dict[str, Any]:
    return {"seat": seat, "move": public_move(move)}


def deal_event(number: int, dealer: int) -> dict[str, Any]:
    """A new deal: ``number`` counts from 1."""
    return {"deal": number, "dealer": dealer}


def public_table(game: Game) -> PublicTable:
    """What every seat sees alike of ``game`` now (a game with no deal: an empty table)."""
    if not game.deals:
        players = game.players
        return PublicTable((0,) * players, 0, (), (), None, (0,) * players, tuple(game.totals))
    deal = game.deal  # read as it lies: a seat's whole view copies the deal's moves
    return PublicTable(
        tuple(hand.bit_count() for hand in deal.hands), len(deal.stock),
        tuple(card_text(card) for card in deal.pile),
        tuple(table_meld(meld) for meld in deal.melds),
        None if deal.must_use < 0 else card_text(deal.must_use), tuple(deal.credit),
        tuple(game.totals))


def legal_texts(game: Game, seat: int) -> tuple[str, ...]:
    """``seat``'s legal moves now, as every seat may read them."""
    return tuple(public_move(move) for move in game.view(seat).legal_moves())


def build_state(game: Game, seat: int | None, seats: Sequence[SeatInfo], words: TableWords,
                public: PublicTable | None = None,
                listed: Callable[[Game, int], tuple[str, ...]] = legal_texts,
                **table: Any) -> SeatState:
    """The whole truth for ``seat`` (None: a spectator) of ``game``, with the ``seats``, the
    words of the deal and of the finished deals from ``words``. ``public``: the
    :func:`public_table` of this moment, when already made for another seat; ``listed``:
    :func:`legal_texts`, or what remembers them; ``table``: what an online table adds
    (:data:`~.seat_state.TABLE_KEYS`).

    A game with no deal yet is a table still waiting for people.
    """
    if public is None:
        public = public_table(game)
    table = {**NO_TABLE, **table}
    history, deals = tuple(words.history(seat)), tuple(words.sheets(seat))
    if not game.deals:
        return SeatState(
            players=game.players, seat=seat, dealer=None, turn=None, phase=WAITING, deal=0,
            hand=None if seat is None else (), **_public_fields(public), history=history,
            deals=deals, over=False, winner=None, seats=tuple(seats), legal=None, **table)
    deal = game.deal  # a seat's whole view (which copies the deal's moves) only to list its moves
    legal = None
    if seat is not None and not game.finished and deal.turn == seat and deal.phase != Phase.OVER:
        legal = listed(game, seat)
    return SeatState(
        players=game.players, seat=seat, dealer=deal.dealer,
        turn=None if game.finished else deal.turn, phase=deal.phase,
        deal=len(game.deals), hand=None if seat is None else hand_faces(deal.hands[seat]),
        **_public_fields(public), history=history, deals=deals, over=game.finished,
        winner=game.winner, seats=tuple(seats), legal=legal, **table)


def _public_fields(public: PublicTable) -> dict[str, Any]:
    return {"hand_sizes": public.hand_sizes, "stock": public.stock, "pile": public.pile,
            "melds": public.melds, "must_use": public.must_use, "credit": public.credit,
            "totals": public.totals}


def seat_state(game: Game, seat: int | None, seats: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``seat``'s state of ``game`` as version 2 of the protocol writes it, without what an
    online table adds (:data:`~.seat_state.TABLE_KEYS`), its words made from the game's
    record (the seats' names from ``seats``)."""
    infos = [SeatInfo.from_json(entry) for entry in seats]
    names = [info.name for info in infos] or [f"Seat {n + 1}" for n in range(game.players)]
    data = version2(build_state(game, seat, infos, TableWords.of_game(game, names)).to_json())
    return {key: value for key, value in data.items() if key not in TABLE_KEYS}


__all__ = ["WAITING", "build_state", "card_text", "deal_event", "hand_faces", "legal_texts",
           "meld_json", "move_event", "public_move", "public_table", "seat_state", "table_meld"]
