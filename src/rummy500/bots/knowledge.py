"""What one seat can know from its view: every card seen, and what each player did with them.

The discard pile is fanned, the table is open and every card taken from the pile
is known to all, so a careful player counts them all. :class:`Knowledge` does
that from a :class:`~rummy500.view.PlayerView` alone: the cards still unseen
(in other hands or the stock), how many copies of each face are still live,
and, replayed from the deal's public history, which seat took, discarded or
passed over which faces. Nothing here reads a hidden card.

>>> from rummy500 import Game
>>> game = Game(seed=3)
>>> knowledge = Knowledge(game.view(game.turn))
>>> knowledge.pool == 52 - 13 - 1
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from ..cards import JOKER, face_of, iter_bits, make_pack
from ..moves import DISCARD, DRAW, END, LAYOFF, MELD, PASS, RUMMY_LAYOFF, RUMMY_MELD, TAKE
from ..view import PlayerView

UNKNOWN = -1
"""The up-card of the deal in the replayed pile, until the history names it."""


@dataclass(slots=True)
class SeatRecord:
    """What one seat did in public this deal (faces as bitsets, jokers at bit JOKER)."""

    discarded: int = 0
    took: int = 0
    """Every face it took from the pile (the card it had to use and those above it)."""
    wanted: int = 0
    """The faces it took alone from the top, or took deep and so had to use."""
    passed: int = 0
    """Top cards of the pile it left there to draw from the stock instead."""
    discards: list[int] = field(default_factory=list)


@dataclass(slots=True)
class PublicState:
    """The deal's public facts, replayed from its history."""

    records: list[SeatRecord]
    up_card: int
    """The face of the deal's first up-card (UNKNOWN if the history cannot tell)."""
    idle_turns: int
    """Turns in a row that drew no stock card and put no card on the table."""
    progress: bool
    """Whether the turn in progress has drawn from the stock or put a card down."""
    discarder: int
    """The seat that discarded last (-1 before the first discard)."""
    restocks: int
    stock_draws: int


def replay_public(view: PlayerView) -> PublicState:
    """Follow the deal's moves, seat by seat, with only public cards."""
    players = view.players
    records = [SeatRecord() for _ in range(players)]
    pile: list[int] = [UNKNOWN]
    up_card = UNKNOWN
    rules = view.rules
    stock = rules.pack_size(players) - rules.cards_dealt(players) * players - 1
    turn = (view.dealer + 1) % players
    asked = -1
    discarder = -1
    idle = 0
    progress = False
    restocks = 0
    draws = 0
    for move in view.history:
        kind = move.kind
        if kind in (RUMMY_MELD, RUMMY_LAYOFF, PASS):
            if asked < 0:
                asked = (discarder + 1) % players
            if kind == PASS:
                asked = (asked + 1) % players
                continue
            for piece in move.pieces:
                face = JOKER if piece >= 64 or piece == JOKER else piece
                index = _find(pile, face)
                if pile[index] == UNKNOWN:
                    up_card = face
                del pile[index]
            records[asked].took |= _bits_of(move.pieces)
            progress = True
            continue
        if asked >= 0:
            asked = -1
        seat = turn
        record = records[seat]
        if kind == DRAW:
            if pile and pile[-1] != UNKNOWN:
                record.passed |= 1 << pile[-1]
            stock -= 1
            draws += 1
            progress = True
        elif kind == TAKE:
            face = move.pieces[0]
            index = _find(pile, face)
            if pile[index] == UNKNOWN:
                up_card = face
                pile[index] = face
            record.wanted |= 1 << face
            for taken in pile[index:]:
                if taken != UNKNOWN:
                    record.took |= 1 << taken
            del pile[index:]
        elif kind in (MELD, LAYOFF):
            progress = True
        elif kind == DISCARD:
            face = move.pieces[0]
            pile.append(face)
            record.discarded |= 1 << face
            record.discards.append(face)
            idle = 0 if progress else idle + 1
            progress = False
            discarder = seat
            turn = (seat + 1) % players
            if stock == 0 and rules.stock_exhausted == "reshuffle" and len(pile) >= 2:
                stock = len(pile) - 1
                del pile[:-1]
                restocks += 1
        elif kind == END:
            break
    if up_card == UNKNOWN and view.pile and pile and pile[0] == UNKNOWN:
        up_card = face_of(view.pile[0])
    return PublicState(records, up_card, idle, progress, discarder, restocks, draws)


def _find(pile: list[int], face: int) -> int:
    """The index of the upper copy of ``face`` in the replayed pile (the up-card at worst)."""
    for index in range(len(pile) - 1, -1, -1):
        if pile[index] == face:
            return index
    if pile and pile[0] == UNKNOWN:
        return 0
    raise ValueError("the history takes a card that is not in the pile")


def _bits_of(pieces: tuple[int, ...]) -> int:
    bits = 0
    for piece in pieces:
        bits |= 1 << (JOKER if piece >= 64 or piece == JOKER else piece)
    return bits


@cache
def pack_bits(decks: int, jokers: int) -> int:
    """Every card of the pack as one bitset."""
    bits = 0
    for card in make_pack(decks, jokers):
        bits |= 1 << card
    return bits


def unseen_cards(view: PlayerView) -> int:
    """The cards ``view``'s seat has not seen (as :meth:`PlayerView.unseen`, cached pack)."""
    seen = view.hand
    for card in view.pile:
        seen |= 1 << card
    for meld in view.melds:
        for table_card in meld.cards:
            seen |= 1 << table_card.card
    for cards in view.known:
        seen |= cards
    rules = view.rules
    return pack_bits(rules.deck_count(view.players), rules.jokers_in_each_deck) & ~seen


class Knowledge:
    """Card counting for one seat: what is unseen, how many of each face are live."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.rules = view.rules
        self.players = view.players
        self.seat = view.seat
        self.unseen = unseen_cards(view)
        """Physical cards in other hands (beyond the known ones) or in the stock."""
        self.pool = self.unseen.bit_count()
        live = [0] * 64
        for card in iter_bits(self.unseen):
            live[face_of(card)] += 1
        self.live = live
        """Per face (JOKER for jokers), the copies still unseen."""
        self.unknown = tuple(
            max(0, size - known.bit_count()) for size, known in zip(view.hand_sizes, view.known,
                                                                    strict=True)
        )
        """Per seat, how many of its cards nobody else knows."""
        pile_faces = [0] * 64
        for card in view.pile:
            pile_faces[face_of(card)] += 1
        self.pile_count = pile_faces
        self._public: PublicState | None = None

    @property
    def public(self) -> PublicState:
        """The deal's public history, replayed on first use."""
        if self._public is None:
            self._public = replay_public(self.view)
        return self._public

    @property
    def records(self) -> list[SeatRecord]:
        return self.public.records

    def share(self, seat: int) -> float:
        """The chance that one given unseen card is in ``seat``'s hand."""
        if seat == self.seat or not self.pool:
            return 0.0
        return self.unknown[seat] / self.pool

    def pack(self) -> list[int]:
        return make_pack(self.rules.deck_count(self.players), self.rules.jokers_in_each_deck)

    def opponents(self) -> list[int]:
        """The seats on the other side(s), in turn order from this seat's left."""
        rules = self.rules
        mine = rules.side_of(self.seat)
        return [
            (self.seat + step) % self.players
            for step in range(1, self.players)
            if rules.side_of((self.seat + step) % self.players) != mine
        ]

    def partners(self) -> list[int]:
        rules = self.rules
        mine = rules.side_of(self.seat)
        return [s for s in range(self.players)
                if s != self.seat and rules.side_of(s) == mine]
