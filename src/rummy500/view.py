"""What one seat may see: its own hand and everything public, never another hand or the stock.

A :class:`PlayerView` is assembled field by field from public facts and the
seat's own cards; nothing secret is copied in and then hidden. Bots, front ends
and the server work from views only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .cards import Cards, face_of, iter_bits, make_pack
from .deal import Deal
from .errors import BadInputError, NotYourTurnError
from .kinds import Phase
from .legal import Position, legal_moves, taken_face, why_illegal
from .melds import Meld
from .moves import Move, parse_move
from .rules import Rules


@cache
def pack_bits(decks: int, jokers: int) -> int:
    """Every card of the pack as one bitset (remembered: asked for every bot decision)."""
    bits = 0
    for card in make_pack(decks, jokers):
        bits |= 1 << card
    return bits


@dataclass(frozen=True, slots=True)
class PlayerView:
    rules: Rules
    players: int
    seat: int
    """The seat this view belongs to."""
    dealer: int
    turn: int
    """The seat the game waits for."""
    phase: Phase
    """'draw', 'play', 'rummy' or 'over'."""
    hand: int
    """This seat's cards (a bitset of cards)."""
    hand_sizes: tuple[int, ...]
    stock_count: int
    pile: tuple[int, ...]
    """The discard pile, bottom first: every card is visible."""
    melds: tuple[Meld, ...]
    """The table: every meld, each card with the seat that laid it."""
    known: tuple[int, ...]
    """Per seat, the cards it took from the pile and still holds (public knowledge)."""
    must_use: int
    """The card the player to move took from deep in the pile and must use, or -1."""
    credit: tuple[int, ...]
    """Points each seat has on the table this deal."""
    totals: tuple[int, ...]
    """Running totals per side before this deal."""
    deal_number: int
    history: tuple[Move, ...]
    """This deal's moves so far (public: a draw does not say which card)."""
    movers: tuple[int, ...]
    """The seat that made each move of ``history``."""
    discarder: int
    """The seat that discarded last (-1 before the first discard): it may not call rummy."""
    idle_turns: int
    """Turns in a row that drew no card from the stock and put none on the table."""
    progress: bool
    """Whether the turn in progress has drawn from the stock or put a card on the table."""
    restocks: int
    """How many times the pile has been turned into a new stock."""
    passed: tuple[int, ...]
    """Per seat, the faces (bits) it left on top of the pile to draw from the stock."""

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat and self.phase != Phase.OVER

    @property
    def hand_cards(self) -> Cards:
        """This seat's cards as :class:`Cards` (``hand`` is the bitset the engine works with)."""
        return Cards(self.hand)

    @property
    def known_cards(self) -> tuple[Cards, ...]:
        """Per seat, the cards it took from the pile and still holds, as :class:`Cards`."""
        return tuple(Cards(cards) for cards in self.known)

    def position(self) -> Position:
        if self.turn != self.seat:
            raise NotYourTurnError("it is not this seat's move")
        no_discard = -1
        if not self.rules.discard_taken_card and self.phase == Phase.PLAY:
            no_discard = taken_face(self.rules, self.history, self.known[self.seat], self.hand)
        return Position(self.rules, self.phase, self.hand, list(self.pile), list(self.melds),
                        self.stock_count, self.must_use, no_discard)

    def legal_moves(self) -> list[Move]:
        """This seat's legal moves (none when it is not its move)."""
        return legal_moves(self.position()) if self.my_turn else []

    def why_illegal(self, move: Move | str) -> str | None:
        if isinstance(move, str):
            move = parse_move(move)
        if not self.my_turn:
            return "it is not your move"
        return why_illegal(self.position(), move)

    def unseen(self) -> int:
        """Cards this seat has not seen: in other hands (beyond the known ones) or the stock."""
        seen = self.hand
        for card in self.pile:
            seen |= 1 << card
        for meld in self.melds:
            for table_card in meld.cards:
                seen |= 1 << table_card.card
        for cards in self.known:
            seen |= cards
        rules = self.rules
        return pack_bits(rules.deck_count(self.players), rules.jokers_in_each_deck) & ~seen

    def unseen_cards(self) -> Cards:
        """:meth:`unseen` as :class:`Cards`."""
        return Cards(self.unseen())

    def unseen_faces(self) -> list[int]:
        return [face_of(card) for card in iter_bits(self.unseen())]


def view_of(
    deal: Deal, seat: int, totals: tuple[int, ...] = (), deal_number: int = 0
) -> PlayerView:
    """The view of ``deal`` from ``seat``."""
    if not 0 <= seat < deal.players:
        raise BadInputError(f"there is no seat {seat}")
    # the fields in their order (rules, players, seat, dealer, turn, phase, hand, hand_sizes,
    # stock_count, pile, melds, known, must_use, credit, totals, deal_number, history,
    # movers, discarder, idle_turns, progress, restocks, passed), not by name: a search
    # makes a view for every move, and naming them costs a third of the making
    return PlayerView(
        deal.rules,
        deal.players,
        seat,
        deal.dealer,
        deal.turn,
        deal.phase,
        deal.hands[seat],
        tuple(hand.bit_count() for hand in deal.hands),
        len(deal.stock),
        tuple(deal.pile),
        tuple(deal.melds),
        tuple(deal.known),
        deal.must_use,
        tuple(deal.credit),
        totals,
        deal_number,
        tuple(deal.moves),
        tuple(deal.movers),
        deal.discarder,
        deal.idle_turns,
        deal.progress,
        deal.restocks,
        tuple(deal.passed),
    )
