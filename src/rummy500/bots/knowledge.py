"""What one seat can know from its view: every card seen, and what each player did with them.

The discard pile is fanned, the table is open and every card taken from the pile
is known to all, so a careful player counts them all. :class:`Knowledge` does
that from a :class:`~rummy500.view.PlayerView` alone: the cards still unseen
(in other hands or the stock), how many copies of each face are still live,
and, from the deal's public history and who made each move, which seat took,
discarded or passed over which faces. Nothing here reads a hidden card.

>>> from rummy500 import Game
>>> game = Game(seed=3)
>>> knowledge = Knowledge(game.view(game.turn))
>>> knowledge.pool == 52 - 13 - 1
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ..cards import JOKER, JOKER_MASK, make_pack
from ..moves import DISCARD, DRAW, TAKE
from ..view import PlayerView, pack_bits
from .table_facts import TableFacts, table_facts


@dataclass(slots=True)
class SeatRecord:
    """What one seat did in public this deal (faces as bitsets, jokers at bit JOKER)."""

    discarded: int = 0
    wanted: int = 0
    """The faces it took from the pile: each take names the card it wanted most."""
    passed: int = 0
    """Top cards of the pile it left there to draw from the stock instead."""
    discards: list[int] = field(default_factory=list)


@dataclass(slots=True)
class PublicState:
    """The deal's public facts, as the view gives them."""

    records: list[SeatRecord]
    idle_turns: int
    """Turns in a row that drew no stock card and put no card on the table."""
    progress: bool
    """Whether the turn in progress has drawn from the stock or put a card down."""
    discarder: int
    """The seat that discarded last (-1 before the first discard)."""
    restocks: int
    stock_draws: int


def public_state(view: PlayerView) -> PublicState:
    """Who did what with which faces, read from the view's history and who made each move."""
    records = [SeatRecord(passed=passed) for passed in view.passed]
    draws = 0
    for move, seat in zip(view.history, view.movers, strict=True):
        kind = move.kind
        record = records[seat]
        if kind == DISCARD:
            face = move.pieces[0]
            record.discarded |= 1 << face
            record.discards.append(face)
        elif kind == TAKE:
            record.wanted |= 1 << move.pieces[0]
        elif kind == DRAW:
            draws += 1
    return PublicState(records, view.idle_turns, view.progress, view.discarder,
                       view.restocks, draws)


JOKER_SLOTS = (JOKER, JOKER + 16, JOKER + 32, JOKER + 48)
"""The card positions of jokers within one pack (every joker shows the face JOKER)."""


_BYTE_BITS = [tuple(byte >> bit & 1 for bit in range(8)) for byte in range(256)]
"""Per byte, its bits lowest first."""


def _counts(cards: int) -> list[int]:
    """Per position 0 to 63, whether ``cards`` (its first 64 bits) holds it: 0 or 1."""
    bits = _BYTE_BITS
    return [*bits[cards & 255], *bits[cards >> 8 & 255], *bits[cards >> 16 & 255],
            *bits[cards >> 24 & 255], *bits[cards >> 32 & 255], *bits[cards >> 40 & 255],
            *bits[cards >> 48 & 255], *bits[cards >> 56 & 255]]


class Knowledge:
    """Card counting for one seat: what is unseen, how many of each face are live."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.rules = view.rules
        self.players = view.players
        self.seat = view.seat
        rules = view.rules
        table = table_facts(view.melds)
        pile_count = [0] * 64
        pile_faces = 0
        pile_cards = 0
        for card in view.pile:
            pile_cards |= 1 << card
            face = JOKER if card & 15 == 15 else card & 63
            pile_count[face] += 1
            pile_faces |= 1 << face
        seen = view.hand | table.cards | pile_cards
        for cards in view.known:
            seen |= cards
        self.table: TableFacts = table
        self.unseen = unseen = pack_bits(rules.deck_count(view.players),
                                         rules.jokers_in_each_deck) & ~seen
        """Physical cards in other hands (beyond the known ones) or in the stock (what
        :meth:`PlayerView.unseen` gives)."""
        self.pool = unseen.bit_count()
        live = _counts(unseen)
        second = unseen >> 64
        if second:
            live = [one + two for one, two in zip(live, _counts(second), strict=True)]
        for joker in JOKER_SLOTS:
            live[joker] = 0
        live[JOKER] = (unseen & JOKER_MASK).bit_count()
        self.live = live
        """Per face (JOKER for jokers), the copies still unseen."""
        self.pile_count = pile_count
        """Per face, the copies in the pile."""
        self.pile_faces = pile_faces
        """The faces in the pile (JOKER's bit for a joker)."""
        self.pile_cards = pile_cards
        """The cards in the pile."""
        self._public: PublicState | None = None

    @cached_property
    def unknown(self) -> tuple[int, ...]:
        """Per seat, how many of its cards nobody else knows (worked out on first use: a
        light reckoning may never ask)."""
        view = self.view
        return tuple([max(0, size - known.bit_count())
                      for size, known in zip(view.hand_sizes, view.known, strict=True)])

    @property
    def public(self) -> PublicState:
        """The deal's public facts, gathered on first use."""
        if self._public is None:
            self._public = public_state(self.view)
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
