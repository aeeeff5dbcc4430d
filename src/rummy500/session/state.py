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
import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from ..game import Game
from ..kinds import Phase
from ..melds import Meld
from ..moves import Move
from .faces import card_text, hand_faces, table_meld
from .seat_state import (
    NO_TABLE,
    TABLE_KEYS,
    DealSheet,
    HistoryEntry,
    PublicTable,
    SeatInfo,
    SeatState,
    version2,
)
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
        tuple(map(int.bit_count, deal.hands)), len(deal.stock), tuple(map(card_text, deal.pile)),
        tuple(map(table_meld, deal.melds)),
        None if deal.must_use < 0 else card_text(deal.must_use), tuple(deal.credit),
        tuple(game.totals))


def seat_moves(game: Game, seat: int) -> tuple[Move, ...]:
    """``seat``'s legal moves now (none unless it is its turn), read off the deal as it
    lies: a seat's whole view would copy the deal's moves first."""
    deal = game.deal
    return tuple(deal.legal_moves()) if deal.turn == seat else ()


def legal_texts(game: Game, seat: int) -> tuple[str, ...]:
    """``seat``'s legal moves now, as every seat may read them."""
    return tuple(map(public_move, seat_moves(game, seat)))


class Own(NamedTuple):
    """What one reader's state holds that no other reader's does (its fields are the
    state's keys :data:`OWN_KEYS`). The
    history and the sheets are the lists :class:`TableWords` keeps: each only grows, until
    a new deal (the history) or new names (both) start new ones."""

    seat: int | None
    hand: tuple[str, ...] | None
    history: Sequence[HistoryEntry]
    deals: Sequence[DealSheet]
    legal: tuple[str, ...] | None
    can_undo: bool | None

    @property
    def event(self) -> HistoryEntry | dict[str, Any]:
        """The last change as this reader is told it (an update's ``event``)."""
        return self.history[-1] if self.history else {}


OWN_KEYS: tuple[str, ...] = Own._fields
"""The keys of a state that differ from reader to reader."""
SHARED_KEYS: tuple[str, ...] = tuple(
    key for key in SeatState.__struct_fields__ if key not in OWN_KEYS)
"""Every other key of a state: every reader of a table has them alike at one moment."""
_shared_values = operator.itemgetter(*SHARED_KEYS)


class Parts(NamedTuple):
    """One reader's state in its two parts: the values of :data:`SHARED_KEYS` in their
    order (the same tuple for every reader of one moment), and its :class:`Own`."""

    shared: tuple[Any, ...]
    own: Own

    def state(self) -> SeatState:
        own = self.own
        return SeatState(**dict(zip(SHARED_KEYS, self.shared, strict=True)), seat=own.seat,
                         hand=own.hand, history=tuple(own.history), deals=tuple(own.deals),
                         legal=own.legal, can_undo=own.can_undo)


def shared_part(game: Game, seats: Sequence[SeatInfo], public: PublicTable | None = None,
                **table: Any) -> tuple[Any, ...]:
    """What every reader's state of ``game`` holds alike now (:data:`SHARED_KEYS`' values):
    ``seats``, ``public`` (the :func:`public_table` of this moment, when already made),
    ``table``: what an online table adds (:data:`~.seat_state.TABLE_KEYS` but
    ``can_undo``). A game with no deal yet is a table still waiting for people."""
    if public is None:
        public = public_table(game)
    values = {**NO_TABLE, **table, **_public_fields(public), "players": game.players,
              "seats": tuple(seats), "over": game.finished, "winner": game.winner}
    if game.deals:
        deal = game.deal
        values.update(dealer=deal.dealer, turn=None if game.finished else deal.turn,
                      phase=deal.phase, deal=len(game.deals))
    else:
        values.update(dealer=None, turn=None, phase=WAITING, deal=0)
    shared: tuple[Any, ...] = _shared_values(values)
    return shared


def own_part(game: Game, seat: int | None, words: TableWords,
             listed: Callable[[Game, int], tuple[str, ...]] = legal_texts,
             can_undo: bool | None = None) -> Own:
    """What only ``seat`` (None: a spectator) reads of ``game`` now, its words from
    ``words``; ``listed``: :func:`legal_texts`, or what remembers them."""
    history, deals = words.history(seat), words.sheets(seat)
    if not game.deals:
        return Own(seat, None if seat is None else (), history, deals, None, can_undo)
    deal = game.deal  # a seat's whole view (which copies the deal's moves) only to list its moves
    legal = None
    if seat is not None and not game.finished and deal.turn == seat and deal.phase != Phase.OVER:
        legal = listed(game, seat)
    return Own(seat, None if seat is None else hand_faces(deal.hands[seat]), history, deals,
               legal, can_undo)


def build_state(game: Game, seat: int | None, seats: Sequence[SeatInfo], words: TableWords,
                public: PublicTable | None = None,
                listed: Callable[[Game, int], tuple[str, ...]] = legal_texts,
                **table: Any) -> SeatState:
    """The whole truth for ``seat`` (None: a spectator) of ``game``: :func:`shared_part`
    and :func:`own_part` together (``table`` may hold ``can_undo``, the seat's own)."""
    can_undo = table.pop("can_undo", None)
    return Parts(shared_part(game, seats, public, **table),
                 own_part(game, seat, words, listed, can_undo)).state()


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


__all__ = ["OWN_KEYS", "SHARED_KEYS", "WAITING", "Own", "Parts", "build_state", "card_text",
           "deal_event", "hand_faces", "legal_texts", "meld_json", "move_event", "own_part",
           "public_move", "public_table", "seat_moves", "seat_state", "shared_part", "table_meld"]
